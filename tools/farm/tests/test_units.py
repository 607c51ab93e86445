"""The pieces without Ray or an engine: seed slices, shards, tessera's number formats and match
statistics, the survival curve, the default engine and another checkout's tools."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from tessera_engine_farm.bundle import default_engine, use_checkout
from tessera_engine_farm.plots import kaplan_meier
from tessera_engine_farm.rustrand import GOLDEN, MASK64
from tessera_engine_farm.shards import power_of_two_at_least, slice_seed, split
from tessera_engine_farm.stats import Sprt, Tally, chance_line, rust_exp, survival


def test_a_slice_seed_gives_the_games_of_the_whole_run():
    rng = random.Random(1)
    for _ in range(200):
        seed = rng.getrandbits(64)
        size = 1 << rng.randrange(0, 8)
        first = size * rng.randrange(0, 1000)
        sliced = slice_seed(seed, first)
        for j in range(size):
            assert (sliced * GOLDEN & MASK64) ^ j == (seed * GOLDEN & MASK64) ^ (first + j)


def test_shards_cover_the_games_once_in_order():
    shards = split(10, 4)
    assert [(s.first, s.count) for s in shards] == [(0, 4), (4, 4), (8, 2)]
    assert [s.name for s in shards] == ["games-000000", "games-000004", "games-000008"]
    assert power_of_two_at_least(5) == 8 and power_of_two_at_least(8) == 8
    with pytest.raises(ValueError):
        split(0, 4)


def test_numbers_are_printed_as_tessera_prints_them():
    assert rust_exp(1.2345e-3, 3) == "1.234e-3"
    assert rust_exp(0.0, 1) == "0.0e0"
    assert rust_exp(12.5, 1) == "1.2e1"
    mean, low, high = survival(1_000_000, 19)
    assert round(mean, 1) == 52631.6 and abs(low - 33_700) < 700 and abs(high - 87_400) < 1800
    assert chance_line(1e-4, 0.0, 24) == ("death_chance_per_round 1.000e-4 se 0.0e0 hazard_mean "
                                          "10000.0 ci95 10000.0 10000.0 (boards of 24+ cells)")


def test_match_statistics_follow_tessera():
    assert Tally(10, 0, 10).summary().startswith("10-0-10, score 50.0%")
    sprt = Sprt.parse("0,50")
    low, high = sprt.bounds()
    assert abs(high - 2.944) < 0.01 and abs(low + 2.944) < 0.01
    assert sprt.verdict(Tally(70, 10, 20)) == "better"
    assert sprt.verdict(Tally(35, 10, 55)) == "not better"
    assert sprt.verdict(Tally(3, 0, 2)) == "continue"
    with pytest.raises(ValueError):
        Sprt.parse("5,0")


def test_the_survival_curve_steps_down_at_each_death():
    curve = kaplan_meier([(10, True), (20, False), (30, True), (40, False)])
    assert [(r, round(s, 3)) for r, s, _ in curve] == [(0, 1.0), (10, 0.75), (30, 0.375)]


def test_the_default_engine_is_the_environment_s_then_a_build_here_then_the_path(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TESSERA_ENGINE", "/opt/tessera")
    assert default_engine() == "/opt/tessera"
    monkeypatch.delenv("TESSERA_ENGINE")
    assert default_engine() == "tessera"
    (tmp_path / "target" / "release").mkdir(parents=True)
    (tmp_path / "target" / "release" / "tessera").write_text("")
    assert default_engine() == "target/release/tessera"


def test_another_checkout_s_client_is_used_ahead_of_the_installed_one(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError, match="not a tessera checkout"):
        use_checkout(tmp_path)
    client = tmp_path / "tools" / "python" / "tessera_engine_client"
    client.mkdir(parents=True)
    (client / "__init__.py").write_text("")
    monkeypatch.setattr(sys, "path", list(sys.path))
    use_checkout(tmp_path)
    assert Path(sys.path[0]) == (tmp_path / "tools" / "python").resolve()
