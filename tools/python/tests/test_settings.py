"""tessera_engine_client.settings (the GUIs' config files) and tessera_engine_client.rating (rated games)."""

import json

import pytest

from tessera_engine_client.rating import (RatedGame, describe, expected_score, level_rating, outcome,
                                   rated_games, rating, record)
from tessera_engine_client.settings import FULL_STRENGTH, Settings, config_dir, level_label


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return tmp_path / "tessera"


def test_config_dir_follows_xdg(home, monkeypatch, tmp_path):
    assert config_dir() == home
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert config_dir() == tmp_path / "h" / ".config" / "tessera"


def test_level_is_kept_between_sessions(home):
    settings = Settings("blokus")
    assert settings.level == FULL_STRENGTH and not settings.path.exists()
    settings.level = 3
    assert json.loads((home / "blokus.json").read_text()) == {"level": 3}
    assert Settings("blokus").level == 3 and Settings("compsudoku").level == FULL_STRENGTH
    with pytest.raises(ValueError):
        settings.level = 11
    assert level_label(3) == "3" and level_label(10) == "10 (full strength)"


def test_a_broken_file_is_kept_aside(home):
    home.mkdir(parents=True)
    (home / "blockudoku.json").write_text("{not json")
    settings = Settings("blockudoku")
    assert settings.level == FULL_STRENGTH
    assert (home / "blockudoku.json.bad").read_text() == "{not json"
    settings.level = 4
    assert Settings("blockudoku").level == 4


def test_outcome_and_expectation():
    assert outcome(40, [38]) == ("win", 1.0)
    assert outcome(38, [38]) == ("draw", 0.5)
    assert outcome(30, [38]) == ("loss", 0.0)
    assert outcome(50, [60, 40, 40]) == ("loss", 2 / 3)  # second of four
    assert level_rating(1) == 1000 and level_rating(10) == 2350
    assert expected_score(1300, 1300) == 0.5
    assert expected_score(1000, 1400) == pytest.approx(1 / 11)


def test_rating_moves_by_k_and_is_kept_per_variant(home):
    settings = Settings("compsudoku")
    win = RatedGame.finished(level=1, mine=20, others=[10], variant="3x3 classic",
                             date="2026-11-26")
    assert win == RatedGame(1, "win", 1.0, "3x3 classic", "2026-11-26")
    assert rating([win]) == pytest.approx(1000 + 40 * 0.5)
    # After ten games K is 20.
    assert rating([win] * 11) - rating([win] * 10) == pytest.approx(
        20 * (1 - expected_score(rating([win] * 10), 1000)))
    record(settings, win)
    record(settings, RatedGame.finished(5, 3, [9], "2x3 rows"))
    again = Settings("compsudoku")
    assert rated_games(again, "3x3 classic") == [win] and len(rated_games(again)) == 2
    assert describe(rated_games(again, "2x3 rows")).startswith("rating 99")
    assert describe([]) == "rating 1000: no rated game yet"
    assert describe([win, win]) == "rating 1039 after 2 games: 2 won, 0 drawn, 0 lost"
