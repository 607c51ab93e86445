#!/usr/bin/env python3
"""A long randomised run of the protocol: does any line hold the session, or kill the engine?

    python3 tools/protocol_fuzz.py [--engine target/release/tessera] [--lines 1000000]
                                   [--seed 1] [--batch 50] [--slow-ms 100]
    python3 tools/protocol_fuzz.py --lagging [--lines 2000000] [--catch-up 20] ...

Sends seeded random lines over every game: well-formed commands (every box shape from 2x2 up
to 5x5 and the long thin ones, every Blokus variant, Blockudoku hands; positions built from the
engine's own `legal` answers, so deep positions are reached), the same lines mutated (tokens
dropped, doubled, swapped, characters changed, cut short) and junk. Every line is followed by
`isready`; lines go out in batches, which the engine reads as fast as it can, so the time from
one `readyok` to the next is how long a line held the session. Prints progress, then the lines
that held it longest, and exits 1 if the engine died or went silent for --silence seconds.
Deterministic for a seed, up to timing (the engine's `legal` answers steer later lines).

--lagging plays a client that writes ahead and reads behind (a busy GUI): each batch of random
lines (`isready` among them, then `stop` and `isready`) is written whole before anything is
read, and then the output is read only up to the first `readyok`, so the client falls further
behind with every batch; every --catch-up batches it reads everything owed. A batch not written
and read within --silence seconds is a deadlock (the engine stopped reading its input while its
output was full); the run fails on any deadlock or death.
"""
import argparse
import heapq
import queue
import random
import string
import subprocess
import sys
import threading
import time

# Box shapes: the course's sizes most often, the largest and the thinnest ones too.
BOXES = ["2x2", "2x3", "3x2", "3x3", "2x4", "4x2", "3x4", "4x3", "4x4"] * 3 + [
    "4x5", "5x4", "5x5", "8x3", "3x8", "2x12", "12x2", "1x25", "25x1", "6x4", "4x6", "1x2", "0x3",
    "9x9", "x"]
MODES = ["classic", "rows", "border", "random", "nope"]
VARIANTS = ["classic", "duo", "two", "three", "junior", "trigon"]
SHAPES = ["#", "##", "#/#", "###", "##/##", "###/###/###", "#./##", ".#./###", "#/#/#/#/#",
          "#####", "#.#/###", "##/#.", "1", "12", "47", "0", "99", "#..#", "..", "/", "#/"]
LETTERS = "123456789ABCDEFGHIJKLMNOP"


def vchar(v):
    return LETTERS[v - 1]


class Engine:
    """The engine process; a thread reads its output and passes on what the run needs."""

    def __init__(self, path, lagging=False):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, universal_newlines=True, bufsize=1)
        self.events = queue.Queue()
        self.last_legal = []
        self.stderr = []
        self.answers = 0  # lines read (lagging mode)
        if not lagging:
            threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def read_readyoks(self, count):
        """Lagging mode: reads on this thread up to the `count`-th `readyok`; False at EOF."""
        while count > 0:
            line = self.proc.stdout.readline()
            if not line:
                return False
            self.answers += 1
            if line.startswith("readyok"):
                count -= 1
            elif line.startswith("legal"):
                self.last_legal = line.split()[1:]
        return True

    def _read(self):
        for line in self.proc.stdout:
            if line.startswith("readyok"):
                self.events.put(("readyok", time.perf_counter()))
            elif line.startswith("legal"):
                self.last_legal = line.split()[1:]
        self.events.put(("eof", time.perf_counter()))

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip())

    def send(self, lines):
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines))
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class Generator:
    """Random protocol lines, aware of the game the engine plays now."""

    def __init__(self, rng, engine):
        self.rng = rng
        self.engine = engine
        self.game = None
        self.n = 9
        self.moves = []

    def line(self):
        r = self.rng.random()
        if r < 0.70:
            return self.command()
        if r < 0.93:
            return self.mutate(self.command())
        return self.junk()

    def command(self):
        rng = self.rng
        kind = rng.choices(
            ["newgame", "position", "pieces", "go", "stop", "legal", "show", "setoption", "tei",
             "play"],
            [6, 10, 5, 10, 6, 6, 3, 2, 1, 12])[0]
        if kind == "newgame":
            return self.newgame()
        if kind == "position":
            return self.position()
        if kind == "pieces":
            return "pieces " + " ".join(rng.choice(SHAPES) for _ in range(rng.randint(0, 4)))
        if kind == "go":
            limits = rng.choice(["movetime %d" % rng.randint(0, 60), "depth %d" % rng.randint(0, 4),
                                 "nodes %d" % rng.randint(0, 5000), "infinite",
                                 "time %d inc %d" % (rng.randint(0, 3000), rng.randint(0, 100)),
                                 ""])
            return ("go " + limits).strip()
        if kind == "setoption":
            name = rng.choice(["Seed", "Threads", "MoveOverhead", "Hash", ""])
            return "setoption name %s value %s" % (name, rng.choice(["0", "1", "2", "5000", "-1", "x", "99999999999999999999"]))
        if kind == "play":
            return self.play()
        return kind

    def newgame(self):
        rng = self.rng
        game = rng.choice(["sudoku", "sudoku", "blokus", "blockudoku", "chess"])
        self.game, self.moves = game, []
        if game == "sudoku":
            box = rng.choice(BOXES)
            try:
                a, b = box.split("x")
                self.n = int(a) * int(b)
            except ValueError:
                self.n = 9
            return "newgame sudoku box %s mode %s seed %d" % (box, rng.choice(MODES), rng.randint(0, 9))
        if game == "blokus":
            return "newgame blokus variant " + rng.choice(VARIANTS)
        if game == "blockudoku":
            return "newgame blockudoku pieceset %s" % rng.choice(["standard47", "blocksudoku59", "woodoku49", "x"])
        return "newgame chess"

    def play(self):
        """Extends the game by a move from the engine's latest `legal` answer (the base for
        deep positions)."""
        legal = [m for m in self.engine.last_legal if m != "pass"]
        if legal:
            self.moves.append(self.rng.choice(legal))
        return self.position_with_moves()

    def position_with_moves(self):
        if self.game == "blokus":
            return "position startpos moves " + " ".join(self.moves) if self.moves else "position startpos"
        if self.game == "sudoku":
            return "position startpos moves " + " ".join(self.moves) if self.moves else "position startpos"
        return "legal"

    def position(self):
        rng = self.rng
        if self.game == "blockudoku":
            rows = "/".join("".join(rng.choice("..#") for _ in range(9)) for _ in range(9))
            return "position board %s score %d streak %d" % (rows, rng.randint(0, 999), rng.randint(0, 1))
        if self.game == "sudoku":
            n = max(1, min(self.n, 25))
            fill = rng.random() * 0.6
            rows = "/".join("".join(vchar(rng.randint(1, n)) if rng.random() < fill * 0.2 else "."
                                    for _ in range(n)) for _ in range(n))
            parts = ["position", "board", rows, "turn", str(rng.randint(1, 2))]
            if rng.random() < 0.3:
                parts += ["taboo"] + ["%s%d=%s" % (chr(97 + rng.randrange(n)), rng.randint(1, n), vchar(rng.randint(1, n)))
                                     for _ in range(rng.randint(1, 5))]
            if rng.random() < 0.5:
                return self.position_with_moves()
            return " ".join(parts)
        if self.game == "blokus":
            return self.position_with_moves()
        return "position startpos"

    def mutate(self, line):
        rng = self.rng
        tokens = line.split()
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(6)
            if op == 0 and tokens:
                del tokens[rng.randrange(len(tokens))]
            elif op == 1 and tokens:
                i = rng.randrange(len(tokens))
                tokens.insert(i, tokens[i])
            elif op == 2 and len(tokens) > 1:
                i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
                tokens[i], tokens[j] = tokens[j], tokens[i]
            elif op == 3 and tokens:
                i = rng.randrange(len(tokens))
                t = list(tokens[i])
                if t:
                    t[rng.randrange(len(t))] = rng.choice(string.printable.strip() + "é€\t")
                tokens[i] = "".join(t)
            elif op == 4:
                tokens.append(rng.choice(["moves", "board", "taboo", "owners", "scores", "1", "-",
                                          "pass", "9" * rng.randint(1, 30)]))
            elif op == 5 and tokens:
                tokens = tokens[:rng.randrange(len(tokens) + 1)]
        return " ".join(tokens)

    def junk(self):
        rng = self.rng
        kind = rng.randrange(4)
        if kind == 0:
            return ""
        if kind == 1:
            return "".join(rng.choice(string.printable.strip() + " ") for _ in range(rng.randint(1, 80)))
        if kind == 2:
            return rng.choice(["go", "position", "legal", "newgame"]) + " " + "x" * rng.randint(1000, 20000)
        return " ".join(rng.choice(["go", "stop", "isready", "movetime", "depth", "-5", "1e9", "∞"])
                        for _ in range(rng.randint(1, 8)))


def run_lagging(args, rng):
    """The lagging client (see --lagging); returns the exit code."""
    engine = Engine(args.engine, lagging=True)
    gen = Generator(rng, engine)
    sent = batches = deadlocks = deaths = 0
    owed = 0  # readyoks the engine owes the client (isready sent, readyok not read yet)
    most_owed = 0
    started = time.perf_counter()
    next_report = 100_000
    while sent < args.lines:
        batch = [gen.line() for _ in range(args.batch)]
        batch = [line for line in batch if line.split()[:1] != ["quit"]]
        for _ in range(rng.randint(0, 2)):
            batch.insert(rng.randrange(len(batch) + 1), "isready")
        batch += ["stop", "isready"]
        asked = sum(1 for line in batch if line.split() == ["isready"])
        batches += 1
        catch_up = batches % args.catch_up == 0
        stuck = threading.Event()
        timer = threading.Timer(args.silence, lambda: (stuck.set(), engine.proc.kill()))
        timer.start()
        ok = engine.send(batch)
        if ok:
            owed += asked
            most_owed = max(most_owed, owed)
            want = owed if catch_up else 1
            ok = engine.read_readyoks(want)
            if ok:
                owed -= want
        timer.cancel()
        sent += len(batch)
        if not ok:
            what = "deadlock" if stuck.is_set() else "engine closed"
            deadlocks += stuck.is_set()
            deaths += not stuck.is_set()
            print(f"FAILURE ({what}) in batch {batches} ({sent} lines), {owed} readyoks owed\n"
                  f"  stderr: {engine.stderr[-5:]}", flush=True)
            engine.proc.kill()
            engine = Engine(args.engine, lagging=True)
            gen.engine, gen.game, owed = engine, None, 0
            continue
        if sent >= next_report:
            rate = sent / (time.perf_counter() - started)
            print(f"{sent} lines, {engine.answers} answers read, {owed} readyoks owed now "
                  f"(most {most_owed}), {rate:.0f} lines/s", flush=True)
            next_report += 100_000
    ok = engine.send(["isready"]) and engine.read_readyoks(owed + 1)
    engine.close()
    elapsed = time.perf_counter() - started
    print(f"done (lagging): {sent} lines in {batches} batches in {elapsed:.0f} s, seed {args.seed}, "
          f"at most {most_owed} readyoks owed, {deadlocks} deadlocks, {deaths} engine deaths, "
          f"final catch-up {'ok' if ok else 'FAILED'}")
    return 0 if ok and not deadlocks and not deaths else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=50, help="lines sent at once (each with its isready)")
    ap.add_argument("--slow-ms", type=float, default=100.0, help="count lines that hold the session longer")
    ap.add_argument("--silence", type=float, default=30.0, help="seconds without readyok that count as a hang")
    ap.add_argument("--report", type=int, default=5, help="slowest lines to print")
    ap.add_argument("--lagging", action="store_true",
                    help="a client that writes ahead and reads behind (see above)")
    ap.add_argument("--catch-up", type=int, default=20,
                    help="lagging: read everything owed every this many batches")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    if args.lagging:
        sys.exit(run_lagging(args, rng))
    engine = Engine(args.engine)
    gen = Generator(rng, engine)
    sent = probes = slow = restarts = 0
    slowest = []  # heap of (ms, line number, line, the lines before it)
    started = time.perf_counter()
    failures = []
    recent = []
    gen_game = "(no newgame yet)"
    next_report = 100_000
    while sent < args.lines:
        batch = [gen.line() for _ in range(args.batch)]
        # `quit` would end the engine, and an `isready` of the batch would answer a probe.
        batch = [line for line in batch if line.split()[:1] not in (["quit"], ["isready"])]
        batch.append("stop")
        t0 = time.perf_counter()
        ok = engine.send([part for line in batch for part in (line, "isready")])
        answered = []
        while ok and len(answered) < len(batch):
            try:
                event = engine.events.get(timeout=args.silence)
            except queue.Empty:
                event = ("silence", time.perf_counter())
            if event[0] != "readyok":
                ok = False
                break
            answered.append(event[1])
        if not ok:
            failed = batch[len(answered)] if len(answered) < len(batch) else "?"
            what = "engine closed" if engine.proc.poll() is not None else "silence"
            failures.append((what, failed))
            print(f"FAILURE ({what}) after {sent + len(answered)} lines at: {failed[:300]}\n"
                  f"  stderr: {engine.stderr[-5:]}", flush=True)
            engine.proc.kill()
            engine = Engine(args.engine)
            gen.engine = engine
            gen.game = None
            restarts += 1
            sent += len(batch)
            continue
        # A line held the session from the previous readyok (or the send) to its own readyok.
        previous = t0
        for line, at in zip(batch, answered):
            ms = (at - previous) * 1000
            previous = at
            sent += 1
            probes += 1
            if ms > args.slow_ms:
                slow += 1
            item = (ms, sent, line, [gen_game] + recent[-3:])
            if len(slowest) < args.report:
                heapq.heappush(slowest, item)
            elif ms > slowest[0][0]:
                heapq.heapreplace(slowest, item)
            recent.append(line)
            if line.startswith("newgame"):
                gen_game = line
            if len(recent) > 6:
                del recent[:3]
        if sent >= next_report:
            rate = sent / (time.perf_counter() - started)
            print(f"{sent} lines, {slow} held the session over {args.slow_ms:g} ms, "
                  f"longest {max(slowest)[0]:.1f} ms, {rate:.0f} lines/s", flush=True)
            next_report += 100_000
    engine.close()
    waits = sum("waiting for the oldest" in line for line in engine.stderr)
    if waits:
        print(f"{waits} times every search thread was busy (RUST_LOG=debug)")
    elapsed = time.perf_counter() - started
    print(f"done: {sent} lines (each followed by isready) in {elapsed:.0f} s, seed {args.seed}, "
          f"{slow} lines held the session over {args.slow_ms:g} ms, {len(failures)} failures, "
          f"{restarts} restarts")
    for ms, number, line, before in sorted(slowest, reverse=True):
        short = lambda text: text if len(text) < 160 else text[:160] + f"... ({len(text)} chars)"
        print(f"line {number}: readyok {ms:.1f} ms after the previous answer: {short(line)}")
        for b in before:
            print("    after: " + short(b))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
