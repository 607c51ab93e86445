#!/usr/bin/env python3
"""Referee of the stand-in: one game, a fresh forked process per turn, killed at the deadline,
the last proposed move played. Prints `result <score1> <score2>` or `lost <player> <why>`.

    STANDIN_API=v14 python3 simulate.py --first tessera_player --second greedy --box 2x2 --time 0.2
"""

import argparse
import importlib
import multiprocessing
import random
import sys
import time

from competitive_sudoku.sudoku import GameState, Move, SudokuBoard, TabooMove, V12
from competitive_sudoku.sudokuai import SudokuAI


def peers_ok(squares, m, n, k, value):
    size = m * n
    i, j = divmod(k, size)
    if any(squares[i * size + c] == value for c in range(size)):
        return False
    if any(squares[r * size + j] == value for r in range(size)):
        return False
    r0, c0 = i // m * m, j // n * n
    return all(squares[r * size + c] != value for r in range(r0, r0 + m) for c in range(c0, c0 + n))


def solvable(squares, m, n):
    size = m * n
    empty = [k for k in range(size * size) if squares[k] == 0]
    if not empty:
        return True
    best, best_values = None, None
    for k in empty:
        values = [v for v in range(1, size + 1) if peers_ok(squares, m, n, k, v)]
        if best is None or len(values) < len(best_values):
            best, best_values = k, values
            if not values:
                return False
    for v in best_values:
        squares[best] = v
        if solvable(squares, m, n):
            squares[best] = 0
            return True
    squares[best] = 0
    return False


def points(squares, m, n, k):
    size = m * n
    i, j = divmod(k, size)
    r0, c0 = i // m * m, j // n * n
    done = all(squares[i * size + c] for c in range(size))
    done2 = all(squares[r * size + j] for r in range(size))
    done3 = all(squares[r * size + c] for r in range(r0, r0 + m) for c in range(c0, c0 + n))
    return [0, 1, 3, 7][done + done2 + done3]


class Greedy(SudokuAI):
    """Best immediate score among the moves the rules allow, no solvability check."""

    def compute_best_move(self, state):
        board = state.board
        m, n, size = board.m, board.n, board.N
        playable = state.player_squares()
        cells = [k for k in range(size * size) if board.squares[k] == 0]
        if playable is not None:
            cells = [i * size + j for i, j in playable]
        taboo = {mv.key() for mv in state.taboo_moves}
        moves = []
        for k in cells:
            for v in range(1, size + 1):
                if peers_ok(board.squares, m, n, k, v) and (k // size, k % size, v) not in taboo:
                    board.squares[k] = v
                    moves.append((points(board.squares, m, n, k), k, v))
                    board.squares[k] = 0
        top = max(p for p, _, _ in moves)
        _, k, v = random.choice([mv for mv in moves if mv[0] == top])
        i, j = divmod(k, size)
        self.propose_move(Move(i, j, v) if V12 else Move((i, j), v))


def make_player(name):
    if name == "greedy":
        return Greedy()
    return importlib.import_module(name + ".sudokuai").SudokuAI()


def play(first, second, m, n, seconds, mode):
    size = m * n
    board = SudokuBoard(m, n)
    playable = None
    if mode == "rows":
        playable = ([(0, j) for j in range(size)], [(size - 1, j) for j in range(size)])
    state = GameState(board, playable)
    players = [first, second]
    with multiprocessing.Manager() as manager:
        lock = multiprocessing.Lock()
        for p in players:
            p.lock = lock
            p.best_move = manager.list([0, 0, 0])
        stuck = set()
        while 0 in board.squares and len(stuck) < 2:
            number = state.turn
            player = players[number - 1]
            squares = state.player_squares()
            if squares == []:
                stuck.add(number)
                state.turn = 3 - number
                if not V12:
                    state.current_player = state.turn
                continue
            player.best_move[0] = player.best_move[1] = player.best_move[2] = 0
            process = multiprocessing.Process(target=player.compute_best_move, args=(state,))
            process.start()
            time.sleep(seconds)
            lock.acquire()
            process.terminate()
            lock.release()
            process.join()
            i, j, value = player.best_move
            if (i, j, value) == (0, 0, 0):
                return f"lost {number} no move"
            if any(mv.key() == (i, j, value) for mv in state.taboo_moves):
                return f"lost {number} taboo move {i} {j} {value}"
            k = i * size + j
            if not (0 <= i < size and 0 <= j < size and 1 <= value <= size):
                return f"lost {number} out of range"
            if board.squares[k] != 0 or not peers_ok(board.squares, m, n, k, value):
                return f"lost {number} illegal {i} {j} {value}"
            if squares is not None and (i, j) not in squares:
                return f"lost {number} not playable {i} {j}"
            board.squares[k] = value
            print(f"player {number}: ({i},{j}) -> {value}", file=sys.stderr)
            if solvable(list(board.squares), m, n):
                state.scores[number - 1] += points(board.squares, m, n, k)
                state.moves.append(Move(i, j, value) if V12 else Move((i, j), value))
                if squares is not None:
                    (state.occupied_squares1 if number == 1 else state.occupied_squares2).append((i, j))
            else:
                board.squares[k] = 0
                taboo = TabooMove(i, j, value) if V12 else TabooMove((i, j), value)
                state.taboo_moves.append(taboo)
                state.moves.append(taboo)
            state.turn = 3 - number
            if not V12:
                state.current_player = state.turn
    return f"result {state.scores[0]} {state.scores[1]}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--first", default="greedy")
    parser.add_argument("--second", default="greedy")
    parser.add_argument("--box", default="2x2")
    parser.add_argument("--time", type=float, default=0.2)
    parser.add_argument("--mode", default="classic", choices=["classic", "rows"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    m, n = (int(x) for x in args.box.split("x"))
    first, second = make_player(args.first), make_player(args.second)
    print(play(first, second, m, n, args.time, args.mode), flush=True)


if __name__ == "__main__":
    main()
