"""The statistics tessera prints, computed and formatted as the Rust code does, so that a merged
run prints the very lines of a single ``tessera selfplay`` run: Blockudoku survival
(src/cli/selfplay.rs), match score, Elo and SPRT (src/cli/sprt.rs).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence, Tuple


def rust_exp(x: float, digits: int) -> str:
    """Rust's ``{:.Ne}``: ``1.234e-3``, not Python's ``1.234e-03``."""
    if not math.isfinite(x):
        return f"{x}"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def divide(a: float, b: float) -> float:
    """``a / b`` with IEEE rules for a zero divisor, as Rust's f64 division."""
    if b == 0:
        return math.nan if a == 0 else math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


# ------------------------------------------------------------------ Blockudoku survival
def cube(x: float) -> float:
    """``x.powi(3)`` as Rust computes it (two multiplications, not ``pow``)."""
    return x * x * x


def survival(rounds: int, deaths: int) -> Tuple[float, float, float]:
    """Hazard mean (rounds / deaths) and its 95% interval from the Poisson count of deaths
    (Wilson-Hilferty bounds), as ``selfplay::survival``."""
    t, d = float(rounds), float(deaths)
    low_count = 0.0 if deaths == 0 else d * cube(1 - 1 / (9 * d) - 1.96 / (3 * math.sqrt(d)))
    d1 = d + 1
    high_count = d1 * cube(1 - 1 / (9 * d1) + 1.96 / (3 * math.sqrt(d1)))
    mean = math.inf if deaths == 0 else t / d
    upper = t / low_count if low_count > 0 else math.inf
    return mean, t / high_count, upper


def rate_and_error(games: Sequence[Tuple[float, float]]) -> Tuple[float, float]:
    """Mean death chance per round asked and its standard error over games given as (summed
    chance, rounds asked), as ``selfplay::rate_and_error``."""
    rounds = 0.0
    for _, asked in games:
        rounds += asked
    total = 0.0
    for chance, _ in games:
        total += chance
    rate = total / max(rounds, 1.0)
    g = float(len(games))
    spread = 0.0
    for chance, asked in games:
        deviation = chance - rate * asked
        spread += deviation * deviation
    se = math.sqrt(spread * g / (g - 1)) / rounds if g > 1 else math.inf
    return rate, se


def chance_line(rate: float, se: float, min_filled: int) -> str:
    """The ``death_chance_per_round ...`` line of selfplay."""
    return (
        f"death_chance_per_round {rust_exp(rate, 3)} se {rust_exp(se, 1)} "
        f"hazard_mean {divide(1.0, rate):.1f} ci95 {divide(1.0, rate + 1.96 * se):.1f} "
        f"{divide(1.0, max(rate - 1.96 * se, 0.0)):.1f} (boards of {min_filled}+ cells)"
    )


def median(values: Sequence[int]) -> float:
    """The median as selfplay takes it (the mean of the middle two for an even count)."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return 0.0
    if n % 2:
        return float(ordered[n // 2])
    return (ordered[n // 2 - 1] + ordered[n // 2]) / 2


# ------------------------------------------------------------------ matches
@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of the engine under test."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def mean_and_variance(self) -> Tuple[float, float]:
        n = float(max(self.games, 1))
        w, d = self.wins / n, self.draws / n
        mean = w + d / 2
        return mean, w + d / 4 - mean * mean

    def score(self) -> Tuple[float, float, float]:
        """Mean score and its 95% interval."""
        mean, variance = self.mean_and_variance()
        half = 1.96 * math.sqrt(max(variance, 0.0) / max(self.games, 1))
        return mean, max(mean - half, 0.0), min(mean + half, 1.0)

    def summary(self) -> str:
        """``W-D-L, score 61.2% (95% 52.0-70.4), Elo +79 (+14 .. +151)``."""
        mean, low, high = self.score()
        return (f"{self.wins}-{self.draws}-{self.losses}, score {100 * mean:.1f}% "
                f"(95% {100 * low:.1f}-{100 * high:.1f}), Elo {elo(mean):+.0f} "
                f"({elo(low):+.0f} .. {elo(high):+.0f})")


def elo(score: float) -> float:
    """Elo difference of an expected score (clamped away from 0 and 1)."""
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def expected(elo_difference: float) -> float:
    return 1 / (1 + 10 ** (-elo_difference / 400))


@dataclass(frozen=True)
class Sprt:
    """The SPRT of H0 "Elo = elo0" against H1 "Elo = elo1", alpha = beta = 0.05 (the normal
    approximation tessera uses)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """``ELO0,ELO1`` with ELO0 < ELO1."""
        try:
            elo0, elo1 = (float(part) for part in text.split(","))
        except ValueError:
            raise ValueError(f"--sprt needs ELO0,ELO1, got {text!r}") from None
        if not elo1 > elo0:
            raise ValueError(f"--sprt needs ELO0,ELO1 with ELO0 < ELO1, got {text!r}")
        return cls(elo0, elo1)

    def llr(self, tally: Tally) -> float:
        mean, variance = tally.mean_and_variance()
        if tally.games == 0 or variance <= 0:
            return 0.0
        s0, s1 = expected(self.elo0), expected(self.elo1)
        return (s1 - s0) * (2 * mean - s0 - s1) * tally.games / (2 * variance)

    def bounds(self) -> Tuple[float, float]:
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def verdict(self, tally: Tally) -> str:
        """``better``, ``not better`` or ``continue``."""
        llr = self.llr(tally)
        low, high = self.bounds()
        return "better" if llr >= high else "not better" if llr <= low else "continue"

    def line(self, tally: Tally) -> str:
        """The ``sprt ...`` line of ``tessera selfplay sudoku``."""
        low, high = self.bounds()
        words = {"better": "H1 accepted: better", "not better": "H0 accepted: not better",
                 "continue": "undecided"}
        return (f"sprt elo0 {self.elo0:g} elo1 {self.elo1:g}: llr {self.llr(tally):.2f} "
                f"(bounds {low:.2f} {high:.2f}) {words[self.verdict(tally)]}")

