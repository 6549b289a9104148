"""Newcomers' and veterans' mails through the SMTP listener and the relay:
a reply to a chat mail is answered with the exact command to send (issue
49 item 5), an empty Subject with the command in the body is told to put
it in the Subject (17), a challenge's unreadable words are named all at
once (19), and a broadcast carries the administrator's Reply-To (23)."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from tests.mail.conftest import Door

ANN, BOB = "ann@example.org", "bob@example.org"


def text(mail: EmailMessage) -> str:
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")


def answers(door: Door, sender: str, subject: str | None, body: str = "") -> list[EmailMessage]:
    before = len(door.world.mails)
    door.send(sender, subject, body)
    while door.deliver():
        pass
    return door.world.mails[before:]


@pytest.fixture
def players(door: Door) -> Door:
    answers(door, ANN, "signup ann annpass1")
    answers(door, BOB, "signup bob bobpass1")
    answers(door, ANN, "vasco challenge ann bob")
    return door


def test_a_reply_to_a_chat_mail_gets_the_command_to_send(players: Door) -> None:
    [chat] = [m for m in answers(players, ANN, "vasco chat 1 ann annpass1", "Later?")
              if str(m["To"]) == BOB]  # fmt: skip
    assert str(chat["Subject"]) == "Vasco Board 1 chat from ann"
    # the chat mail itself says how to answer, for its reader
    assert "To answer, send a mail whose Subject is 'vasco chat 1 bob PASSWORD'" in " ".join(
        text(chat).split()
    )
    [reply] = answers(players, BOB, "Re: Vasco Board 1 chat from ann", "Yes, later!")
    assert str(reply["To"]) == BOB and str(reply["Subject"]) == "Vasco Board 1 Error"
    said = text(reply)
    assert "  vasco chat 1 bob PASSWORD\n" in said  # the sender's userid filled in
    assert "To move" not in said
    assert "> Yes, later!" in said  # the text, to copy
    # the command it names works
    sent = answers(players, BOB, "vasco chat 1 bob bobpass1", "Yes, later!")
    assert any(str(m["Subject"]) == "Vasco Board 1 chat from bob" for m in sent)
    # from an address no player has: USERID
    [stranger] = answers(players, "x@example.net", "Re: Vasco Board 1 chat from ann", "Hi")
    assert "  vasco chat 1 USERID PASSWORD\n" in text(stranger)


@pytest.mark.parametrize("subject", [None, ""])
def test_an_empty_subject_with_the_command_in_the_body_is_told_where_it_goes(
    players: Door, subject: str | None
) -> None:
    [reply] = answers(players, ANN, subject, "vasco move 1 ann annpass1 a0,0")
    said = " ".join(text(reply).split())
    assert "put the command in the Subject" in said
    assert "Your body starts with a command: send it again with that line as the Subject." in said
    assert "The command line is empty" not in said


def test_a_challenge_names_every_unreadable_word_at_once(players: Door) -> None:
    [reply] = answers(players, ANN, "vasco challenge ann bob --nagtime=x --forfeit=3 --totaltime=2")
    said = " ".join(text(reply).split())
    assert "Invalid challenge. Cannot read '--nagtime=x', '--forfeit=3':" in said


def test_a_challenge_names_every_problem_in_one_refusal(players: Door) -> None:
    """pbmserv's "Invalid challenge" listed every problem in one mail: an
    unknown player, a bad option, a timing out of range and a forfeit time
    not after the nag time, all at once; nothing is started."""
    line = "vasco challenge ann nobody -size=x --nagtime=9 --forfeittime=400"
    [reply] = answers(players, ANN, line)
    assert str(reply["Subject"]).startswith("Vasco error")
    said = text(reply)
    assert said.startswith("Invalid challenge: 3 problems.\n- ")
    assert "- There is no user 'nobody'." in said
    assert "- Cannot read '--forfeittime=400'" in said
    assert any("size" in problem for problem in said.split("\n- ")[1:])  # the option's own
    # one problem alone is said as before, with no list
    [one] = answers(players, ANN, "vasco challenge ann nobody")
    assert text(one).startswith("There is no user 'nobody'.")
    [nothing] = answers(players, ANN, "vasco show 2")  # no board was started
    assert "There is no Vasco board 2" in text(nothing)


def test_accept_lifts_a_limit_and_says_so(players: Door) -> None:
    [limited] = answers(players, BOB, "vasco limit bob bobpass1 1")
    assert "at most 1 board at once" in " ".join(text(limited).split())
    [refused] = answers(players, ANN, "vasco challenge ann bob")
    said = " ".join(text(refused).split())
    assert "bob plays at most 1 Vasco board at once (their limit)" in said
    [accepted] = [m for m in answers(players, BOB, "vasco accept bob bobpass1")
                  if str(m["To"]) == BOB]  # fmt: skip
    assert "(your limit of 1 is lifted, as on pbmserv)" in " ".join(text(accepted).split())
    started = answers(players, ANN, "vasco challenge ann bob")
    assert any(str(m["Subject"]).startswith("New Vasco Board 2") for m in started)


def test_a_broadcast_carries_the_administrators_reply_to(
    players: Door, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_ADMINS", "ann")
    sent = answers(players, ANN, "broadcast ann annpass1", "The server moves on Sunday.")
    news = [m for m in sent if str(m["Subject"]) == "pbem news from ann"]
    assert {str(m["To"]) for m in news} == {ANN, BOB}
    assert all(str(m["Reply-To"]) == ANN for m in news)
    others = [m for m in players.world.mails if m not in news]
    assert others and all(m["Reply-To"] is None for m in others)


@pytest.mark.parametrize("command", ["vasco show 1 99", "vasco subscribe carol carolpw1 1 99"])
def test_one_bad_board_among_good_ones_is_named_in_the_subject_and_the_refusal(
    players: Door, command: str
) -> None:
    answers(players, "carol@example.org", "signup carol carolpw1")
    [reply] = answers(players, "carol@example.org", command)
    assert str(reply["Subject"]) == "Vasco Board 99 Error"
    said = " ".join(text(reply).split())
    assert "There is no Vasco board 99, so nothing was done (nor for any other board" in said


def test_a_known_reader_is_named_not_called_userid(players: Door) -> None:
    """Issue 49 item 16: the commands a mail suggests to a player carry
    their own userid; only an address with no account reads USERID."""
    [listing] = answers(players, BOB, "vasco games open")
    assert "'vasco open bob PASSWORD" in text(listing)
    [stranger] = answers(players, "x@example.net", "vasco games open")
    assert "'vasco open USERID PASSWORD" in text(stranger)
    answers(players, ANN, "vasco open ann annpass1")
    [offered] = answers(players, BOB, "vasco games open")
    assert "'vasco take NUMBER bob PASSWORD'" in " ".join(text(offered).split())
