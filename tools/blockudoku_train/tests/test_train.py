"""Smoke tests of the distillation trainer on synthetic labels (skipped without NumPy)."""

import json
import pathlib
import sys

import pytest

np = pytest.importorskip("numpy")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import train  # noqa: E402

LABELLING = np.array([-5, -90, -12, -12, -22, -400, -60, -20, -30, -20, 2, -10, -10, -10, -8, 6, -15, -10, 3, -6])


def synthetic(path, teacher, decisions=300, seed=0):
    """A --distill file whose choices follow `teacher` weights and whose evals the labelling ones."""
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as f:
        for d in range(decisions):
            x = rng.integers(0, 6, size=(8, train.FEATURES))
            ev = x @ LABELLING
            order = np.argsort(-ev, kind="stable")
            x, ev = x[order], ev[order]
            choice = int(np.argmax(x @ teacher))
            cands = [
                {"board": "", "eval": int(e), "total": 0, "samples": 24, "chosen": i == choice,
                 "features": [int(v) for v in row]}
                for i, (row, e) in enumerate(zip(x, ev))
            ]
            f.write(json.dumps({"game": d, "round": 0, "board": "", "hand": [], "candidates": cands}) + "\n")


def test_recovers_the_labelling_weights_and_learns_the_teachers_preference(tmp_path):
    teacher = LABELLING.copy()
    teacher[1] = -300  # the teacher hates isolated cells more than the labelling weights do
    labels = tmp_path / "labels.jsonl"
    synthetic(labels, teacher)
    decisions = train.load([labels])
    assert list(train.labelling_weights(decisions)) == list(LABELLING)
    fitted, start, report = train.fit(decisions, steps=300, rate=2.0, l2=0.0, temperature=100.0, holdout=5)
    assert list(start) == list(LABELLING)
    assert fitted[1] < -120, fitted
    assert report["held_out_agree_after"] > report["held_out_agree_before"] + 0.1, report
    assert all(fitted[k] <= 0 for k in train.NON_POSITIVE)


def test_same_labels_give_the_same_weights_file(tmp_path):
    labels = tmp_path / "labels.jsonl"
    synthetic(labels, LABELLING + 3, decisions=60, seed=1)
    outs = []
    for name in ("a.txt", "b.txt"):
        out = tmp_path / name
        assert train.main([str(labels), "--out", str(out), "--steps", "50"]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    assert len(outs[0].strip().split(",")) == train.FEATURES


def test_rejects_a_line_without_one_choice(tmp_path):
    labels = tmp_path / "bad.jsonl"
    cand = {"board": "", "eval": 0, "total": 0, "samples": 8, "chosen": False, "features": [0] * 20}
    labels.write_text(json.dumps({"game": 0, "candidates": [cand, cand]}) + "\n")
    with pytest.raises(ValueError, match="one chosen"):
        train.load([labels])
