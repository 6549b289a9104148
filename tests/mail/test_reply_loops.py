"""No mail loops with naive auto-responders: a robot that echoes every mail it
gets back to the server, without Auto-Submitted or Precedence, through the
real SMTP listener and relay."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from pbem.mail.inbound import Ignored, parse_message
from pbem.server.mailing.reply_cap import REPLIES_PER_HOUR
from tests.mail.conftest import ADDRESS, Door

ROBOT = "robot@example.org"


def echo(door: Door, mail: EmailMessage) -> None:
    """What a naive auto-responder sends back: 'Re: ' and the same text."""
    door.send(
        ROBOT,
        f"Re: {mail['Subject']}",
        "I am away. Your mail was:\n" + str(mail.get_body(preferencelist=("plain",))),
        In_Reply_To=str(mail["Message-ID"]),
    )


def play_ping_pong(door: Door, first_subject: str, rounds: int) -> int:
    """The robot sends one command, then echoes whatever comes back, for at
    most `rounds` rounds; returns how many mails the server sent it."""
    door.send(ROBOT, first_subject)
    received = 0
    for _ in range(rounds):
        if door.deliver() == 0:
            break
        mails = [m for m in door.world.mails[received:] if ROBOT in str(m["To"])]
        received = len(door.world.mails)
        for mail in mails:
            echo(door, mail)
    return sum(ROBOT in str(m["To"]) for m in door.world.mails)


@pytest.mark.parametrize(
    "subject",
    [
        "pbem error: change",
        "Re: pbem error: pbem error",
        "Vasco Board 12 Error",
        "Re: Re: TRUGO board 3 error",
        "Fwd: Vacu error",
        "AW: pbem signup ann",
        "pbem digest ann: 2 boards await you",
        "PBEM replies paused",
    ],
)
def test_a_mail_with_one_of_our_own_subjects_is_not_answered(subject: str) -> None:
    raw = f"From: {ROBOT}\r\nTo: {ADDRESS}\r\nSubject: {subject}\r\n\r\nHi\r\n".encode()
    parsed = parse_message(raw, ADDRESS)
    assert isinstance(parsed, Ignored) and "server's own" in parsed.reason


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("hello there", "pbem error"),
        ("change password robot nope1234 new12345", "pbem error: change"),
        ("vasco fly", "Vasco error"),
        ("vasco move 7 robot secret99 a0,0", "Vasco Board 7 Error"),
    ],
)
def test_an_echoed_error_mail_ends_the_exchange(door: Door, first: str, answer: str) -> None:
    sent = play_ping_pong(door, first, rounds=10)
    assert sent == 1  # the error reply, whose echo ("Re: Vasco error") is ignored
    [reply] = door.outbox()
    assert reply.subject == answer


def test_an_echoed_command_stops_at_the_hourly_cap_with_one_notice(door: Door) -> None:
    # "Vasco help" answers with the subject "Vasco help": its echo is the same
    # command again, so only the cap ends this exchange.
    sent = play_ping_pong(door, "vasco help", rounds=REPLIES_PER_HOUR + 20)
    assert sent == REPLIES_PER_HOUR
    subjects = [str(m["Subject"]) for m in door.world.mails]
    assert subjects[: REPLIES_PER_HOUR - 1] == ["Vasco help"] * (REPLIES_PER_HOUR - 1)
    assert subjects[-1] == "pbem replies paused"
    last = door.world.mails[-1].get_body(preferencelist=("plain",))
    assert last is not None
    said = " ".join(last.get_content().split())
    assert "Until 2026-11-21 10:" in said and "they are dropped, not kept" in said
    assert "wait" not in said  # dropped answers are never called waiting

    door.clock.advance(hours=1, minutes=1)  # a new hour: answered again
    door.send(ROBOT, "vasco help")
    assert door.deliver() == 1


def test_a_registered_player_is_never_capped_and_gets_every_answer(door: Door) -> None:
    """Past a hundred commands in an hour (easy, playing a bot by mail), a
    player's own address still gets every answer: the copy of their move
    and the error for a mistyped one."""
    door.send("ann@example.org", "signup ann annpass1")
    door.send("bob@example.org", "signup bob bobpass1")
    door.send("ann@example.org", "vasco challenge ann bob")
    for _ in range(REPLIES_PER_HOUR):
        door.send("ann@example.org", "vasco help")
    while door.deliver():  # (at most a hundred a pass)
        pass
    assert not any("paused" in str(m["Subject"]) for m in door.world.mails)
    before = len(door.world.mails)
    door.send("ann@example.org", "vasco move 1 ann annpass1 zz9#1")
    door.send("ann@example.org", "vasco move 1 ann annpass1 a0,0#1")
    assert door.deliver() == 3
    sent = [(str(m["To"]), str(m["Subject"])) for m in door.world.mails[before:]]
    assert sent[0] == ("ann@example.org", "Vasco Board 1 Error")
    assert ("bob@example.org", "Vasco Board 1 bob") in sent[1:]
    assert any(to == "ann@example.org" for to, _ in sent[1:])  # her copy of the move
