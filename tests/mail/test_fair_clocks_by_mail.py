"""Timeouts that are fair, through the real mail door and the periodic job:
coming back from a vacation brings a reminder with the board and a whole
nag period before any forfeit; a draw proposal stands at the forfeit time
only once every player who has not voted was reminded of it; a move sent
after the player's whole-game time ran out forfeits instead of playing."""

from __future__ import annotations

from tests.mail.conftest import Door
from tests.mail.test_story_by_mail import ANN, BOB, exchange, players, tick, to


def test_back_from_vacation_a_reminder_and_a_full_nag_period_before_a_forfeit(
    door: Door,
) -> None:
    players(door, "vasco -size=12 --nagtime=2 --forfeittime=5")
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    exchange(door, BOB, "vasco move 1 bob bobpass1 b1,0")
    exchange(door, ANN, "vacation ann annpass1 on")
    door.clock.advance(days=10)
    assert tick(door) == []  # away: no nag, no forfeit
    back = exchange(door, ANN, "vacation ann annpass1 off")
    nag = next(m for m in back if "(reminder)" in m.subject)
    assert nag.to == ANN and "Moves:" in nag.text
    assert "Without a move by 2026-12-03 09:00 UTC you forfeit." in nag.text
    door.clock.advance(days=1, hours=23)
    daily = tick(door)  # still within the nag period: a daily reminder, no forfeit
    assert [m.subject for m in daily] == ["Vasco Board 1 ann (reminder)"]
    door.clock.advance(hours=2)
    ended = tick(door)
    assert "Vasco Board 1 game over" in {m.subject for m in ended}
    assert to(ended, BOB).text.startswith("Game over: ann forfeited")


def test_a_draw_proposal_stands_only_after_each_who_did_not_vote_was_reminded(
    door: Door,
) -> None:
    players(door, "vasco -size=12 --nagtime=2 --forfeittime=5")
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    exchange(door, ANN, "vasco propose 1 ann annpass1")  # bob to move, bob to vote
    door.clock.advance(days=2, hours=1)
    nagged = tick(door)
    assert [m.to for m in nagged] == [BOB]  # the player to move, who has not voted
    door.clock.advance(days=3)  # the forfeit time: the reminder came after the proposal
    ended = tick(door)
    assert to(ended, BOB).text.startswith(
        "Game over: drawn: the proposal stood unanswered until the forfeit time."
    )


def test_a_proposal_made_after_the_nag_is_reminded_before_it_stands(door: Door) -> None:
    players(door, "vasco -size=12 --nagtime=2 --forfeittime=5")
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    door.clock.advance(days=2, hours=1)
    assert [m.to for m in tick(door)] == [BOB]  # the nag, before any proposal
    door.clock.advance(hours=1)
    exchange(door, ANN, "vasco propose 1 ann annpass1")
    door.clock.advance(days=3)
    [reminder] = tick(door)
    assert reminder.to == BOB
    assert reminder.subject == "Vasco Board 1 bob (reminder: a draw is proposed)"
    assert "Without an answer by 2026-11-27 11:00 UTC the board is drawn" in reminder.text
    door.clock.advance(days=1)
    ended = tick(door)
    assert "Vasco Board 1 game over" in {m.subject for m in ended}


def test_a_move_after_the_whole_game_time_ran_out_forfeits(door: Door) -> None:
    players(door, "vasco --totaltime=3 --nagtime=10 --forfeittime=20")
    exchange(door, ANN, "vasco move 1 ann annpass1 b0,0")
    exchange(door, BOB, "vasco move 1 bob bobpass1 a1,1")
    exchange(door, ANN, "vasco move 1 ann annpass1 f3,2")
    door.clock.advance(days=3, hours=1)  # bob's three days are gone; no tick ran
    mails = exchange(door, BOB, "vasco move 1 bob bobpass1 f0,-1")
    assert {m.subject for m in mails} == {"Vasco Board 1 game over"}
    assert to(mails, BOB).text.startswith(
        "Game over: bob ran out of time (3 days in all); ann wins."
    )
    assert "f0,-1" not in to(mails, BOB).text.split("Moves:")[1]
