"""Smoke tests of the n-tuple trainer on synthetic labels (skipped without NumPy)."""

import json
import pathlib
import sys

import pytest

np = pytest.importorskip("numpy")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import train_ntuple  # noqa: E402
import tuples as nt  # noqa: E402

LABELLING = np.array([-5, -90, -12, -12, -22, -400, -60, -20, -30, -20, 2, -10, -10, -10, -8, 6, -15, -10, 3, -6])


def board_text(cells):
    rows = ["".join("#" if cells[r * 9 + c] else "." for c in range(9)) for r in range(9)]
    return "/".join(rows)


def corner_penalty(cells):
    """The hidden taste of the synthetic teacher: a filled corner cell costs 200."""
    return -200 * sum(int(cells[r * 9 + c]) for r, c in ((0, 0), (0, 8), (8, 0), (8, 8)))


def synthetic(path, decisions=400, seed=0):
    """A --distill file whose teacher values are the labelling weights' plus corner_penalty."""
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as f:
        for d in range(decisions):
            x = rng.integers(0, 6, size=(8, 20))
            boards = rng.random((8, 81)) < 0.3
            ev = x @ LABELLING
            truth = ev + np.array([corner_penalty(b) for b in boards])
            choice = int(np.argmax(truth))
            cands = [
                {"board": board_text(b), "eval": int(e), "total": int(t) * 8, "samples": 8,
                 "chosen": i == choice, "features": [int(v) for v in row]}
                for i, (b, e, t, row) in enumerate(zip(boards, ev, truth, x))
            ]
            f.write(json.dumps({"game": d, "round": 0, "board": "", "hand": [], "candidates": cands}) + "\n")


def test_symmetric_entries_are_shared():
    maps, count = nt.shared_entries(nt.DEFAULT_TUPLES)
    boxes = {t: k for k, t in enumerate(nt.DEFAULT_TUPLES)}
    top_left, top_right, centre = boxes[(0, 0, 3, 3)], boxes[(0, 6, 3, 3)], boxes[(3, 3, 3, 3)]
    # The corner cell of the top-left box is the corner cell of the top-right one, mirrored.
    assert maps[top_left][1 << 0] == maps[top_right][1 << 2]
    assert maps[top_left][1 << 0] != maps[centre][1 << 0]
    # Row 0 read left to right is column 0 read top to bottom (the transpose).
    row0, col0 = boxes[(0, 0, 1, 9)], boxes[(0, 0, 9, 1)]
    assert maps[row0][0b11] == maps[col0][0b11]
    assert count < sum(len(m) for m in maps) // 3


def test_learns_the_hidden_taste_and_writes_a_file_the_engine_reads(tmp_path):
    labels = tmp_path / "labels.jsonl"
    synthetic(labels)
    data = train_ntuple.load([labels], nt.DEFAULT_TUPLES)
    weights, tables, start, report = train_ntuple.fit(
        data, nt.DEFAULT_TUPLES, steps=150, rate=5.0, l2=0.0, temperature=100.0, holdout=5,
        fit_linear=False, pull=0.0,
    )
    assert list(start) == list(LABELLING)
    assert report["held_out_agree_after"] > report["held_out_agree_before"] + 0.1, report
    assert all(t.max() == 0 and len(t) == 512 for t in tables)
    top_left = nt.DEFAULT_TUPLES.index((0, 0, 3, 3))
    assert tables[top_left][1] < tables[top_left][2] - 20, "the corner cell costs more"
    out = tmp_path / "eval.txt"
    train_ntuple.write(out, weights, tables, nt.DEFAULT_TUPLES, "test")
    lines = [l for l in out.read_text().splitlines() if not l.startswith("#")]
    assert lines[0] == "linear " + ",".join(str(w) for w in LABELLING)
    assert len(lines) == 1 + len(nt.DEFAULT_TUPLES)
    assert lines[1].startswith("tuple 0 0 3 3 ") and len(lines[1].split()[5].split(",")) == 512


def test_same_labels_give_the_same_file(tmp_path):
    labels = tmp_path / "labels.jsonl"
    synthetic(labels, decisions=60, seed=1)
    outs = []
    for name in ("a.txt", "b.txt"):
        out = tmp_path / name
        assert train_ntuple.main([str(labels), "--out", str(out), "--steps", "20", "--fit-linear"]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]


def test_init_from_a_written_file_starts_where_that_file_left_off(tmp_path):
    labels = tmp_path / "labels.jsonl"
    synthetic(labels, decisions=150, seed=2)
    data = train_ntuple.load([labels], nt.DEFAULT_TUPLES)
    args = dict(steps=50, rate=5.0, l2=0.0, temperature=100.0, holdout=5, fit_linear=False, pull=0.0)
    weights, tables, _, first = train_ntuple.fit(data, nt.DEFAULT_TUPLES, **args)
    out = tmp_path / "first.txt"
    train_ntuple.write(out, weights, tables, nt.DEFAULT_TUPLES, "test")
    init = train_ntuple.read_eval_file(out, nt.DEFAULT_TUPLES)
    assert list(init[0]) == list(weights)
    _, again, _, report = train_ntuple.fit(data, nt.DEFAULT_TUPLES, **dict(args, steps=0), init=init)
    assert all((a == b).all() for a, b in zip(again, tables))
    assert report["held_out_agree_before"] == first["held_out_agree_after"]
    assert report["held_out_agree_before"] > first["held_out_agree_before"]


def test_crowded_hands_weigh_more_and_the_weights_average_one():
    data = {"filled": np.array([0, 10, 30, 40])}
    w = train_ntuple.hand_weights(data, 30, 3.0)
    assert np.allclose(w, np.array([1, 1, 3, 3]) / 2.0)
    assert np.allclose(train_ntuple.hand_weights(data, 0, 1.0), 1.0)
