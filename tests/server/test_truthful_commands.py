"""What the command layer records and says (issue 49), on SQLite and
PostgreSQL, each command handled as a mail (with its Message-ID): who may
decline a board, how a declined board ends, what reminders promise, and the
refusals that say what was wrong."""

from __future__ import annotations

import itertools

from sqlalchemy import select

from pbem.server import Server
from pbem.server.bot_turns import answer, play, waiting
from pbem.store import Board, BoardStatus, Ending, OutboxMessage
from tests.server.test_commands import signup

_ids = itertools.count(1)


def mail(server: Server, who: str, line: str, body: str = "") -> list[tuple[str, str, str]]:
    """`line` mailed by `who` with a Message-ID: (to, subject, body) of each answer."""
    outcome = server.handle(f"{who}@example.org", line, body, f"<m{next(_ids)}@example.org>")
    return [(m.to[0], m.subject, m.body) for m in outcome.mails]


def board(server: Server, number: int = 1) -> Board:
    with server.sessions() as session:
        found = session.scalar(select(Board).where(Board.id == number))
        assert found is not None
        return found


def test_a_challenger_resigning_before_moving_loses_rated(server: Server) -> None:
    signup(server, "ann", "bob")
    mail(server, "ann", "vasco challenge ann bob -size=3")
    mail(server, "ann", "vasco resign 1 ann pw-ann")
    ended = board(server)
    assert (ended.status, ended.winner, ended.ending) == (
        BoardStatus.FINISHED,
        1,
        Ending.RESIGNATION,
    )


def test_a_declined_board_is_recorded_as_declined_not_drawn(server: Server) -> None:
    signup(server, "ann", "bob")
    mail(server, "ann", "vasco challenge ann bob -size=3")
    answers = mail(server, "bob", "vasco resign 1 bob pw-bob")
    ended = board(server)
    assert (ended.status, ended.winner, ended.ending) == (
        BoardStatus.FINISHED,
        None,
        Ending.DECLINED,
    )
    assert not ended.ending.rated
    assert all(
        body.startswith("Game over: bob declined the challenge; not rated.\n")
        for *_, body in answers
    )
    # `reject` declines only what others sent: ann's own challenges stay
    mail(server, "ann", "vasco challenge ann bob -size=3")
    [rejected] = mail(server, "ann", "vasco reject ann pw-ann")
    assert "You declined" not in rejected[2]
    assert board(server, 2).status is BoardStatus.ACTIVE


def test_a_taken_open_challenge_is_accepted_by_both(server: Server) -> None:
    signup(server, "cat", "wendy")
    mail(server, "cat", "trugo open cat pw-cat", "Anyone?")
    mails = mail(server, "wendy", "trugo take 1 wendy pw-wendy", "Happy to play, wendy!")
    assert {to for to, *_ in mails} == {"cat@example.org", "wendy@example.org"}
    assert all("Happy to play, wendy!" in body for *_, body in mails)
    with server.sessions() as session:
        assert all(p.accepted for p in session.get_one(Board, 1).players)


def test_a_move_number_from_the_future_is_not_called_stale(server: Server) -> None:
    signup(server, "ann", "bob")
    mail(server, "ann", "vasco challenge ann bob -size=12")
    mail(server, "ann", "vasco move 1 ann pw-ann a0,0#1")
    mail(server, "bob", "vasco move 1 bob pw-bob b1,0#2")
    [(_, subject, body)] = mail(server, "ann", "vasco move 1 ann pw-ann c2,0#7")
    assert subject == "Vasco Board 1 Error"
    assert body.startswith(
        "Board 1 is at move 3, but this mail was for move 7, which the board has not reached, "
        "so nothing was played: write #3 after the move, or leave the number out."
    )
    assert "stale" not in body
    [(_, _, old)] = mail(server, "ann", "vasco move 1 ann pw-ann c2,0#2")
    assert "this mail was for move 2: it is stale or came twice" in old
    assert board(server).version == 2


def test_a_pass_in_a_game_without_passing_says_so(server: Server) -> None:
    signup(server, "ann", "bob")
    mail(server, "ann", "vasco challenge ann bob -size=12")
    for line in ("vasco move 1 ann pw-ann pass#1", "vasco pass 1 ann pw-ann"):
        [(_, subject, body)] = mail(server, "ann", line)
        assert subject == "Vasco Board 1 Error"
        assert body.startswith("Vasco has no passing: every turn is a move")
    assert board(server).version == 0


def outbox(server: Server) -> list[OutboxMessage]:
    with server.sessions() as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_a_bot_refusing_an_undo_says_why(server: Server) -> None:
    signup(server, "ann")
    mail(server, "ann", "vasco challenge ann easybot -size=12")
    mail(server, "ann", "vasco move 1 ann pw-ann a0,0")
    [turn] = waiting(server)
    play(server, turn, "b1,0")
    mail(server, "ann", "vasco undo 1 ann pw-ann")
    [undo] = waiting(server)
    seen = len(outbox(server))
    assert answer(server, undo, yes=False) is None
    [told] = [m for m in outbox(server)[seen:] if m.recipients == ["ann@example.org"]]
    assert told.subject == "Vasco Board 1 proposal rejected **"
    assert "easybot rejects taking back the last move on board 1; play goes on." in told.body
    assert "easybot writes:\n> I take no move back: as in a tournament, a move played stands." in (
        told.body
    )


def test_only_who_has_not_voted_is_told_how_to_answer_a_proposal(server: Server) -> None:
    signup(server, "ann", "bob", "carol")
    mail(server, "ann", "vasco challenge ann bob -size=12")
    mail(server, "carol", "vasco subscribe carol pw-carol 1")
    mail(server, "ann", "vasco move 1 ann pw-ann a0,0")
    told = {to: body for to, _, body in mail(server, "bob", "vasco propose 1 bob pw-bob")}
    assert set(told) == {"ann@example.org", "bob@example.org", "carol@example.org"}
    assert (
        "Reply with 'vasco accept 1 ann PASSWORD' or 'vasco reject 1 ann PASSWORD'."
        in (told["ann@example.org"])
    )
    assert "Reply with" not in told["bob@example.org"]  # the proposer
    assert "Reply with" not in told["carol@example.org"]  # a subscriber has no vote
    assert all("USERID" not in body for body in told.values())
