#!/usr/bin/env python3
"""Blokus rules check: GTP engines and the Python rules must agree on every legal move.

Plays seeded random games of a Blokus variant through one or more GTP engines at once and the
rules of ``tessera_engine_client.blokus``. At every position it asks each engine ``all_legal``
for the colour in turn (and, when that colour cannot move, for the colour that moves instead) and
compares the answers, as sets of point sets (an engine may list them in any order and spell a
move's points in any order), with each other and with the Python rules; at the end of each game
it compares every engine's ``final_score`` with the rules' points. Python 3.9+, standard library
plus ``tessera_engine_client`` (tools/python, used from the checkout).

    python3 tools/blokus_rules_check.py --variant trigon --games 30 --seed 1 \\
        --engine "pentobi-gtp -g trigon --nobook --noresign -q" \\
        [--engine "target/release/tessera gtp --variant trigon"] [--engine-moves K]

Variants: Pentobi's ``-g`` names ``classic``, ``classic_2``, ``classic_3``, ``duo``, ``junior``,
``trigon``, ``trigon_2``, ``trigon_3``, ``callisto``, ``callisto_2``, ``callisto_2_4``,
``callisto_3``, ``nexos``, ``nexos_2``, ``gembloq``, ``gembloq_2``, ``gembloq_2_4``, ``gembloq_3`` (or tessera_engine_client's, ``two``, ``three``). Each engine
gets ``set_game NAME`` (the SGF game name, ``Blokus Trigon``; ``--no-set-game`` leaves it to
the command line), then per game ``clear_board`` (and ``set_random_seed`` if it knows the
command), ``play COLOUR MOVE`` for every move and ``all_legal COLOUR`` / ``final_score`` as
above. Colours are ``b``/``w`` with two colours, ``1``..``4`` otherwise; moves are sent in the
reference order ``a1, b1, ..., a2, ...``.

Moves. Each move is drawn uniformly (``random.Random(f"{seed}/{game}")``) from the rules' legal
moves of the colour to play, sorted by their text; with ``--engine-moves K`` the first engine
chooses K moves in every K + 1 (``genmove``) and the next one is random again, so that the
positions look like real games and the games still differ. An engine's ``genmove`` answer that
the rules refuse is a mismatch.

Callisto: Pentobi's ``all_legal`` (its Board::gen_moves) also lists, once a colour has placed
one single square, its other pieces touching that square along an edge, which its ``play`` and
its search refuse until the colour has placed two single squares. Moves an engine lists there
beyond the rules' are allowed when the rules refuse each of them for that reason only (and every
move of the rules is listed); they are counted as "extra moves allowed".

GembloQ: Pentobi's ``all_legal`` also lists first pieces covering only some of the four
triangles of a colour's starting square, which its ``play`` refuses (it needs all four). Such
first pieces that an engine lists beyond the rules' are sent to that engine's ``play``: when it
refuses every one of them they are counted as "listed moves refused by the engine's play" (its
``play`` is the rule); one it accepts (then taken back with ``undo``), or any other move listed
beyond the rules', is a mismatch.

Output: a line per game, then the totals: positions compared (positions where every engine's
``all_legal`` was compared with the rules), ``all_legal`` answers compared, legal moves seen,
final scores compared and mismatches. The first mismatch is printed in full: game, move
number, colour, the moves so far (``--sgf FILE`` also writes that game up to the mismatch in
Blokus SGF) and the moves that only some of the sides list. Exit status 0 when everything
agreed, 1 on any mismatch, 2 when an engine cannot be used.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import FrozenSet, List, Optional, Sequence, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent / "python"))  # the checkout's client

from tessera_engine_client import blokus, blokus_sgf  # noqa: E402
from tessera_engine_client.blokus_match import (  # noqa: E402
    VARIANTS, EngineFailure, GtpEngine, GtpError, expected_score, gtp_colour, variant_of)

MoveSet = Set[FrozenSet[blokus.Square]]
SHOWN = 5  # moves listed per side in a mismatch report


@dataclass
class Mismatch:
    """A disagreement: where it happened and what differed."""

    game: int
    move_number: int
    """The number of moves played before the position (0: the empty board)."""
    colour: Optional[int]
    what: str
    moves: List[Tuple[int, str]]
    """The moves played up to the position: (colour, text)."""
    record: Optional[blokus.Game] = None

    def report(self, info: blokus.VariantInfo) -> str:
        colour = "-" if self.colour is None else gtp_colour(info, self.colour)
        lines = [f"game {self.game}, after {self.move_number} moves, colour {colour}: {self.what}",
                 "  moves: " + (" ".join(f"{gtp_colour(info, c)}:{t}" for c, t in self.moves)
                                or "(none)")]
        return "\n".join(lines)


@dataclass
class Totals:
    games: int = 0
    positions: int = 0
    answers: int = 0
    legal_moves: int = 0
    engine_moves: int = 0
    scores: int = 0
    extra_allowed: int = 0
    """Moves an engine listed before a colour's contact pieces were allowed (see above)."""
    refused_by_play: int = 0
    """Moves an engine listed beyond the rules' that its own ``play`` refuses (see above)."""
    mismatches: List[Mismatch] = field(default_factory=list)


class Checker:
    """The engines of a run, started once and reused for every game."""

    def __init__(self, commands: Sequence[str], info: blokus.VariantInfo, set_game: bool,
                 timeout: Optional[float]) -> None:
        self.info = info
        self.commands = list(commands)
        self.engines: List[GtpEngine] = []
        self.names: List[str] = []
        self.seedable: List[bool] = []
        try:
            for k, command in enumerate(commands, 1):
                try:
                    eng = GtpEngine(command, timeout)
                except OSError as e:
                    raise SystemExit(f"blokus_rules_check: cannot start {command!r}: {e}")
                self.engines.append(eng)
                try:
                    if set_game:
                        eng.send(f"set_game {info.game_name}")
                    name = eng.send("name").strip() or Path(shlex.split(command)[0]).name
                    self.seedable.append(eng.send("known_command set_random_seed").strip()
                                         == "true")
                except (GtpError, EngineFailure) as e:
                    raise SystemExit(f"blokus_rules_check: engine {k} ({command!r}) cannot play "
                                     f"{info.title}: {e}")
                self.names.append(f"{k}:{name}")
        except SystemExit:
            self.close()
            raise

    def close(self) -> None:
        for eng in self.engines:
            eng.close()

    def play_refuses(self, e: int, colour: int, moves: MoveSet) -> bool:
        """Whether engine e's ``play`` refuses every one of ``moves`` for ``colour`` (one it
        accepts is taken back with ``undo``)."""
        name = gtp_colour(self.info, colour)
        for m in sorted(moves, key=blokus.move_text):
            try:
                self.engines[e].send(f"play {name} {blokus.move_text(m)}")
            except GtpError:
                continue
            except EngineFailure:
                return False
            self.engines[e].send("undo")
            return False
        return True

    def legal(self, e: int, colour: int) -> Tuple[Optional[MoveSet], str]:
        """Engine e's ``all_legal``: the set of moves, or None and why it could not be read."""
        try:
            text = self.engines[e].send(f"all_legal {gtp_colour(self.info, colour)}")
        except (GtpError, EngineFailure) as err:
            return None, f"all_legal failed: {err}"
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        moves: MoveSet = set()
        for line in lines:
            try:
                moves.add(blokus.parse_move(line, self.info))
            except ValueError as err:
                return None, f"all_legal listed {line!r}: {err}"
        if len(moves) != len(lines):
            return None, f"all_legal listed {len(lines) - len(moves)} moves twice"
        return moves, ""


def _diff_text(name: str, ours: MoveSet, theirs: MoveSet) -> str:
    """What ``name`` lists that the rules do not, and the other way round."""
    parts = []
    for label, extra in ((f"only {name}", theirs - ours), ("only the rules", ours - theirs)):
        if extra:
            shown = sorted(blokus.move_text(m) for m in extra)
            more = f" and {len(shown) - SHOWN} more" if len(shown) > SHOWN else ""
            parts.append(f"{label} ({len(shown)}): {' '.join(shown[:SHOWN])}{more}")
    return "; ".join(parts)


def early_contact_moves(pos: blokus.Position, colour: int, extra: MoveSet) -> bool:
    """Whether ``extra`` (moves an engine lists beyond the rules') are all moves the rules refuse
    only because ``colour`` has not placed its first loose pieces yet, while it has placed some
    (Pentobi's ``all_legal`` lists them in Callisto; see the module's text)."""
    info = pos.variant
    if not 0 < pos.loose_placed(colour) < info.loose_first:
        return False
    early = pos.copy()
    for piece in info.loose:  # as if the colour had placed them all
        early.left[colour][piece] = 0
    return all(pos.geometry.piece_of(m) not in info.loose and early.is_legal(colour, m)
               for m in extra)


def half_covered_starts(pos: blokus.Position, colour: int, extra: MoveSet) -> bool:
    """Whether ``extra`` (moves an engine lists beyond the rules') are all first pieces of
    ``colour`` in GembloQ covering some but not all of its starting square's triangles (see the
    module's text)."""
    info = pos.variant
    if not info.first_covers_all_starts or pos.placed(colour) > 0:
        return False
    starts = frozenset(info.starts_of(colour))
    return all(m & starts and not starts <= m for m in extra)


def play_game(checker: Checker, number: int, seed: int, engine_moves: int,
              totals: Totals) -> Tuple[int, int, Optional[Mismatch]]:
    """Plays and checks game ``number``; returns (moves, positions, first mismatch or None).
    Stops at the first mismatch (the engines' boards may differ from the rules' after it)."""
    info = checker.info
    rng = random.Random(f"{seed}/{number}")
    game = blokus.Game(info.name)
    history: List[Tuple[int, str]] = []
    positions = 0

    def mismatch(colour: Optional[int], what: str) -> Mismatch:
        found = Mismatch(number, len(game), colour, what, list(history), game)
        totals.mismatches.append(found)
        return found

    for e, eng in enumerate(checker.engines):
        try:
            eng.send("clear_board")
            if checker.seedable[e]:
                eng.send(f"set_random_seed {(seed * 7919 + number * 31 + e) % 2**31}")
        except (GtpError, EngineFailure) as err:
            return 0, 0, mismatch(None, f"{checker.names[e]}: clear_board failed: {err}")

    while True:
        pos = game.position
        mover = pos.effective_to_play()
        asked = [pos.to_play] + ([mover] if mover is not None and mover != pos.to_play else [])
        for colour in asked:
            ours = set(pos.legal_moves(colour))
            totals.legal_moves += len(ours)
            for e in range(len(checker.engines)):
                theirs, why = checker.legal(e, colour)
                totals.answers += 1
                if theirs is None:
                    return len(game), positions, mismatch(colour, f"{checker.names[e]}: {why}")
                if theirs > ours and early_contact_moves(pos, colour, theirs - ours):
                    totals.extra_allowed += len(theirs - ours)
                elif (theirs > ours and half_covered_starts(pos, colour, theirs - ours)
                      and checker.play_refuses(e, colour, theirs - ours)):
                    totals.refused_by_play += len(theirs - ours)
                elif theirs != ours:
                    return len(game), positions, mismatch(
                        colour, f"all_legal: {checker.names[e]} lists {len(theirs)} moves, the "
                        f"rules {len(ours)}; " + _diff_text(checker.names[e], ours, theirs))
        positions += 1
        totals.positions += 1
        if mover is None:
            break
        name = gtp_colour(info, mover)
        by_engine = engine_moves > 0 and len(game) % (engine_moves + 1) < engine_moves
        if by_engine:
            try:
                answer = checker.engines[0].send(f"genmove {name}").strip()
            except (GtpError, EngineFailure) as err:
                return len(game), positions, mismatch(
                    mover, f"{checker.names[0]}: genmove {name} failed: {err}")
            try:
                move = blokus.parse_move(answer, info)
                why = pos.check(mover, move)
            except ValueError as err:
                why = str(err)
            if why is not None:
                return len(game), positions, mismatch(
                    mover, f"{checker.names[0]}: genmove {name} answered {answer!r}, which the "
                    f"rules refuse: {why}")
            totals.engine_moves += 1
        else:
            move = rng.choice(sorted(pos.legal_moves(mover), key=blokus.move_text))
        text = blokus.move_text(move)
        game.play(move, mover)
        history.append((mover, text))
        for e, eng in enumerate(checker.engines):
            if by_engine and e == 0:
                continue  # genmove played it on that engine's board
            try:
                eng.send(f"play {name} {text}")
            except (GtpError, EngineFailure) as err:
                game.undo()
                history.pop()
                return len(game), positions, mismatch(
                    mover, f"{checker.names[e]} refuses play {name} {text}: {err}")

    want = expected_score(info, game.position)
    for e, eng in enumerate(checker.engines):
        try:
            got = eng.send("final_score").strip()
        except (GtpError, EngineFailure) as err:
            return len(game), positions, mismatch(None, f"{checker.names[e]}: final_score "
                                                  f"failed: {err}")
        totals.scores += 1
        if got.split() != want.split():
            return len(game), positions, mismatch(
                None, f"final_score: {checker.names[e]} says {got!r}, the rules {want!r}")
    return len(game), positions, None


def run(commands: Sequence[str], info: blokus.VariantInfo, games: int, seed: int,
        engine_moves: int = 0, set_game: bool = True, timeout: Optional[float] = 120.0,
        keep_going: bool = False, out=sys.stdout) -> Totals:
    """Checks ``games`` games; prints a line per game to ``out`` (None: silent)."""
    totals = Totals()
    checker = Checker(commands, info, set_game, timeout)
    try:
        for number in range(1, games + 1):
            start = time.monotonic()
            moves, positions, found = play_game(checker, number, seed, engine_moves, totals)
            totals.games += 1
            if out is not None:
                status = "ok" if found is None else "MISMATCH"
                print(f"game {number}/{games}: {moves} moves, {positions} positions, {status} "
                      f"({time.monotonic() - start:.1f} s)", file=out, flush=True)
            if found is not None and not keep_going:
                break
    finally:
        checker.close()
    return totals


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Details: the module docstring (python3 -c 'import blokus_rules_check; "
               "help(blokus_rules_check)' from tools/).")
    parser.add_argument("--variant", default="duo",
                        choices=sorted(set(VARIANTS) | set(blokus.VARIANTS)))
    parser.add_argument("--engine", action="append", default=[], metavar="CMD",
                        help="a GTP engine command line (repeatable; at least one)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves")
    parser.add_argument("--engine-moves", type=int, default=0, metavar="K",
                        help="the first engine chooses K moves in every K + 1 with genmove "
                             "(default 0: all moves random)")
    parser.add_argument("--no-set-game", dest="set_game", action="store_false",
                        help="send no set_game (the command lines choose the variant)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds an engine may take for any answer (0: no limit)")
    parser.add_argument("--keep-going", action="store_true",
                        help="play the other games after a mismatch (each game still stops at "
                             "its first)")
    parser.add_argument("--sgf", type=Path, metavar="FILE",
                        help="write the game of the first mismatch (up to it) in Blokus SGF")
    args = parser.parse_args(argv)
    if not args.engine:
        parser.error("give at least one --engine")
    if args.games < 1 or args.engine_moves < 0:
        parser.error("--games must be at least 1 and --engine-moves at least 0")
    info = variant_of(args.variant)
    start = time.monotonic()
    try:
        totals = run(args.engine, info, args.games, args.seed, args.engine_moves, args.set_game,
                     args.timeout or None, args.keep_going)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    wall = time.monotonic() - start
    print(f"{info.title} ({info.game_name}), seed {args.seed}, engine moves {args.engine_moves}: "
          f"{totals.games} games, {totals.positions} positions compared, {totals.answers} "
          f"all_legal answers, {totals.legal_moves} legal moves, {totals.engine_moves} engine "
          f"moves, {totals.scores} final scores"
          + (f", {totals.extra_allowed} extra moves allowed" if totals.extra_allowed else "")
          + (f", {totals.refused_by_play} listed moves refused by the engine's play"
             if totals.refused_by_play else "")
          + f"; mismatches {len(totals.mismatches)} ({wall:.0f} s)")
    for k, command in enumerate(args.engine, 1):
        print(f"  engine {k}: {command}")
    if totals.mismatches:
        first = totals.mismatches[0]
        print("first mismatch: " + first.report(info))
        if args.sgf and first.record is not None:
            blokus_sgf.save(args.sgf, first.record, application="tessera blokus_rules_check.py",
                            extra={"GN": str(first.game), "C": first.what})
            print(f"  written to {args.sgf}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
