"""A `--totaltime` board in any answer that draws it (issue 49, item 24):
`show` (now and after a move), `show USERID`, `all show` and a refusal's
mail each give each player's time used and left at the command's time, not
as of the board's last change; through the real mail door, on both engines
(the board's view is read otherwise on PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ENGINES, upgraded_database_url
from tests.mail.conftest import Door, door_on
from tests.mail.test_story_by_mail import ANN, BOB, exchange, players


@pytest.fixture(params=ENGINES)
def door(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Door]:
    with door_on(upgraded_database_url(request.param, request, tmp_path), tmp_path) as opened:
        yield opened


# What each answer is asked by: (sender, command); bob is to move on board 1.
ANSWERS = {
    "show": (ANN, "vasco show 1"),
    "show after a move": (BOB, "vasco show 1#0"),
    "show a player's boards": (ANN, "vasco show bob"),
    "all show": (BOB, "all show bob"),
    "a refused move": (ANN, "vasco move 1 ann annpass1 b1,0#2"),  # not ann's move
}


def clock_line(bob: str) -> str:
    return f"Time (10 days each): ann used 5 hours, 9 days 19 hours left; bob used {bob} left."


@pytest.mark.parametrize(("sender", "command"), ANSWERS.values(), ids=ANSWERS)
def test_an_answer_shows_the_clocks_at_the_commands_time(
    door: Door, sender: str, command: str
) -> None:
    players(door, "vasco -size=12 --totaltime=10")
    door.clock.advance(hours=5)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    door.clock.advance(hours=2)  # bob's wait counts as his
    [answer] = exchange(door, sender, command)
    assert clock_line("2 hours, 9 days 22 hours") in answer.text, answer.text
    assert ", as of " not in answer.text
    door.clock.advance(days=1)  # the board unchanged: the clock alone moved on
    [later] = exchange(door, sender, command)
    assert clock_line("1 day 2 hours, 8 days 22 hours") in later.text, later.text
