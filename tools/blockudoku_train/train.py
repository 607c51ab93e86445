#!/usr/bin/env python3
"""Fits Blockudoku evaluation weights to the look-ahead's choices (`selfplay --distill` files).

The student is the engine's own linear evaluation (20 features, `--weights` order): for each hand
the look-ahead compared up to 8 final boards and chose one; the student's values of those boards,
divided by a temperature, are the logits of a softmax, and the loss is the cross-entropy of the
teacher's choice (a listwise ranking loss; the logits' scale is fitted too, so only the ranking
moves the weights), plus an L2 pull towards the weights that labelled the
file (recovered exactly from its `eval` and `features` columns, so no weights are copied here).
Full-batch gradient descent (Adam) from those weights: the same files give the same weights.
Games whose index is a multiple of `--holdout` are held out and reported, not fitted.

The piece features' weights (unfit, scarce, clear shortfall) stay at or below 0, so that the
engine keeps its exact cut-offs (they only subtract); the weights are rounded to integers.

Usage: python3 tools/blockudoku_train/train.py labels.jsonl [more.jsonl ...] --out weights.txt
Then: tessera selfplay blockudoku --depth 2 --weights "$(cat weights.txt)" ...
Needs NumPy; format of the input: docs/blockudoku-distill.md.
"""

import argparse
import json
import sys

import numpy as np

FEATURES = 20
# Features whose weights must stay <= 0 (unfit, scarce, clear_shortfall: features.rs).
NON_POSITIVE = (5, 6, 19)


def json_lines(paths):
    """Each non-empty line of the files, in order, as (path, line number, its JSON object)."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    yield path, number, json.loads(line)


def read_hands(paths):
    """The `--distill` lines of the files, checked: (hand, index of the teacher's choice)."""
    for path, number, d in json_lines(paths):
        cands = d["candidates"]
        chosen = [i for i, c in enumerate(cands) if c["chosen"]]
        if len(chosen) != 1 or len(cands) < 2:
            raise ValueError(f"{path}:{number}: needs 2+ candidates and one chosen")
        for c in cands:
            if len(c["features"]) != FEATURES:
                raise ValueError(f"{path}:{number}: {len(c['features'])} features, "
                                 f"not {FEATURES}")
        yield d, chosen[0]


def load(paths):
    """Decisions as (game, features [n x 20], static evals [n], index of the teacher's choice)."""
    decisions = []
    for d, chosen in read_hands(paths):
        x = np.array([c["features"] for c in d["candidates"]], dtype=np.float64)
        ev = np.array([c["eval"] for c in d["candidates"]], dtype=np.float64)
        decisions.append((d["game"], x, ev, chosen))
    if not decisions:
        raise ValueError("no decisions in the input")
    return decisions


def labelling_weights(decisions):
    """The weights that gave the files' `eval` values (eval = weights . features exactly)."""
    x = np.concatenate([d[1] for d in decisions])
    y = np.concatenate([d[2] for d in decisions])
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    return np.round(w)


def pack(decisions):
    """Padded arrays: features [d x 8 x 20], mask [d x 8], choice [d]."""
    most = max(len(d[1]) for d in decisions)
    x = np.zeros((len(decisions), most, FEATURES))
    mask = np.zeros((len(decisions), most), dtype=bool)
    for i, (_, f, _, _) in enumerate(decisions):
        x[i, : len(f)] = f
        mask[i, : len(f)] = True
    choice = np.array([d[3] for d in decisions])
    return x, mask, choice


def loss_and_grad(w, x, mask, choice, temperature):
    """Mean cross-entropy of the choices, its gradient in w and its derivative in the log of the
    logits' scale (the temperature's share of the fit, so that shrinking every weight does not
    pass for a better ranking)."""
    raw = np.where(mask, (x @ w) / temperature, 0.0)
    logits = np.where(mask, raw, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    rows = np.arange(len(choice))
    loss = -np.log(p[rows, choice] + 1e-300).mean()
    target = np.zeros_like(p)
    target[rows, choice] = 1.0
    grad = np.einsum("dk,dkf->f", p - target, x) / (len(choice) * temperature)
    scale_grad = float(((p - target) * raw).sum() / len(choice))
    return loss, grad, scale_grad


def agreement(w, x, mask, choice):
    """Share of decisions where the best student value is the teacher's choice."""
    values = np.where(mask, x @ w, -np.inf)
    return float((values.argmax(axis=1) == choice).mean())


def fit(decisions, steps, rate, l2, temperature, holdout):
    """The fitted weights (integers) and a report of the fit."""
    start = labelling_weights(decisions)
    train = [d for d in decisions if holdout <= 0 or d[0] % holdout != 0]
    test = [d for d in decisions if holdout > 0 and d[0] % holdout == 0]
    xt, mt, ct = pack(train)
    # The weights, then the log of the logits' own scale (fitted first, alone, for the start).
    w = start.copy()
    log_scale = 0.0
    for _ in range(200):
        _, _, scale_grad = loss_and_grad(np.exp(log_scale) * w, xt, mt, ct, temperature)
        log_scale -= 0.5 * scale_grad
    start_scale = log_scale
    m = np.zeros(FEATURES + 1)
    v = np.zeros(FEATURES + 1)
    unit = np.append(np.maximum(np.abs(start), 1.0), 1.0)
    for t in range(1, steps + 1):
        _, grad, scale_grad = loss_and_grad(np.exp(log_scale) * w, xt, mt, ct, temperature)
        full = np.append(np.exp(log_scale) * grad + 2 * l2 * (w - start) / unit[:-1] ** 2, scale_grad)
        m = 0.9 * m + 0.1 * full
        v = 0.999 * v + 0.001 * full**2
        step = (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-12)
        w -= rate * step[:-1]
        log_scale -= rate * step[-1] / 100.0
        for k in NON_POSITIVE:
            w[k] = min(w[k], 0.0)
    fitted = np.round(w)
    report = {"decisions": len(train), "held_out": len(test), "scale_before": np.exp(start_scale),
              "scale_after": np.exp(log_scale)}
    for name, part in (("train", train), ("held_out", test)):
        if part:
            x, mask, choice = pack(part)
            before = np.exp(start_scale) * start
            after = np.exp(log_scale) * fitted
            report[f"{name}_loss_before"] = loss_and_grad(before, x, mask, choice, temperature)[0]
            report[f"{name}_loss_after"] = loss_and_grad(after, x, mask, choice, temperature)[0]
            report[f"{name}_agree_before"] = agreement(start, x, mask, choice)
            report[f"{name}_agree_after"] = agreement(fitted, x, mask, choice)
    return fitted.astype(int), start.astype(int), report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", nargs="+", help="selfplay --distill files")
    parser.add_argument("--out", required=True, help="the weights, comma-separated (--weights)")
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--rate", type=float, default=2.0, help="Adam step, in weight units")
    parser.add_argument("--l2", type=float, default=0.01, help="pull towards the labelling weights")
    parser.add_argument("--temperature", type=float, default=100.0, help="eval units per logit")
    parser.add_argument("--holdout", type=int, default=5, help="hold out games with index %% N == 0")
    args = parser.parse_args(argv)
    decisions = load(args.labels)
    fitted, start, report = fit(
        decisions, args.steps, args.rate, args.l2, args.temperature, args.holdout
    )
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(",".join(str(x) for x in fitted) + "\n")
    print("labelling weights", ",".join(str(x) for x in start))
    print("fitted weights   ", ",".join(str(x) for x in fitted))
    for key, value in report.items():
        print(f"{key} {value:.4f}" if isinstance(value, float) else f"{key} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
