"""The player base class: compute_best_move runs in a forked process, propose_move stores the
latest move in a list shared with the referee."""


class SudokuAI:
    def __init__(self):
        self.best_move = [0, 0, 0]
        self.lock = None
        self.player_number = -1

    def compute_best_move(self, game_state):
        raise NotImplementedError

    def propose_move(self, move):
        if self.lock:
            self.lock.acquire()
        i, j, value = move.key()
        self.best_move[0], self.best_move[1], self.best_move[2] = i, j, value
        if self.lock:
            self.lock.release()
