"""tessera_engine_client.background.EngineThread against the real engine binary."""

import queue

from tessera_engine_client import Limit
from tessera_engine_client.background import EngineThread

TIMEOUT = 10


def answer(worker, kind=None):
    """The next answer (of ``kind``, skipping others)."""
    while True:
        msg = worker.answers.get(timeout=TIMEOUT)
        if kind is None or msg[0] == kind:
            return msg


class Worker(EngineThread):
    def __init__(self, command):
        super().__init__(command, handlers={"newgame": self._new_game,
                                            "search": self.search_handler(self._search)})

    def _new_game(self, token):
        with self.answering_errors(token):
            self.engine.new_game("blockudoku")
            self.engine.position(pieces=["#", "##", "###"])
            self.answers.put(("done", token))

    def _search(self, token, limit):
        result = self.analyse(token, limit, every=0)
        self.answers.put(("best", token, result.bestmove))


def test_ready_requests_and_quit(engine_cmd):
    worker = Worker(engine_cmd)
    worker.start()
    assert answer(worker)[0] == "ready"
    worker.request("no such request")  # ignored
    worker.request("newgame", 1)
    assert answer(worker) == ("done", 1)
    worker.request("search", 2, Limit(movetime=50))
    info = answer(worker)
    assert info[:2] == ("info", 2) and "depth" in info[2]
    best = answer(worker, "best")
    assert best[1] == 2 and best[2]
    process = worker.engine.process
    worker.quit()
    assert not worker.is_alive() and process.poll() is not None


def test_cancel_stops_the_search_and_drops_queued_ones(engine_cmd):
    worker = Worker(engine_cmd)
    worker.start()
    assert answer(worker)[0] == "ready"
    worker.request("newgame", 1)
    assert answer(worker) == ("done", 1)
    worker.request("search", 2, Limit(infinite=True))
    worker.request("search", 3, Limit(infinite=True))
    assert answer(worker)[:2] == ("info", 2)
    worker.cancel(3)  # stops search 2, and search 3 never starts
    assert answer(worker, "best")[1] == 2
    worker.request("newgame", 4)
    later = []
    while not later or later[-1][0] != "done":
        later.append(answer(worker))
    assert later[-1] == ("done", 4) and all(msg[1] != 3 for msg in later)
    worker.quit()
    assert not worker.is_alive()


def test_errors_are_answered_with_the_token(engine_cmd):
    worker = EngineThread(engine_cmd)
    worker.handlers["bad"] = lambda token: _bad(worker, token)
    worker.start()
    assert answer(worker)[0] == "ready"
    worker.request("bad", 7)
    kind, token, message = answer(worker)
    assert (kind, token) == ("error", 7) and message
    worker.engine.ping()  # the engine still serves
    worker.quit()


def _bad(worker, token):
    with worker.answering_errors(token):
        worker.engine.send_raw("newgame nosuchgame")
        worker.engine.ping()


def test_failed_when_the_engine_does_not_start(tmp_path):
    worker = EngineThread(str(tmp_path / "missing"))
    worker.start()
    kind, message = answer(worker)
    assert kind == "failed" and message.startswith("engine not started")
    worker.join(TIMEOUT)
    assert not worker.is_alive()
    assert worker.answers.empty()


def test_poll_hands_answers_to_the_ui_loop():
    worker = EngineThread("unused", answers=queue.Queue())
    timers = []

    class Root:
        def after(self, ms, fn):
            timers.append((ms, fn))

    got = []
    closed = [False]
    worker.poll(Root(), got.append, lambda: closed[0], every_ms=15)
    worker.answers.put(("a",))
    worker.answers.put(("b",))
    ms, fn = timers.pop()
    fn()
    assert ms == 15 and got == [("a",), ("b",)] and len(timers) == 1
    closed[0] = True
    timers.pop()[1]()
    assert not timers
