#!/usr/bin/env python3
"""Fits n-tuple tables, added to the engine's linear evaluation, to the look-ahead's values
(`selfplay --distill` files), and writes an evaluation file the engine loads (`EvalFile`).

The student's value of a final board is the linear evaluation (20 features; its weights are
those that labelled the files, recovered from their `eval` column, or re-fitted with
`--fit-linear`) plus one table entry per tuple (`tuples.py`: the 9 boxes, 9 rows and 9 columns,
entries tied by the board's symmetries). For each hand the look-ahead compared up to 8 final
boards, each with the mean value of its best answers to sampled next hands; the teacher's
distribution is the softmax of those means over `--temperature` (a board that died in a sample
gets next to nothing), the student's the softmax of its values over the same temperature, and the
loss is the cross-entropy between them (the values themselves are the targets, up to a constant
per hand), plus an L2 pull of the entries towards 0 (and of re-fitted weights towards the start).
`--init FILE` starts from an evaluation file's weights and tables instead (a student taught
further, e.g. on labels from the positions it meets itself); `--crowded-from N --crowded-weight W`
counts the hands dealt to boards of N+ filled cells W times in the loss.
Full-batch Adam: the same files give the same file out. Games whose index is a multiple of
`--holdout` are held out and reported: loss, and the share of hands where the student's best
board is the one the look-ahead chose.

The file written has each table shifted so that its largest entry is 0 (every board looks up
each table once, so the shift changes no ranking) and the entries rounded: the tuples only
subtract, and the engine keeps its exact cut-offs.

Usage: python3 tools/blockudoku_train/train_ntuple.py labels.jsonl [more ...] --out eval.txt
Then: tessera selfplay blockudoku --depth 2 --eval-file eval.txt ...
Needs NumPy; format of the input: docs/blockudoku-distill.md.
"""

import argparse
import sys

import numpy as np

import tuples as nt
from train import FEATURES, NON_POSITIVE, read_hands


def load(paths, tuples):
    """Hands as padded arrays: game [h], features [h x k x 20], evals [h x k], tuple indexes
    [h x k x t], teacher means [h x k], mask [h x k], chosen [h], filled cells of the board the
    hand was dealt to [h]."""
    games, feats, evals, boards, means, chosen, counts, filled = [], [], [], [], [], [], [], []
    for d, pick in read_hands(paths):
        filled.append(d["board"].count("#"))
        for c in d["candidates"]:
            feats.append(c["features"])
            evals.append(c["eval"])
            boards.append(c["board"])
            means.append(c["total"] / c["samples"])
        games.append(d["game"])
        chosen.append(pick)
        counts.append(len(d["candidates"]))
    if not games:
        raise ValueError("no decisions in the input")
    h, k = len(games), max(counts)
    mask = np.arange(k)[None, :] < np.array(counts)[:, None]

    def padded(flat, dtype, tail=()):
        out = np.zeros((h, k) + tail, dtype=dtype)
        out[mask] = flat
        return out

    index = nt.indexes(nt.parse_boards(boards), tuples)
    return {
        "game": np.array(games),
        "x": padded(np.array(feats, dtype=np.float64), np.float64, (FEATURES,)),
        "eval": padded(np.array(evals, dtype=np.float64), np.float64),
        "index": padded(index, np.int32, (len(tuples),)),
        "mean": padded(np.array(means), np.float64),
        "mask": mask,
        "chosen": np.array(chosen),
        "filled": np.array(filled),
    }


def labelling_weights(data):
    """The weights that gave the files' `eval` values (eval = weights . features exactly)."""
    w, *_ = np.linalg.lstsq(data["x"][data["mask"]], data["eval"][data["mask"]], rcond=None)
    return np.round(w)


def read_eval_file(path, tuples):
    """The linear weights and the tables (one per tuple, in `tuples` order) of an evaluation
    file that `write` wrote (or the engine's `data/blockudoku/eval.txt`)."""
    weights, tables = None, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "linear":
                weights = np.array([float(x) for x in words[1].split(",")])
            elif words[0] == "tuple":
                key = tuple(int(x) for x in words[1:5])
                tables[key] = np.array([float(x) for x in words[5].split(",")])
    if weights is None or len(weights) != FEATURES or set(tables) != set(tuples):
        raise ValueError(f"{path}: not an evaluation file of these {len(tuples)} tuples")
    return weights, [tables[t] for t in tuples]


def shared_from_tables(tables, maps, count):
    """Shared entries whose tables are `tables` (the mean of the entries a parameter ties;
    tied tables are shifted alike, so this is exact up to the file's rounding)."""
    total, seen = np.zeros(count), np.zeros(count)
    for table, mp in zip(tables, maps):
        total += np.bincount(mp, weights=table, minlength=count)
        seen += np.bincount(mp, minlength=count)
    return total / np.maximum(seen, 1)


def hand_weights(data, crowded_from, crowded_weight):
    """The weight of each hand in the loss: `crowded_weight` for hands dealt to boards of
    `crowded_from` or more filled cells, 1 for the others; normalised to a mean of 1."""
    w = np.where(data["filled"] >= crowded_from, crowded_weight, 1.0)
    return w / w.mean()


def subset(data, rows):
    return {key: value[rows] for key, value in data.items()}


def softmax(values, mask):
    logits = np.where(mask, values, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


class Student:
    """Linear weights plus shared table entries."""

    def __init__(self, w, params):
        self.w, self.params = w, params


def with_pids(data, maps):
    """The shared entry of every (hand, board, tuple)."""
    pid = np.zeros_like(data["index"])
    for t, m in enumerate(maps):
        pid[:, :, t] = m[data["index"][:, :, t]]
    return pid


def loss_and_grads(student, data, pid, temperature, target, weight):
    """Mean cross-entropy against the teacher's distribution `target` (each hand counted
    `weight` times), its gradient in the entries and in the values (for the weights' gradient)."""
    v = data["x"] @ student.w + student.params[pid].sum(axis=2)
    p = softmax(v / temperature, data["mask"])
    loss = -(weight * (target * np.log(p + 1e-300)).sum(axis=1)).mean()
    g = np.where(data["mask"], p - target, 0.0) * weight[:, None] / (temperature * len(p))
    grad_params = np.bincount(
        pid.reshape(-1), weights=np.repeat(g.reshape(-1), pid.shape[2]), minlength=len(student.params)
    )
    return loss, grad_params, g, v


def agreement(values, data):
    return float((np.where(data["mask"], values, -np.inf).argmax(axis=1) == data["chosen"]).mean())


def fit(data, tuples, steps, rate, l2, temperature, holdout, fit_linear, pull, init=None,
        crowded=(0, 1.0)):
    """The fitted student (weights, tables per tuple, shifted to a largest entry of 0, rounded)
    and a report. `init`: the (weights, tables) to start from (else the labelling weights and
    empty tables); `crowded`: (filled cells, weight) of the hands weighted more."""
    maps, count = nt.shared_entries(tuples)
    if init is None:
        start, start_params = labelling_weights(data), np.zeros(count)
    else:
        start, start_params = init[0].copy(), shared_from_tables(init[1], maps, count)
    held = data["game"] % holdout == 0 if holdout > 0 else np.zeros(len(data["game"]), bool)
    train, test = subset(data, ~held), subset(data, held)
    pid_train = with_pids(train, maps)
    target = softmax(train["mean"] / temperature, train["mask"])
    weight = hand_weights(train, *crowded)
    student = Student(start.copy(), start_params.copy())
    unit = np.maximum(np.abs(start), 1.0)
    n = count + FEATURES
    m, v2 = np.zeros(n), np.zeros(n)
    for t in range(1, steps + 1):
        _, gp, g, _ = loss_and_grads(student, train, pid_train, temperature, target, weight)
        gp = gp + 2 * l2 * student.params
        if fit_linear:
            gw = np.einsum("hk,hkf->f", g, train["x"]) + 2 * pull * (student.w - start) / unit**2
        else:
            gw = np.zeros(FEATURES)
        full = np.concatenate([gp, gw])
        m = 0.9 * m + 0.1 * full
        v2 = 0.999 * v2 + 0.001 * full**2
        step = rate * (m / (1 - 0.9**t)) / (np.sqrt(v2 / (1 - 0.999**t)) + 1e-12)
        student.params -= step[:count]
        if fit_linear:
            student.w -= step[count:]
            for k in NON_POSITIVE:
                student.w[k] = min(student.w[k], 0.0)
    weights = np.round(student.w)
    tables = [np.round(student.params[mp] - student.params[mp].max()) for mp in maps]
    report = {"hands": len(train["game"]), "held_out": len(test["game"]), "entries": count}
    for name, part in (("train", train), ("held_out", test)):
        if not len(part["game"]):
            continue
        q = softmax(part["mean"] / temperature, part["mask"])
        idx = part["index"]
        before = part["x"] @ start + start_params[with_pids(part, maps)].sum(axis=2)
        after = part["x"] @ weights + sum(tables[t][idx[:, :, t]] for t in range(len(tuples)))
        for label, values in (("before", before), ("after", after)):
            p = softmax(values / temperature, part["mask"])
            report[f"{name}_loss_{label}"] = float(-(q * np.log(p + 1e-300)).sum(axis=1).mean())
            report[f"{name}_agree_{label}"] = agreement(values, part)
    return weights.astype(int), [t.astype(int) for t in tables], start.astype(int), report


def write(path, weights, tables, tuples, note):
    """The evaluation file: `linear` then one `tuple ROW COL HEIGHT WIDTH values` line each."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# tessera Blockudoku evaluation: {note}\n")
        f.write("linear " + ",".join(str(x) for x in weights) + "\n")
        for (r, c, h, w), table in zip(tuples, tables):
            f.write(f"tuple {r} {c} {h} {w} " + ",".join(str(x) for x in table) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", nargs="+", help="selfplay --distill files")
    parser.add_argument("--out", required=True, help="the evaluation file (EvalFile)")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--rate", type=float, default=1.0, help="Adam step, in evaluation units")
    parser.add_argument("--l2", type=float, default=1e-6, help="pull of the entries towards 0")
    parser.add_argument("--temperature", type=float, default=100.0, help="evaluation units per logit")
    parser.add_argument("--fit-linear", action="store_true", help="re-fit the 20 weights too")
    parser.add_argument("--pull", type=float, default=0.01, help="pull of re-fitted weights to the start")
    parser.add_argument("--holdout", type=int, default=5, help="hold out games with index %% N == 0")
    parser.add_argument("--init", help="start from this evaluation file (its weights and tables) "
                        "instead of the labelling weights and empty tables")
    parser.add_argument("--crowded-from", type=int, default=0,
                        help="hands dealt to boards of this many filled cells or more ...")
    parser.add_argument("--crowded-weight", type=float, default=1.0,
                        help="... count this many times in the loss")
    args = parser.parse_args(argv)
    tuples = nt.DEFAULT_TUPLES
    data = load(args.labels, tuples)
    init = read_eval_file(args.init, tuples) if args.init else None
    weights, tables, start, report = fit(
        data, tuples, args.steps, args.rate, args.l2, args.temperature, args.holdout,
        args.fit_linear, args.pull, init, (args.crowded_from, args.crowded_weight),
    )
    note = (f"{report['hands']} hands, --steps {args.steps} --rate {args.rate} --l2 {args.l2} "
            f"--temperature {args.temperature}" + (" --fit-linear" if args.fit_linear else "")
            + (" --init" if args.init else "")
            + (f" --crowded-from {args.crowded_from} --crowded-weight {args.crowded_weight}"
               if args.crowded_weight != 1.0 else ""))
    write(args.out, weights, tables, tuples, note)
    print("start weights    ", ",".join(str(x) for x in start))
    print("weights          ", ",".join(str(x) for x in weights))
    for key, value in report.items():
        print(f"{key} {value:.4f}" if isinstance(value, float) else f"{key} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
