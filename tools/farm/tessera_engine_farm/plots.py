"""The pictures of the reports (PNG, matplotlib without a display): a Blockudoku survival curve
with its confidence band, a match's score and SPRT log-likelihood ratio game by game, and a
tuning run's fitness by generation. matplotlib is imported when the first picture is drawn: a
run that stops early, and the Ray workers that import this package's modules, do without it."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .stats import Sprt, Tally


def pyplot():
    """matplotlib's pyplot on the Agg backend (no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


def kaplan_meier(lengths: Sequence[Tuple[int, bool]]) -> List[Tuple[int, float, float]]:
    """(round, survival, Greenwood standard error) at each round where games died, from
    (rounds survived, died) per game; games that did not die are censored at their length."""
    at_risk = len(lengths)
    by_round: Dict[int, List[int]] = {}
    for rounds, died in lengths:
        deaths_censored = by_round.setdefault(rounds, [0, 0])
        deaths_censored[0 if died else 1] += 1
    points, alive, greenwood = [(0, 1.0, 0.0)], 1.0, 0.0
    for rounds in sorted(by_round):
        deaths, censored = by_round[rounds]
        if deaths:
            alive *= 1 - deaths / at_risk
            if at_risk > deaths:
                greenwood += deaths / (at_risk * (at_risk - deaths))
            points.append((rounds, alive, alive * math.sqrt(greenwood)))
        at_risk -= deaths + censored
    return points


def survival_png(path: Path, games: Sequence[dict], hazard: Tuple[float, float, float],
                 title: str) -> Path:
    """Kaplan-Meier survival of the games with a 95% Greenwood band, and the exponential curve
    of the hazard mean with the band of its interval."""
    lengths = [(g["rounds"], g["died"]) for g in games]
    curve = kaplan_meier(lengths)
    end = max([rounds for rounds, _ in lengths] + [1])
    curve.append((end, curve[-1][1], curve[-1][2]))  # the last step drawn to the longest game
    rounds = [r for r, _, _ in curve]
    alive = [s for _, s, _ in curve]
    figure, axes = pyplot().subplots(figsize=(7, 4.2))
    axes.step(rounds, alive, where="post", color="C0", label=f"Kaplan-Meier ({len(games)} games)")
    axes.fill_between(rounds, [max(s - 1.96 * e, 0.0) for _, s, e in curve],
                      [min(s + 1.96 * e, 1.0) for _, s, e in curve], step="post", color="C0",
                      alpha=0.2, label="95% band (Greenwood)")
    mean, mean_low, mean_high = hazard
    xs = [end * k / 200 for k in range(201)]
    if math.isfinite(mean):
        axes.plot(xs, [math.exp(-x / mean) for x in xs], color="C1",
                  label=f"exp(-rounds / {mean:,.0f}) (hazard mean)")
    if mean_low > 0:
        axes.fill_between(xs, [math.exp(-x / mean_low) for x in xs],
                          [math.exp(-x / mean_high) for x in xs], color="C1", alpha=0.15,
                          label="hazard mean's 95% interval")
    axes.set(xlabel="rounds", ylabel="games still alive", ylim=(0, 1.02))
    set_title(axes, title)
    axes.legend(loc="lower left", fontsize=8)
    return save(figure, path)


def match_png(path: Path, points: Sequence[Tuple[int, Tally]], sprt: Optional[Sprt],
              title: str) -> Path:
    """The engine's score with its 95% interval and, with an SPRT, its log-likelihood ratio
    with the two bounds, after each pair of games (``points``: games played and the tally)."""
    rows = 2 if sprt else 1
    figure, axes = pyplot().subplots(rows, 1, figsize=(7, 3.2 * rows), sharex=True, squeeze=False)
    games = [n for n, _ in points]
    scores = [[100 * x for x in tally.score()] for _, tally in points]
    score, low, high = ([s[k] for s in scores] for k in range(3))
    top = axes[0][0]
    top.plot(games, score, color="C0", label="score of the first engine")
    top.fill_between(games, low, high, color="C0", alpha=0.2, label="95% interval")
    top.axhline(50, color="grey", lw=0.8)
    top.set(ylabel="score %", ylim=(0, 100))
    set_title(top, title)
    top.legend(loc="upper right", fontsize=8)
    if sprt:
        bottom = axes[1][0]
        lower, upper = sprt.bounds()
        llr = [sprt.llr(tally) for _, tally in points]
        bottom.plot(games, llr, color="C2", label=f"LLR, H0 Elo {sprt.elo0:g} vs H1 {sprt.elo1:g}")
        bottom.axhline(upper, color="C3", ls="--", label="bounds")
        bottom.axhline(lower, color="C3", ls="--")
        bottom.set(ylabel="log-likelihood ratio")
        bottom.legend(loc="upper left", fontsize=8)
    axes[-1][0].set(xlabel="games")
    return save(figure, path)


def tune_png(path: Path, generations: Sequence[dict], title: str) -> Path:
    """Fitness (exact death chance per round, lower is better) by generation: above, every
    candidate, the best one, the distribution's mean and the start weights; below, the best
    candidate and the mean as a share of the start weights' fitness on the same deals (each
    generation deals new games, so this is where progress shows)."""
    figure, (top, bottom) = pyplot().subplots(2, 1, figsize=(7, 6.4), sharex=True)
    xs = [g["generation"] + 1 for g in generations]
    for g in generations:
        top.scatter([g["generation"] + 1] * len(g["candidates"]), g["candidates"], s=8,
                    color="C0", alpha=0.35)
    top.plot(xs, [g["best"] for g in generations], color="C0", marker="o", label="best candidate")
    top.plot(xs, [g["mean"] for g in generations], color="C1", marker="s",
             label="mean of the distribution")
    top.plot(xs, [g["start"] for g in generations], color="grey", ls="--", marker=".",
             label="start weights")
    top.set(ylabel="death chance per round", yscale="log")
    top.legend(fontsize=8)
    set_title(top, title)
    bottom.plot(xs, [g["best"] / g["start"] for g in generations], color="C0", marker="o",
                label="best candidate / start weights")
    bottom.plot(xs, [g["mean"] / g["start"] for g in generations], color="C1", marker="s",
                label="mean / start weights")
    bottom.axhline(1.0, color="grey", ls="--", lw=0.8)
    bottom.set(xlabel="generation", ylabel="share of the start weights' chance")
    bottom.locator_params(axis="x", integer=True)
    bottom.legend(fontsize=8)
    return save(figure, path)


def set_title(axes, title: str) -> None:
    """A title wrapped to the figure's width (engine commands can be long)."""
    axes.set_title(textwrap.fill(title, 80), fontsize=9)


def save(figure, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot().close(figure)
    return path
