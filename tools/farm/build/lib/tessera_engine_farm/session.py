"""The driver side every subcommand shares: check the engines, open the run folder, ship the
bundle, start Ray, and after the run print and keep the report."""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Any, Dict, Iterator, List

from .bundle import Bundle, Program
from .farm import Farm, FarmOptions, Progress, games_in
from .rundir import RunFolder, default_folder


class Session:
    """One invocation of a subcommand: its folder, bundle and Ray session."""

    def __init__(self, args: argparse.Namespace, subcommand: str, definition: Dict[str, Any],
                 programs: List[Program]) -> None:
        """``definition``: everything that decides the games (the run folder is keyed by it);
        the engines' file hashes are added, so a rebuilt binary never resumes an old run."""
        definition = dict(definition, subcommand=subcommand,
                          engines={p.command: p.sha256 for p in programs})
        folder = Path(args.run_dir) if args.run_dir else default_folder(subcommand, definition)
        self.folder = RunFolder(folder, definition)
        self.bundle = Bundle()
        self.started = time.monotonic()
        self.farm_options = FarmOptions(args.address, args.workers, args.retries)
        self.farm: Farm | None = None
        self.stdout = sys.stdout

    def ship(self, program: Program) -> str:
        """The command a worker runs for this engine."""
        return self.bundle.ship(program)

    def start(self, modules: List[Any]) -> Farm:
        """Starts (or joins) Ray with the bundle and ``modules`` shipped to the workers."""
        self.farm = Farm(self.farm_options, self.bundle.runtime_env(modules))
        note(f"run folder {self.folder.path}; {self.farm.describe()}")
        return self.farm

    def progress(self, total_games: int, label: str) -> Progress:
        """A bar over ``total_games``, starting at the games already in the folder."""
        stored = [self.folder.load(p.stem) for p in (self.folder.path / "shards").glob("*.json")]
        return Progress(total_games, games_in(stored), label)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def report(self, lines: List[str], pictures: List[Path]) -> None:
        """Prints the totals, keeps them as ``report.txt`` and names the pictures."""
        for line in lines:
            print(line, file=self.stdout)
        where = [self.farm.nodes_line()] if self.farm else []
        text = "\n".join(lines + where + [f"picture {p}" for p in pictures]) + "\n"
        self.folder.file("report.txt").write_text(text)
        for line in where + [f"picture {p}" for p in pictures]:
            note(line)

    def close(self) -> None:
        if self.farm is not None:
            self.farm.close()
        self.bundle.remove()


@contextmanager
def session(args: argparse.Namespace, subcommand: str, definition: Dict[str, Any],
            programs: List[Program]) -> Iterator[Session]:
    """A :class:`Session`, closed (Ray stopped, bundle removed) however the run ends. Meanwhile
    whatever else prints on stdout goes to stderr: Ray prints its notes there (a worker that
    died and whose task is retried), and stdout is for the totals only."""
    running = Session(args, subcommand, definition, programs)
    try:
        with redirect_stdout(sys.stderr):
            yield running
    finally:
        running.close()


def note(text: str) -> None:
    """A line for people on stderr (stdout carries the totals)."""
    print(text, file=sys.stderr, flush=True)
