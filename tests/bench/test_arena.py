"""The arena plays whole games between players and reports honest figures."""

from __future__ import annotations

import pytest

from bench.arena import Tally, main, match, plain_position, player_named
from pbem.ai.levels import knowledge
from pbem.games import get_game
from pbem.games.trugo.search import SEARCH_CUTOFF, TrugoSearchPosition

SMALL = ["--option=-size=5", "--option=-komi=3"]


def test_a_short_match_prints_the_score_its_interval_and_the_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["vacu", "--a", "easy", "--b", "random", "--games", "2", "--scale", "0.1", *SMALL])
        == 0
    )
    out = capsys.readouterr().out
    assert "vacu: easy against random, 2 games, seats alternating" in out
    assert "95% interval" in out and "games/s" in out
    assert "easy: " in out and "random: " in out


def test_seats_alternate_and_every_game_is_counted() -> None:
    a, b = player_named("random", 1.0), player_named("random", 1.0)
    tally, _ = match("convacu", ["-size=5", "-komi=3"], a, b, 6, seed=3)
    assert tally.games == 6
    assert 0 <= tally.wins <= 6
    assert set(tally.seconds) == {"random", "random'"}  # the same player, told apart


def test_the_interval_is_wilsons() -> None:
    tally = Tally(wins=70, games=100)
    low, high = tally.interval()
    assert round(low, 3) == 0.604 and round(high, 3) == 0.781
    assert Tally(wins=100, games=100).interval()[0] > 0.96  # 100 of 100: at least 96%


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(SystemExit, match="unknown player"):
        player_named("deep blue", 1.0)


def test_a_scaled_level_keeps_a_budget() -> None:
    hard = player_named("hard", 0.01)
    assert hard.budget is not None and hard.budget.seconds == pytest.approx(0.06)
    uct = player_named("uct", 1.0)
    assert uct.settings is not None and uct.settings.solver is False and uct.plain


def test_plain_uct_knows_nothing_of_the_game_and_levels_search_as_the_bots() -> None:
    """The yardstick plays Trugo's random games to the end (the cut-off
    scored by material is knowledge); a level searches each game with the
    bots' settings."""
    state = get_game("trugo").start([])
    plain = plain_position(state)
    assert isinstance(plain, TrugoSearchPosition) and plain.cutoff is None
    assert state.search_position().cutoff == SEARCH_CUTOFF  # type: ignore[attr-defined]
    hard = player_named("hard", 1.0)
    assert hard.settings is None and not hard.plain
    assert knowledge("vacu").rave and not knowledge("trugo").rave
