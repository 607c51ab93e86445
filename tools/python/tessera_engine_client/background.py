"""An engine on a background thread, for programs with an event loop (the Tkinter GUIs).

The thread owns the :class:`~tessera_engine_client.engine.Engine`: the UI thread puts requests on
one queue and reads the answers from another, so it never waits while the engine thinks::

    worker = EngineThread("target/release/tessera", handlers={"hello": greet})
    worker.start()                       # answers ("ready", name) or ("failed", message)
    worker.request("hello", 1, "world")  # greet(1, "world") runs on the worker thread
    worker.poll(root, on_answer, lambda: closed)   # Tk: each answer to on_answer(msg)
    worker.quit()                        # ("quit",), then waits for the thread

A request is a tuple ``(kind, *args)``; ``handlers[kind](*args)`` serves it (unknown kinds are
ignored). Requests about a search carry a *token* (a number that grows with every request of
the UI): :meth:`cancel` drops the searches up to a token and stops the running one.
"""

from __future__ import annotations

import queue
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Tuple, Type

from .engine import Engine, EngineError, EngineTerminated, Limit, PlayResult

__all__ = ["EngineThread"]

Answer = Tuple[Any, ...]


class EngineThread(threading.Thread):
    """Starts the engine and serves requests on its own (daemon) thread.

    Answers on :attr:`answers`: ``("ready", name)`` once the engine runs, ``("failed",
    message)`` if it did not start, ``("dead", message)`` if it died or failed outside a
    request's own error handling (the thread ends), and whatever the handlers post; the helpers
    below post ``("info", token, info)``, ``("error", token, message)`` and ``("level", level)``.

    ``command`` is what :meth:`Engine.popen` takes. A subclass may override :meth:`open` to
    start the engine differently (it returns the :class:`Engine`) and fill :attr:`handlers`.
    """

    def __init__(self, command: Any, answers: Optional["queue.Queue[Answer]"] = None,
                 handlers: Optional[Mapping[str, Callable[..., None]]] = None,
                 timeout: float = 10.0) -> None:
        super().__init__(name="engine-worker", daemon=True)
        self.command = command
        self.timeout = timeout
        self.requests: "queue.Queue[Answer]" = queue.Queue()
        self.answers: "queue.Queue[Answer]" = queue.Queue() if answers is None else answers
        self.handlers: Dict[str, Callable[..., None]] = dict(handlers or {})
        self.engine: Optional[Engine] = None
        self.current_token = -1  # the search running now (-1: none)
        self.cancelled = -1      # searches up to this token are dropped
        self.level: Optional[int] = None  # the Level sent to the engine (None: not yet)

    # ------------------------------------------------------------------ from the UI thread
    def request(self, *req: Any) -> None:
        """Queues the request ``(kind, *args)``."""
        self.requests.put(req)

    def cancel(self, token: int) -> None:
        """Drops every search request up to ``token`` and stops such a search if it runs."""
        self.cancelled = max(self.cancelled, token)
        if 0 <= self.current_token <= token:
            self._stop_engine()

    def move_now(self, token: int) -> None:
        """Ends search ``token`` early if it runs; its result is still answered."""
        if self.current_token == token:
            self._stop_engine()

    def poll(self, root: Any, handle: Callable[[Answer], None], closed: Callable[[], bool],
             every_ms: int = 15) -> None:
        """Every ``every_ms`` ms (``root.after``, so on the Tk thread) hands each waiting answer
        to ``handle``, until ``closed()`` is true."""

        def drain() -> None:
            try:
                while not closed():
                    handle(self.answers.get_nowait())
            except queue.Empty:
                pass
            if not closed():
                root.after(every_ms, drain)

        root.after(every_ms, drain)

    def quit(self, timeout: float = 3.0) -> None:
        """Asks the thread to quit the engine and end; waits up to ``timeout`` seconds."""
        self.request("quit")
        self.join(timeout=timeout)

    def _stop_engine(self) -> None:
        engine = self.engine
        if engine is not None:
            try:
                engine.stop()
            except EngineError:
                pass

    # ------------------------------------------------------------------ on the worker thread
    def open(self) -> Engine:
        """Starts the engine (runs on the worker thread)."""
        return Engine.popen(self.command, timeout=self.timeout)

    def run(self) -> None:
        try:
            self.engine = self.open()
        except (OSError, EngineError) as e:
            self.answers.put(("failed", f"engine not started: {e}"))
            return
        self.answers.put(("ready", self.engine.name or "engine"))
        try:
            for kind, *args in iter(self.requests.get, ("quit",)):
                handler = self.handlers.get(kind)
                if handler is not None:
                    handler(*args)
        except EngineTerminated as e:
            self.answers.put(("dead", str(e)))
        except EngineError as e:
            self.answers.put(("dead", f"engine error: {e}"))
        finally:
            try:
                self.engine.quit(timeout=2)
            except Exception:  # noqa: BLE001 - closing down anyway
                pass

    @contextmanager
    def answering_errors(self, token: int,
                         errors: Tuple[Type[BaseException], ...] = (EngineError,)) -> Iterator[None]:
        """Within it, an error of ``errors`` is answered ``("error", token, message)``; a dead
        engine (:class:`EngineTerminated`) still ends the thread."""
        try:
            yield
        except EngineTerminated:
            raise
        except errors as e:
            self.answers.put(("error", token, str(e)))

    def search_handler(self, search: Callable[..., None],
                       errors: Tuple[Type[BaseException], ...] = (EngineError,)
                       ) -> Callable[..., None]:
        """A handler for a search request ``(kind, token, *args)``: runs ``search(token,
        *args)`` as the current search (:meth:`cancel` and :meth:`move_now` stop it) unless
        ``token`` was cancelled; its errors as in :meth:`answering_errors`."""

        def handler(token: int, *args: Any) -> None:
            if token <= self.cancelled:
                return
            self.current_token = token
            try:
                with self.answering_errors(token, errors):
                    search(token, *args)
            finally:
                self.current_token = -1

        return handler

    def set_level(self, level: int) -> None:
        """Sets the engine's ``Level`` (1..10) before a search, unless it has it already or
        does not know the option; answers ``("level", level)`` once the engine took it (a
        refused level raises :class:`EngineError` in the request that asked for it)."""
        assert self.engine is not None
        if level != self.level and "Level" in self.engine.options:
            self.engine.configure(Level=level)
            self.engine.ping()
            self.level = level
            self.answers.put(("level", level))

    def info_poster(self, token: int, every: float = 0.05) -> Callable[[Dict[str, Any]], None]:
        """A callback that answers ``("info", token, info)``, at most one every ``every`` s."""
        last = 0.0

        def post(info: Dict[str, Any]) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last > every:
                self.answers.put(("info", token, info))
                last = now

        return post

    def analyse(self, token: int, limit: Limit, every: float = 0.05,
                multipv: Optional[int] = None) -> PlayResult:
        """Searches the engine's position (in a :meth:`search_handler`), posting the info lines of
        its best line as :meth:`info_poster` does; stopped at once if ``token`` was cancelled
        meanwhile.
        ``multipv``: as in :meth:`Engine.analyse`; the lines are in the result's ``lines``."""
        assert self.engine is not None
        analysis = self.engine.analysis(limit, multipv=multipv)
        if token <= self.cancelled:
            self.engine.stop()
        post = self.info_poster(token, every)
        for info in analysis:
            if info.get("multipv", 1) == 1:  # the progress of the best line
                post(info)
        assert analysis.result is not None
        return analysis.result
