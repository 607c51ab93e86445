#!/usr/bin/env python3
"""Fits a correction of the Blockudoku evaluation to what the next hands of real games did
(`selfplay --trace` files), and writes an evaluation file with it added (`EvalFile`).

Every board of a traced game has a future: the label of the board a hand was dealt to at round t
is what happened over the next `--horizon` K hands of that game, rounds t to t+K-1: the summed
exact death chances of those boards (`--target chance`, the default: the risk the board carries
forward) or how many of them had N or more filled cells (`--target crowded:N`). Boards less than
K rounds from their game's last traced round have no full future and are left out.

The model is a Poisson regression with a log link on the board's 20 features (the order of
`--weights`): the expected label is exp(a + beta . features), fitted by Newton's method with an
L2 pull on beta (features standardised), so beta is the change of the log of the future risk per
unit of each feature. The correction subtracts `--scale` evaluation units per unit of that log:
the written weights are round(w - scale * beta), with w the linear weights of `--base` (its
tables are copied unchanged), the piece features' weights kept at or below 0 (the engine's exact
cut-offs). A linear correction costs the engine nothing: the evaluation keeps its shape.
`--keep` lists features whose weights the correction leaves alone (e.g. `0` for the filled cells).
With `--residual` the fit starts from what the base evaluation itself predicts: r times its value
(r fitted alone first) is an offset, so beta is only what the base misses, and 1/|r| is the
natural scale (`--scale 0` uses it: the corrected evaluation then ranks boards as the whole
fitted risk does).

Games whose index is a multiple of `--holdout` are held out and reported: the mean Poisson
deviance of the constant model, of the base evaluation alone and of the fit on those games. The same files give the same file.

Usage: python3 tools/blockudoku_train/train_value.py trace.jsonl [more ...] --base eval.txt \\
    --scale 20 --out corrected.txt
Needs NumPy; format of the input: docs/blockudoku-distill.md.
"""

import argparse
import sys

import numpy as np

import tuples as nt
from train import FEATURES, NON_POSITIVE, json_lines


def load(paths):
    """The traced rounds of the files, in order: game [n], round [n], features [n x 20],
    exact death chance [n], filled cells [n] (the first feature)."""
    games, rounds, feats, chances, boards = [], [], [], [], []
    for path, number, d in json_lines(paths):
        if len(d["features"]) != FEATURES:
            raise ValueError(f"{path}:{number}: {len(d['features'])} features, not {FEATURES}")
        games.append(d["game"])
        rounds.append(d["round"])
        feats.append(d["features"])
        chances.append(d["chance"])
        boards.append(d["board"])
    if not games:
        raise ValueError("no traced rounds in the input")
    x = np.array(feats, dtype=np.float64)
    return {
        "game": np.array(games),
        "round": np.array(rounds),
        "x": x,
        "chance": np.array(chances, dtype=np.float64),
        "filled": x[:, 0],
        "board": boards,
    }


def parse_target(text):
    """`chance` or `crowded:N` as (kind, N)."""
    if text == "chance":
        return ("chance", 0)
    kind, _, n = text.partition(":")
    if kind == "crowded" and n.isdigit():
        return ("crowded", int(n))
    raise ValueError(f"--target is chance or crowded:N, not '{text}'")


def future_labels(data, horizon, target):
    """The label of every round (the target summed over it and the next horizon-1 rounds of its
    game) and which rounds have that whole future traced (a game's rounds must be consecutive)."""
    kind, n = target
    per_round = data["chance"] if kind == "chance" else (data["filled"] >= n).astype(np.float64)
    game, rnd = data["game"], data["round"]
    count = len(game)
    label = np.zeros(count)
    valid = np.zeros(count, dtype=bool)
    starts = np.flatnonzero(np.r_[True, (game[1:] != game[:-1]) | (rnd[1:] != rnd[:-1] + 1)])
    ends = np.r_[starts[1:], count]
    for s, e in zip(starts, ends):
        sums = np.r_[0.0, np.cumsum(per_round[s:e])]
        m = e - s - horizon + 1
        if m > 0:
            label[s : s + m] = sums[horizon : horizon + m] - sums[:m]
            valid[s : s + m] = True
    return label, valid


def deviance(y, mu):
    """Mean Poisson deviance (labels need not be integers)."""
    safe = np.where(y > 0, y, 1.0)
    return float(np.mean(2 * (np.where(y > 0, y * np.log(safe / mu), 0.0) - (y - mu))))


def fit_poisson(x, y, l2, iterations=50, offset=None):
    """Intercept and coefficients (per raw feature unit) of log E[y] = offset + a + beta . x, by
    Newton's method on standardised features and labels divided by their mean (so that the L2
    pull of l2 * rows on beta weighs the same whatever the labels' unit)."""
    offset = np.zeros(len(x)) if offset is None else offset
    unit = max(float(y.mean()), 1e-300)
    y = y / unit
    mean, std = x.mean(axis=0), x.std(axis=0)
    std = np.where(std > 0, std, 1.0)
    z = np.c_[np.ones(len(x)), (x - mean) / std]
    theta = np.zeros(z.shape[1])
    pull = np.full(z.shape[1], l2 * len(x))
    pull[0] = 0.0
    def objective(t):
        eta = np.clip(z @ t + offset, -700, 700)
        return float(np.sum(np.exp(eta) - y * eta) + 0.5 * pull @ (t * t))

    current = objective(theta)
    for _ in range(iterations):
        mu = np.exp(np.clip(z @ theta + offset, -700, 700))
        grad = z.T @ (mu - y) + pull * theta
        hess = (z * mu[:, None]).T @ z + np.diag(pull)
        step = np.linalg.solve(hess + 1e-9 * np.eye(len(theta)), grad)
        # Newton's step, halved until the objective falls (a plain step can overshoot).
        while objective(theta - step) > current and np.max(np.abs(step)) > 1e-12:
            step = step / 2
        theta = theta - step
        current = objective(theta)
        if np.max(np.abs(step)) < 1e-9:
            break
    beta = theta[1:] / std
    return float(theta[0] - beta @ mean + np.log(unit)), beta


def corrected(weights, beta, scale, keep):
    """round(weights - scale * beta), the features in `keep` unchanged, the piece features' at
    or below 0."""
    out = np.array(weights, dtype=np.float64) - scale * np.asarray(beta)
    for k in keep:
        out[k] = weights[k]
    out = np.round(out)
    out[list(NON_POSITIVE)] = np.minimum(out[list(NON_POSITIVE)], 0)
    return out.astype(int)


def table_values(rest, boards):
    """The summed table entries of the `tuple` lines `rest` on every board (protocol notation)."""
    lines = [line.split() for line in rest if line.startswith("tuple ")]
    if not lines:
        return np.zeros(len(boards))
    shapes = [tuple(int(v) for v in words[1:5]) for words in lines]
    index = nt.indexes(nt.parse_boards(boards), shapes)
    tables = [np.array([float(v) for v in words[5].split(",")]) for words in lines]
    return sum(table[index[:, k]] for k, table in enumerate(tables))


def read_base(path):
    """The linear weights of an evaluation file and its other lines (the tables), verbatim."""
    weights, rest = None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if words and words[0] == "linear":
                weights = [int(v) for v in words[1].split(",")]
            elif words and not words[0].startswith("#"):
                rest.append(line if line.endswith("\n") else line + "\n")
    if weights is None or len(weights) != FEATURES:
        raise ValueError(f"{path}: no linear line of {FEATURES} weights")
    return weights, rest


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+", help="selfplay --trace files")
    parser.add_argument("--base", required=True, help="the evaluation file corrected")
    parser.add_argument("--out", help="the corrected evaluation file (EvalFile)")
    parser.add_argument("--horizon", type=int, default=10, help="hands of future in a label")
    parser.add_argument("--target", default="chance", help="chance or crowded:N")
    parser.add_argument("--scale", type=float, default=10.0,
                        help="evaluation units subtracted per unit of the log of the future label")
    parser.add_argument("--keep", default="", help="comma-separated features left uncorrected")
    parser.add_argument("--l2", type=float, default=1e-4, help="pull of beta (standardised) to 0")
    parser.add_argument("--holdout", type=int, default=5, help="hold out games with index %% N == 0")
    parser.add_argument("--residual", action="store_true",
                        help="fit beside the base evaluation's value (correct only its residual)")
    args = parser.parse_args(argv)
    target = parse_target(args.target)
    keep = [int(k) for k in args.keep.split(",") if k.strip()]
    data = load(args.traces)
    label, valid = future_labels(data, args.horizon, target)
    held = data["game"] % args.holdout == 0
    train, test = valid & ~held, valid & held
    weights, rest = read_base(args.base)
    base_value = data["x"] @ np.array(weights, dtype=np.float64) + table_values(rest, data["board"])
    base_intercept, rate = fit_poisson(base_value[train][:, None], label[train], 0.0)
    offset = rate[0] * base_value if args.residual else np.zeros(len(label))
    intercept, beta = fit_poisson(data["x"][train], label[train], args.l2, offset=offset[train])
    scale = args.scale
    if args.residual and scale == 0:
        scale = 1 / abs(rate[0])
    out = corrected(weights, beta, scale, keep)
    print(f"rounds {len(label)} fitted {int(train.sum())} held_out {int(test.sum())} "
          f"label_mean {label[valid].mean():.4g} nonzero {np.mean(label[valid] > 0):.3f}")
    if test.any():
        y = label[test]
        fitted = np.exp(offset[test] + intercept + data["x"][test] @ beta)
        by_base = np.exp(base_intercept + rate[0] * base_value[test])
        print(f"held_out_deviance constant {deviance(y, np.full(len(y), label[train].mean())):.5g} "
              f"base {deviance(y, by_base):.5g} fitted {deviance(y, fitted):.5g}")
    print(f"base evaluation: log of the future label per evaluation unit {rate[0]:.4g} "
          f"(scale {-1 / rate[0] if rate[0] else float('inf'):.4g} would be its own)")
    print("beta             ", ",".join(f"{b:.4g}" for b in beta))
    print("base weights     ", ",".join(str(w) for w in weights))
    print("weights          ", ",".join(str(w) for w in out))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(f"# tessera Blockudoku evaluation: {args.base} corrected by train_value.py, "
                    f"{int(train.sum())} boards, --horizon {args.horizon} --target {args.target} "
                    f"--scale {scale:.4g} --l2 {args.l2}"
                    + (" --residual" if args.residual else "") + (f" --keep {args.keep}" if keep else "")
                    + "\n")
            f.write("linear " + ",".join(str(w) for w in out) + "\n")
            f.writelines(rest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
