"""The playout benchmark runs, prints positive figures and refuses unknown games.

OpenSpiel is not a test dependency: its absence is simulated, and the Go counting
is checked on a stand-in game, so these tests run the same with or without it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys

import pytest

from bench.playouts import GAMES, INSTALL_HINT, Result, Target, go_playout, main
from pbem.games import get_game
from pbem.games.base import Playout, SearchPosition
from pbem.games.vacu import search as vacu_search

QUICK = ["--seconds", "0.3", "--seed", "7"]


def _row(out: str, name: str) -> list[str]:
    rows = [line for line in out.splitlines() if line.startswith(name)]
    assert rows, out
    return rows[0].split()


def test_table_prints_positive_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vasco", *QUICK, "--no-yardstick"]) == 0
    out = capsys.readouterr().out
    cells = _row(out, "vasco 54 tiles")
    playouts, per_s, moves_per_s, placed_per_s = (float(cell) for cell in cells[3:7])
    assert playouts > 0
    assert per_s > 0
    assert moves_per_s > 0
    assert placed_per_s >= moves_per_s  # every move places at least one tile
    assert ">= 500/s" in out
    assert "go 9x9" not in out


def test_json_prints_positive_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vasco", *QUICK, "--no-yardstick", "--json", "--size", "20"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seed"] == 7
    [vasco] = report["results"]
    assert vasco["name"] == "vasco 20 tiles"
    assert vasco["playouts"] > 0
    assert vasco["playouts_per_s"] > 0
    assert vasco["placed_per_s"] >= vasco["moves_per_s"] > 0
    assert vasco["target_met"] is None  # the target is set for 54 tiles


def test_trugo_table_reports_moves_target_and_capped_playouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["trugo", *QUICK, "--no-yardstick"]) == 0
    out = capsys.readouterr().out
    cells = _row(out, "trugo 36 tiles")
    playouts, per_s, moves_per_s, placed_per_s = (float(cell) for cell in cells[3:7])
    capped = int(cells[7])
    assert playouts > 0
    assert per_s > 0
    assert moves_per_s > placed_per_s > 0  # tiles are also removed and pieces moved
    assert 0 <= capped <= playouts
    assert "moves >= 5000/s" in out
    assert "capped = playouts stopped undecided at 1000 turns" in out


def test_trugo_json_reports_the_cap_and_how_many_hit_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["trugo", *QUICK, "--no-yardstick", "--json"]) == 0
    [trugo] = json.loads(capsys.readouterr().out)["results"]
    assert trugo["name"] == "trugo 36 tiles"
    assert trugo["playouts"] > 0
    assert trugo["moves_per_s"] > trugo["placed_per_s"] > 0
    assert trugo["cap"] == 1000
    assert 0 <= trugo["capped"] <= trugo["playouts"]
    assert trugo["target"] == {"size": 36, "rate": 5000.0, "per": "moves"}
    assert trugo["target_met"] == (trugo["moves_per_s"] >= 5000)


def test_capped_playouts_are_counted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def short(size: int) -> SearchPosition:
        return get_game("trugo").start([f"-size={size}"]).search_position(cutoff=3)

    monkeypatch.setitem(GAMES, "trugo", dataclasses.replace(GAMES["trugo"], start=short))
    assert main(["trugo", *QUICK, "--no-yardstick", "--json"]) == 0
    [trugo] = json.loads(capsys.readouterr().out)["results"]
    assert trugo["capped"] == trugo["playouts"] > 0
    assert trugo["moves"] == 3 * trugo["playouts"]


def test_games_without_a_cap_report_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vasco", *QUICK, "--no-yardstick", "--json"]) == 0
    [vasco] = json.loads(capsys.readouterr().out)["results"]
    assert vasco["cap"] is None
    assert vasco["capped"] is None
    assert vasco["target"]["per"] == "playouts"


@pytest.mark.parametrize("game", ["vacu", "convacu"])
def test_vacu_table_reports_a_board_playouts_target_and_the_cap(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([game, *QUICK, "--no-yardstick"]) == 0
    out = capsys.readouterr().out
    cells = _row(out, f"{game} 9x9")
    playouts, per_s, moves_per_s, placed_per_s = (float(cell) for cell in cells[2:6])
    capped = int(cells[6])
    assert playouts > 0
    assert per_s > 0
    assert moves_per_s >= placed_per_s > 0  # a turn places a stone, or takes the button, or passes
    assert capped == 0  # random games end long before 10 turns a point
    assert "playouts >= 1000/s" in out
    assert f"{game} 9x9: capped = playouts stopped undecided at 810 turns" in out
    assert "stones placed" in out


@pytest.mark.parametrize("game", ["vacu", "convacu"])
def test_vacu_size_is_the_side_of_the_board_and_sets_the_cap(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([game, *QUICK, "--no-yardstick", "--json", "--size", "5"]) == 0
    [result] = json.loads(capsys.readouterr().out)["results"]
    assert result["name"] == f"{game} 5x5"
    assert result["size"] == 5
    assert result["playouts"] > 0
    assert result["moves"] >= result["placed"] > 0
    assert result["placed"] <= 250 * result["playouts"]
    assert result["cap"] == 250  # 10 turns a point
    assert result["capped"] == 0
    assert result["target"] == {"size": 9, "rate": 1000.0, "per": "playouts"}
    assert result["target_met"] is None  # the target is set for 9x9


def test_capped_vacu_playouts_are_counted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class OneTurn:
        """Vacu's opening, whose random games stop after a turn (none ends sooner)."""

        def __init__(self, position: vacu_search.VacuSearchPosition) -> None:
            self.position = position

        def copy(self) -> OneTurn:
            return OneTurn(self.position.copy())

        def play_out(self, rng: random.Random) -> Playout:
            return vacu_search.play_out(self.position, rng, cap=1)

    def short(size: int) -> OneTurn:
        state = get_game("vacu").start([f"-size={size}", "-komi=6"])
        return OneTurn(vacu_search.VacuSearchPosition.from_state(state))

    monkeypatch.setitem(GAMES, "vacu", dataclasses.replace(GAMES["vacu"], start=short))
    assert main(["vacu", *QUICK, "--no-yardstick", "--json"]) == 0
    [vacu] = json.loads(capsys.readouterr().out)["results"]
    assert vacu["capped"] == vacu["playouts"] > 0
    assert vacu["moves"] == vacu["playouts"]


def test_a_target_counts_the_rate_it_names() -> None:
    result = Result(
        "g 10",
        10,
        playouts=10,
        moves=1000,
        placed=100,
        seconds=1.0,
        moves_are="",
        placed_are="",
        target=Target(10, 500.0, per="moves"),
    )
    assert result.target_met is True  # 1000 moves/s, though only 10 playouts/s
    assert dataclasses.replace(result, target=Target(10, 500.0)).target_met is False
    assert dataclasses.replace(result, size=20).target_met is None


def test_unknown_game_exits_2_listing_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["chess", *QUICK])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err
    assert all(name in err for name in GAMES)


def test_missing_openspiel_prints_how_to_install_and_carries_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes `import pyspiel` fail
    assert main(["vasco", *QUICK]) == 0
    out, err = capsys.readouterr()
    assert err.strip() == INSTALL_HINT
    assert "make bench" in err
    assert "vasco 54 tiles" in out
    assert "go 9x9" not in out


class _FakeGoState:
    """Go as OpenSpiel shapes it: pass is the last action; this game is scripted."""

    def __init__(self, script: list[int]) -> None:
        self.script = script

    def is_terminal(self) -> bool:
        return not self.script

    def legal_actions(self) -> list[int]:
        return [self.script[0]]

    def apply_action(self, action: int) -> None:
        assert action == self.script.pop(0)


class _FakeGo:
    def num_distinct_actions(self) -> int:
        return 82  # 81 points and pass

    def new_initial_state(self) -> _FakeGoState:
        return _FakeGoState([40, 81, 3, 81, 81])


def test_go_counts_passes_as_moves_but_not_as_stones() -> None:
    assert go_playout(_FakeGo(), random.Random(0)) == (5, 2)


def _result(name: str, playouts: int) -> Result:
    return Result(name, None, playouts, playouts, playouts, 1.0, "", "")


def test_against_go_compares_with_the_target_at_the_default_size() -> None:
    from bench.playouts import against_go

    go = _result("go 9x9 (OpenSpiel)", 1000)
    assert against_go("vacu", 9, _result("vacu 9x9", 2500), go).endswith(
        "2.50x OpenSpiel's Go 9x9 playouts/s (target at least 2x: met)"
    )
    assert "NOT met" in against_go("vasco", 54, _result("vasco 54 tiles", 900), go)
    assert "at 36 only" in against_go("trugo", 12, _result("trugo 12 tiles", 900), go)
