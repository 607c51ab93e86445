"""Smoke tests of the future-value trainer on synthetic traces (skipped without NumPy)."""

import json
import pathlib
import sys

import pytest

np = pytest.importorskip("numpy")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import train_value  # noqa: E402


def write_trace(path, rng, rounds, log_risk, random_boards=False):
    """A synthetic trace of 10 games of `rounds` rounds: features drawn from 0..5, each round's
    chance a Poisson draw of exp(log_risk(features)) thousandths; empty or random boards."""
    with open(path, "w", encoding="utf-8") as f:
        for game in range(10):
            for rnd in range(rounds):
                x = rng.integers(0, 6, size=20)
                chance = float(rng.poisson(np.exp(log_risk(x)))) * 1e-3
                rows = ["".join("#."[int(v)] for v in rng.integers(0, 2, 9)) if random_boards
                        else "." * 9 for _ in range(9)]
                f.write(json.dumps({"game": game, "round": rnd, "board": "/".join(rows),
                                    "chance": chance, "features": [int(v) for v in x]}) + "\n")


def test_labels_sum_the_next_rounds_of_the_same_game():
    data = {
        "game": np.array([0, 0, 0, 0, 1, 1, 1]),
        "round": np.array([0, 1, 2, 3, 0, 1, 2]),
        "chance": np.array([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]),
        "filled": np.array([10, 40, 40, 10, 40, 10, 40]),
    }
    label, valid = train_value.future_labels(data, 2, ("chance", 0))
    assert valid.tolist() == [True, True, True, False, True, True, False]
    assert label[valid].tolist() == [3.0, 6.0, 12.0, 48.0, 96.0]
    crowded, _ = train_value.future_labels(data, 2, ("crowded", 36))
    assert crowded[valid].tolist() == [1.0, 2.0, 1.0, 1.0, 1.0]


def test_poisson_fit_recovers_the_hidden_risk():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 8, size=(20000, 20)).astype(float)
    y = rng.poisson(np.exp(-3.0 + 0.4 * x[:, 2] - 0.2 * x[:, 7]))
    intercept, beta = train_value.fit_poisson(x, y, 1e-6)
    assert abs(beta[2] - 0.4) < 0.03 and abs(beta[7] + 0.2) < 0.03
    assert np.max(np.abs(np.delete(beta, [2, 7]))) < 0.03
    assert abs(intercept + 3.0) < 0.2


def test_trained_file_keeps_tables_and_piece_signs(tmp_path):
    rng = np.random.default_rng(1)
    trace = tmp_path / "trace.jsonl"
    write_trace(trace, rng, 300, lambda x: -4 + 0.5 * x[5], random_boards=True)
    base = tmp_path / "base.txt"
    base.write_text("# a comment\nlinear " + ",".join(["-3"] * 20) + "\ntuple 0 0 1 1 0,-5\n")
    out = tmp_path / "out.txt"
    assert train_value.main([str(trace), "--base", str(base), "--out", str(out), "--horizon", "1",
                             "--scale", "10", "--keep", "0"]) == 0
    lines = out.read_text().splitlines()
    weights = [int(v) for v in lines[1].split()[1].split(",")]
    assert lines[2] == "tuple 0 0 1 1 0,-5"
    assert weights[0] == -3  # kept
    assert weights[5] <= -7  # the risky feature is penalised by about 10 * 0.5
    assert all(weights[k] <= 0 for k in (5, 6, 19))


def test_residual_fit_corrects_only_what_the_base_misses(tmp_path):
    rng = np.random.default_rng(2)
    trace = tmp_path / "trace.jsonl"
    # The base (-10 on feature 1) predicts the risk of feature 1; feature 5 is missed.
    write_trace(trace, rng, 400, lambda x: -4 + 0.05 * 10 * x[1] + 0.5 * x[5])
    base = tmp_path / "base.txt"
    base.write_text("linear 0,-10" + ",0" * 18 + "\n")
    out = tmp_path / "out.txt"
    assert train_value.main([str(trace), "--base", str(base), "--out", str(out), "--horizon", "1",
                             "--scale", "0", "--residual"]) == 0
    weights = [int(v) for v in out.read_text().splitlines()[1].split()[1].split(",")]
    # The natural scale is 1 / 0.05 = 20 units: feature 5 gets about -20 * 0.5, feature 1 stays.
    assert -12 <= weights[5] <= -8
    assert -12 <= weights[1] <= -8
