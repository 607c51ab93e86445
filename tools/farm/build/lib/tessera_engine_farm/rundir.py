"""The run folder: where a run keeps its arguments and every finished shard, so that nothing is
lost and a run started again with the same arguments goes on where it stopped.

Layout::

    RUN/run.json            what defines the games: subcommand, game arguments, engine file hashes
    RUN/shards/NAME.json    one finished shard's results, written whole (temporary file, rename)
    RUN/report.txt, *.png   the report of the last finished run

Only the driver writes here; workers return their results to it. A shard file exists only once
its shard finished, so a shard retried after a worker died is written once, and a run resumed
skips exactly the shards on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Dict


class RunFolderMismatch(Exception):
    """The folder holds a run with other arguments or other engine builds."""


def digest(definition: Dict[str, Any]) -> str:
    """A short stable digest of a run's definition (the default folder name)."""
    text = json.dumps(definition, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def default_folder(subcommand: str, definition: Dict[str, Any]) -> Path:
    """``farm-runs/SUBCOMMAND-DIGEST`` under the current directory: the same arguments give the
    same folder, so running a command again resumes it."""
    return Path("farm-runs") / f"{subcommand}-{digest(definition)}"


class RunFolder:
    """A run's folder, created on first use."""

    def __init__(self, path: Path, definition: Dict[str, Any]) -> None:
        """Opens ``path`` for the run ``definition``; raises :class:`RunFolderMismatch` when the
        folder already belongs to another run."""
        self.path = Path(path)
        (self.path / "shards").mkdir(parents=True, exist_ok=True)
        manifest = self.path / "run.json"
        if manifest.exists():
            stored = json.loads(manifest.read_text())
            if stored != json.loads(json.dumps(definition)):
                raise RunFolderMismatch(
                    f"{self.path} holds another run (its run.json differs: other arguments or "
                    "another engine build); give another --run-dir or remove the folder"
                )
        else:
            write_atomically(manifest, json.dumps(definition, indent=2, sort_keys=True) + "\n")

    def shard_path(self, name: str) -> Path:
        return self.path / "shards" / f"{name}.json"

    def finished(self, name: str) -> bool:
        return self.shard_path(name).exists()

    def load(self, name: str) -> Any:
        return json.loads(self.shard_path(name).read_text())

    def save(self, name: str, result: Any) -> None:
        write_atomically(self.shard_path(name), json.dumps(result) + "\n")

    def file(self, name: str) -> Path:
        """A report file in the folder (``report.txt``, ``survival.png``)."""
        return self.path / name


def write_atomically(path: Path, text: str) -> None:
    """Writes ``text`` to a temporary file beside ``path`` and renames it over ``path``: a
    reader (or a crash) never sees half a file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)
