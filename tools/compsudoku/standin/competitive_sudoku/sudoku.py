"""Moves, boards and game states with the attribute names the course framework uses."""

import os

V12 = os.environ.get("STANDIN_API") == "v12"


if V12:

    class Move:
        def __init__(self, i, j, value):
            self.i, self.j, self.value = i, j, value

        def key(self):
            return self.i, self.j, self.value

        def __eq__(self, other):
            return self.key() == other.key()

        def __str__(self):
            return f"({self.i},{self.j}) -> {self.value}"

else:

    class Move:
        def __init__(self, square, value):
            self.square, self.value = square, value

        def key(self):
            return self.square[0], self.square[1], self.value

        def __eq__(self, other):
            return self.key() == other.key()

        def __str__(self):
            return f"{self.square} -> {self.value}"


class TabooMove(Move):
    pass


class SudokuBoard:
    empty = 0

    def __init__(self, m=3, n=3):
        self.m, self.n, self.N = m, n, m * n
        self.squares = [0] * (self.N * self.N)


class GameState:
    def __init__(self, board, playable=None):
        self.board = board
        self.initial_board = SudokuBoard(board.m, board.n)
        self.initial_board.squares = list(board.squares)
        self.taboo_moves = []
        self.moves = []
        self.scores = [0, 0]
        self.turn = 1
        if not V12:
            self.current_player = 1
            if playable is None:
                self.allowed_squares1 = self.allowed_squares2 = None
                self.occupied_squares1 = self.occupied_squares2 = None
            else:
                self.allowed_squares1, self.allowed_squares2 = playable
                self.occupied_squares1, self.occupied_squares2 = [], []

    if V12:

        def current_player(self):
            return self.turn

    def is_classic_game(self):
        return V12 or self.allowed_squares1 is None

    def player_squares(self):
        if self.is_classic_game():
            return None
        player = self.current_player
        allowed = self.allowed_squares1 if player == 1 else self.allowed_squares2
        occupied = self.occupied_squares1 if player == 1 else self.occupied_squares2
        n = self.board.N
        out = {s for s in allowed if self.board.squares[s[0] * n + s[1]] == 0}
        for i, j in occupied:
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    a, b = i + di, j + dj
                    if 0 <= a < n and 0 <= b < n and self.board.squares[a * n + b] == 0:
                        out.add((a, b))
        return sorted(out)
