#!/usr/bin/env python3
"""Run the README's examples, as a new user would, and fail if one fails.

    python3 tools/readme_examples.py [--readme README.md] [--timeout 60] [--list] [--show] [--keep]

Runs every fenced block of the README whose info string is `sh` (with `bash -e -o pipefail`)
or `python` (with `python3`), in order, each with a time limit. Blocks fenced `console` or
`text` are shown to the reader but not run: they need a display (the GUIs), a peer engine or
framework built outside the repository, or a long time, or they are the CI command itself.

The blocks run the way the README says to run them: from the repository root after
`cargo build --release` (the binary must exist; this script does not build it), with
`target/release` on PATH and `tools/python` on PYTHONPATH (as after
`python3 -m pip install ./tools/python`). So that the files the examples write do not land in
the checkout, the "repository root" they run in is a temporary folder holding a symbolic link to
every top-level entry of the repository; all blocks share it, in README order, so a block may use
what an earlier one wrote. Exits 1 if a block fails or times out, 2 if there is nothing to run.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUNNERS = {"sh": ["bash", "-e", "-o", "pipefail", "-c"], "python": [sys.executable, "-c"]}
FENCE = re.compile(r"^```(\S*)\s*$")


def blocks(text):
    """(info string, first line number, code) of every fenced block, in order."""
    found, info, start, lines = [], None, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if info is None:
            if match:
                info, start, lines = match.group(1), number + 1, []
        elif line.strip() == "```":
            found.append((info, start, "\n".join(lines) + "\n"))
            info = None
        else:
            lines.append(line)
    if info is not None:
        sys.exit(f"unclosed code fence opened at line {start - 1}")
    return found


def mirror(root, into):
    """Links every top-level entry of root into the folder `into`."""
    for entry in root.iterdir():
        if entry.name != ".git":
            os.symlink(entry, into / entry.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--readme", default=str(REPO / "README.md"))
    ap.add_argument("--timeout", type=float, default=60, help="seconds a block may take")
    ap.add_argument("--list", action="store_true", help="print the blocks that would run, run none")
    ap.add_argument("--show", action="store_true", help="print every block's output")
    ap.add_argument("--keep", action="store_true", help="keep the folder the blocks ran in")
    args = ap.parse_args()

    runnable = [(info, line, code) for info, line, code in blocks(Path(args.readme).read_text())
                if info in RUNNERS]
    if not runnable:
        print(f"no sh or python blocks in {args.readme}", file=sys.stderr)
        return 2
    if args.list:
        for info, line, code in runnable:
            print(f"--- {info}, line {line}\n{code}", end="")
        return 0
    engine = REPO / "target" / "release" / "tessera"
    if not engine.exists():
        print(f"{engine} is missing: run `cargo build --release` first", file=sys.stderr)
        return 2

    env = dict(os.environ)
    env["PATH"] = f"{engine.parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in [str(REPO / "tools" / "python"), env.get("PYTHONPATH")] if p)
    work = Path(tempfile.mkdtemp(prefix="readme-examples-"))
    mirror(REPO, work)
    failures, started = 0, time.monotonic()
    try:
        for info, line, code in runnable:
            began = time.monotonic()
            try:
                done = subprocess.run(RUNNERS[info] + [code], cwd=work, env=env, text=True,
                                      stdin=subprocess.DEVNULL, capture_output=True,
                                      timeout=args.timeout)
                status = "ok" if done.returncode == 0 else f"exit {done.returncode}"
                output = done.stdout + done.stderr
            except subprocess.TimeoutExpired as timeout:
                status = f"timed out after {args.timeout:g} s"
                output = "".join(
                    part.decode(errors="replace") if isinstance(part, bytes) else (part or "")
                    for part in (timeout.stdout, timeout.stderr))
            print(f"{status:>8}  {time.monotonic() - began:5.2f} s  {info} block at line {line}")
            if status != "ok":
                failures += 1
                print("    " + code.rstrip().replace("\n", "\n    "))
            if status != "ok" or args.show:
                print("  output:\n    " + output.rstrip().replace("\n", "\n    "))
    finally:
        if args.keep:
            print(f"the blocks ran in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(runnable) - failures} of {len(runnable)} README blocks passed "
          f"in {time.monotonic() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
