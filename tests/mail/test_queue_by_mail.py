"""pbmserv's queue and out-of-turn resignation, through the real mail door:
a new queued move replaces the old one, `queue` on your own turn is
`move`, the queuer gets the board with what is queued, a queued move
played is marked (Auto), an illegal one is reported to its owner alone; a
resignation out of turn is told to the resigner alone and sending it again
takes it back."""

from __future__ import annotations

from tests.mail.conftest import Door
from tests.mail.test_story_by_mail import ANN, BOB, exchange, players, to


def test_a_new_queued_move_replaces_the_old_and_is_played_marked_auto(door: Door) -> None:
    players(door, "vasco -size=12")
    [first] = exchange(door, BOB, "vasco queue 1 bob bobpass1 a-1,0")
    assert first.to == BOB and first.subject == "Vasco Board 1 queued"
    assert first.text.startswith("You have the following move queued:\n  a-1,0\n\n")
    assert "Vasco board 1: ann as Red (O) against bob as Blue (X)." in first.text
    [second] = exchange(door, BOB, "vasco qmove 1 bob bobpass1 b1,0")
    assert second.text.startswith(
        "You have the following move queued:\n  b1,0\n(it replaces a-1,0)\n\n"
    )
    mails = exchange(door, ANN, "vasco move 1 ann annpass1 a0,0#1")
    last = [m for m in mails if m.to == ANN][-1]
    assert last.subject == "Vasco Board 1 ann"  # bob's queued move answered at once
    assert "2. bob        b1,0 (Auto)" in last.text


def test_queue_on_your_own_turn_is_a_move(door: Door) -> None:
    players(door, "vasco -size=12")
    mails = exchange(door, ANN, "vasco queue 1 ann annpass1 a0,0")
    assert {m.subject for m in mails} == {"Vasco Board 1 bob"}
    assert "1. ann        a0,0\n" in to(mails, BOB).text  # a move, not marked auto


def test_a_queued_move_that_became_illegal_is_reported_to_its_owner_alone(door: Door) -> None:
    players(door, "vasco -size=12")
    exchange(door, BOB, "vasco queue 1 bob bobpass1 a0,0")  # ann will take that cell
    mails = exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    dropped = [m for m in mails if "queued move dropped" in m.subject]
    assert [m.to for m in dropped] == [BOB]
    assert "Your queued move a0,0 on board 1 could not be played" in dropped[0].text


def test_an_out_of_turn_resignation_is_told_to_the_resigner_alone_and_can_be_taken_back(
    door: Door,
) -> None:
    players(door, "vasco")  # (moves of a random game that never end it)
    exchange(door, ANN, "vasco move 1 ann annpass1 b0,0")
    exchange(door, BOB, "vasco move 1 bob bobpass1 a1,1")
    exchange(door, ANN, "vasco move 1 ann annpass1 f3,2")
    [told] = exchange(door, ANN, "vasco resign 1 ann annpass1")
    assert (told.to, told.subject) == (ANN, "Vasco Board 1 ann will resign")
    assert "only you are told until then" in told.text
    [back] = exchange(door, ANN, "vasco resign 1 ann annpass1")
    assert (back.to, back.subject) == (ANN, "Vasco Board 1 resignation taken back")
    mails = exchange(door, BOB, "vasco move 1 bob bobpass1 f0,-1")
    assert {m.subject for m in mails} == {"Vasco Board 1 ann"}  # play goes on

    exchange(door, BOB, "vasco resign 1 bob bobpass1", "I give up.")  # out of turn again
    mails = exchange(door, ANN, "vasco move 1 ann annpass1 e-2,0")
    assert [m.subject for m in mails if m.to == ANN] == [
        "Vasco Board 1 bob",
        "Vasco Board 1 game over **",
    ]
    over = mails[-1].text
    assert over.startswith("Game over: bob resigned; ann wins.\n")
    assert "Comment from bob:\n> I give up." in over
