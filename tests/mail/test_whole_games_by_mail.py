"""A whole game of each of the four games by mail, through the real mail
door, to its end by the rules: every move mailed with its #N by the player
to move, every board mail answered, and the last mail of the game, to both
players, says who won and why, the dates, the time taken and both rating
changes."""

from __future__ import annotations

import random

import pytest

from pbem.games import get_game
from tests.mail.conftest import Door
from tests.mail.test_story_by_mail import ANN, BOB, exchange, players

SENDERS = {0: (ANN, "ann annpass1"), 1: (BOB, "bob bobpass1")}
NAMES = ("ann", "bob")


@pytest.mark.parametrize(
    ("game", "options", "seed"),
    [
        ("vasco", "-size=12", 1),
        ("trugo", "-size=12 -pieces=6", 2),
        ("vacu", "-size=5", 3),  # with the komi step and the colour choice
        ("convacu", "-size=5 -komi=2", 4),
    ],
)
def test_a_whole_game_by_mail_ends_with_the_story(
    door: Door, game: str, options: str, seed: int
) -> None:
    players(door, f"{game} {options}")
    rules = get_game(game)
    state = rules.new_state(rules.parse_options(options.split()))
    chooser = random.Random(seed)
    mails = []
    while state.result is None:
        seat = state.to_move
        assert seat is not None
        move = state.move_text(chooser.choice(state.legal_moves()))
        address, who = SENDERS[seat]
        number = len(state.history) + 1
        mails = exchange(door, address, f"{game} move 1 {who} {move}#{number}")
        assert mails and all("Error" not in m.subject for m in mails), mails[0].text[:400]
        state = state.play_text(move)
        assert len(state.history) < 400
    result = state.result
    assert result is not None
    title = rules.title
    last = {m.to: m for m in mails if m.subject.startswith(f"{title} Board 1 game over")}
    assert set(last) == {ANN, BOB}
    for mail in last.values():
        lines = mail.text.splitlines()
        if result.winner is None:
            assert lines[0].startswith("Game over: "), lines[0]
        else:
            assert lines[0].startswith(f"Game over: {NAMES[result.winner]} wins; "), lines[0]
        assert lines[1].startswith("Started 2026-11-21 09:00 UTC, ended 2026-11-21 09:00 UTC")
        assert lines[2] == "Time taken: ann under a minute, bob under a minute."
        changes = lines[3:5]
        assert [line.split("'")[0] for line in changes] == ["ann", "bob"]
        if result.winner is not None:
            loser = NAMES[1 - result.winner]
            assert f"{NAMES[result.winner]}'s rating went up from 1600 to 1824" in mail.text
            assert f"{loser}'s rating went down from 1600 to 1424" in mail.text
