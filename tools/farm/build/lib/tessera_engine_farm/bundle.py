"""What reaches the workers, through Ray's runtime environment: the engine binaries (copied into a
``working_dir`` that Ray uploads to every node and unpacks as each worker's current directory)
and the Python modules the shards import (``py_modules``: this package and
``tessera_engine_client``, whose ``blokus_match`` referees Blokus games). Nothing needs to be
installed or copied on a worker node beyond Python with Ray.

An engine command whose program is a path (``target/release/tessera gtp --nodes 300``) is
shipped: the file is copied to ``bin/`` of the bundle and the command is rewritten to use the
copy. A program named without a slash (``pentobi-gtp ...``) is looked up on the PATH of the
driver and used by name on every node, so it must be installed on each of them.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Optional


class MissingProgram(Exception):
    """An engine's program does not exist or cannot be run."""


@dataclass(frozen=True)
class Program:
    """An engine command as the user gave it, and the file its program is (None when it is
    used by name from the PATH)."""

    command: str
    path: Optional[Path]
    sha256: Optional[str]

    @property
    def words(self) -> List[str]:
        return shlex.split(self.command)


def program(command: str) -> Program:
    """Checks that ``command``'s program exists and can be run; raises :class:`MissingProgram`
    with the reason otherwise."""
    words = shlex.split(command)
    if not words:
        raise MissingProgram("an empty engine command")
    name = words[0]
    if "/" not in name:
        if shutil.which(name) is None:
            raise MissingProgram(f"engine program {name!r} is not on the PATH "
                                 f"(command {command!r})")
        return Program(command, None, None)
    path = Path(name)
    if not path.is_file():
        raise MissingProgram(f"engine binary {name} does not exist (command {command!r}); "
                             "build it (cargo build --release) or give its path")
    if not os.access(path, os.X_OK):
        raise MissingProgram(f"engine binary {name} is not executable (command {command!r})")
    return Program(command, path, hashlib.sha256(path.read_bytes()).hexdigest())


def default_engine() -> str:
    """The tessera binary used when no ``--engine`` is given: ``$TESSERA_ENGINE``, else
    ``target/release/tessera`` under the current folder (a checkout's build), else ``tessera``
    from the PATH (``cargo install``)."""
    from_env = os.environ.get("TESSERA_ENGINE")
    if from_env:
        return from_env
    if Path("target/release/tessera").is_file():
        return "target/release/tessera"
    return "tessera"


def use_checkout(repo: Path) -> None:
    """Makes a tessera checkout's client (``tools/python``: ``tessera_engine_client``, with the
    Blokus match runner and the Blockudoku referee) importable ahead of the installed one, for a
    run with another checkout's tools. Raises FileNotFoundError when ``repo`` is not a
    checkout. Call it before anything imports ``tessera_engine_client``."""
    client = Path(repo).resolve() / "tools" / "python"
    if not (client / "tessera_engine_client" / "__init__.py").is_file():
        raise FileNotFoundError(f"{Path(repo).resolve()} is not a tessera checkout (no "
                                "tools/python/tessera_engine_client)")
    if str(client) not in sys.path:
        sys.path.insert(0, str(client))


class Bundle:
    """A temporary ``working_dir`` for the workers, holding the shipped engine binaries."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="tessera-farm-bundle-"))
        (self.dir / "bin").mkdir()
        self._shipped: Dict[Path, str] = {}

    def ship(self, engine: Program) -> str:
        """The command the workers run for ``engine`` (relative to their working directory)."""
        if engine.path is None:
            return engine.command
        resolved = engine.path.resolve()
        if resolved not in self._shipped:
            name = f"bin/{len(self._shipped)}-{resolved.name}"
            shutil.copy2(resolved, self.dir / name)
            self._shipped[resolved] = name
        return shlex.join([self._shipped[resolved]] + engine.words[1:])

    def runtime_env(self, modules: List[ModuleType]) -> dict:
        """Ray's ``runtime_env`` for the run's tasks."""
        return {"working_dir": str(self.dir), "py_modules": modules}

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

