"""The reply cap (server/mailing/reply_cap.py) through the command layer,
by mail, on SQLite and PostgreSQL: a registered player's answers to their
own commands are never dropped, errors included; a stranger's address gets
at most REPLIES_PER_HOUR answers an hour, and its notice says what is
dropped and until when."""

from __future__ import annotations

from itertools import count

import pytest
from sqlalchemy import Engine, select

from pbem.games import get_game
from pbem.server import Server
from pbem.server.mailing.reply_cap import REPLIES_PER_HOUR
from pbem.store import OutboxMessage, session_factory
from tests.server.test_commands import Clock, signup

ANN, BOB = "ann@example.org", "bob@example.org"
STRANGER = "someone@nowhere.example"
KEYS = count()


def mailed(server: Server, sender: str, line: str) -> list[tuple[tuple[str, ...], str]]:
    """A command by mail, with a Message-ID: (to, subject) of each answer."""
    sent = server.handle(sender, line, "", f"<m{next(KEYS)}@example.org>", by_mail=True)
    return [(mail.to, mail.subject) for mail in sent.mails]


@pytest.fixture(params=[True, False], ids=["quick", "full"])
def server(engine: Engine, clock: Clock, request: pytest.FixtureRequest) -> Server:
    return Server(session_factory(engine), clock, quick_moves=request.param)


def fill_the_hour(server: Server, sender: str) -> None:
    for _ in range(REPLIES_PER_HOUR):
        mailed(server, sender, "list")


def test_a_registered_player_gets_every_answer_however_many_commands(server: Server) -> None:
    signup(server, "ann", "bob")
    mailed(server, ANN, "vasco challenge ann bob")
    fill_the_hour(server, ANN)
    assert mailed(server, ANN, "list") == [((ANN,), "pbem list")]  # no notice, no drop
    # a mistyped move: its error comes back
    [error] = mailed(server, ANN, "vasco move 1 ann pw-ann zz9")
    assert error == ((ANN,), "Vasco Board 1 Error")
    # moves, the second one by the quick path where it is on: ann's copy comes
    state = get_game("vasco").start()
    for number, (who, address) in enumerate([("ann", ANN), ("bob", BOB), ("ann", ANN)], 1):
        text = state.move_text(state.legal_moves()[0])
        answers = mailed(server, address, f"vasco move 1 {who} pw-{who} {text}#{number}")
        assert any(address in to for to, _ in answers), answers
        state = state.play_text(text)
    # a wrong password: the refusal comes too
    [refused] = mailed(server, ANN, "vasco move 1 ann wrong-pw a0,0")
    assert refused[0] == (ANN,) and "Error" in refused[1]


def test_a_strangers_address_is_capped_and_told_what_is_dropped_until_when(
    server: Server, clock: Clock
) -> None:
    fill_the_hour(server, STRANGER)
    with server.sessions() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    assert len(rows) == REPLIES_PER_HOUR
    notice = rows[-1]
    assert notice.subject == "pbem replies paused"
    assert "Until 2026-11-21 10:00 UTC" in notice.body
    assert "dropped, not kept, errors included" in notice.body
    assert "wait" not in notice.body  # what is dropped is not waiting
    assert mailed(server, STRANGER, "list") == []  # dropped
    assert mailed(server, STRANGER, "vasco fly") == []  # errors too: backscatter
    clock.advance(hours=1, minutes=1)
    assert mailed(server, STRANGER, "list") == [((STRANGER,), "pbem list")]
