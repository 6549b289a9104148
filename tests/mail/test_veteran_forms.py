"""The forms a pbmserv veteran types, through the real mail door (mails with
a Message-ID into the SMTP listener, the answers as the relay got them):
pbmserv's abbreviations and aliases, a lone `**`, moves written in several
words, a reply to a board mail, and every example a board mail shows,
played as written."""

from __future__ import annotations

import random
import re

import pytest

from pbem.games import get_game
from tests.mail.conftest import Door
from tests.mail.test_story_by_mail import ANN, BOB, exchange, players

CAROL = "carol@example.org"


@pytest.mark.parametrize("word", ["chal", "chall", "challe", "challeng", "CHALLENGE"])
def test_challenge_is_abbreviated_down_to_four_letters(door: Door, word: str) -> None:
    exchange(door, ANN, "signup ann annpass1")
    exchange(door, BOB, "signup bob bobpass1")
    mails = exchange(door, ANN, f"vasco {word} ann bob -size=3")
    assert {m.subject for m in mails} == {"New Vasco Board 1 ann"}


def test_cha_is_too_short_to_be_challenge(door: Door) -> None:
    [refused] = exchange(door, ANN, "vasco cha ann bob")
    assert refused.subject == "Vasco error"
    assert "'cha' is no Vasco command" in refused.text


@pytest.mark.parametrize("word", ["move", "board", "mvoe", "Board"])
def test_board_and_mvoe_are_move(door: Door, word: str) -> None:
    players(door)
    mails = exchange(door, ANN, f"vasco {word} 1 ann annpass1 a0,0#1")
    assert {m.subject for m in mails} == {"Vasco Board 1 bob"}


@pytest.mark.parametrize("word", ["queue", "qmove", "qboard", "moveq", "boardq"])
def test_queue_has_pbmserv_aliases(door: Door, word: str) -> None:
    players(door)
    [queued] = exchange(door, BOB, f"vasco {word} 1 bob bobpass1 b1,0")
    assert queued.subject == "Vasco Board 1 queued"
    assert "b1,0 will be played for bob at their next turn" in queued.text


@pytest.mark.parametrize("word", ["prev", "previ", "previe", "preview"])
def test_preview_is_abbreviated_down_to_four_letters(door: Door, word: str) -> None:
    players(door)
    [shown] = exchange(door, CAROL, f"vasco {word} 1 a0,0")
    assert shown.subject == "Vasco Board 1 preview"


@pytest.mark.parametrize(("add", "remove"), [("sub", "unsub"), ("subscr", "unsubscri")])
def test_sub_and_unsub_are_subscribe_and_unsubscribe(door: Door, add: str, remove: str) -> None:
    players(door)
    exchange(door, CAROL, "signup carol carolpw1")
    [done] = exchange(door, CAROL, f"vasco {add} carol carolpw1 1")
    assert done.to == "carol@example.org" and "1" in done.text
    copies = exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    assert CAROL in {m.to for m in copies}
    exchange(door, CAROL, f"vasco {remove} carol carolpw1 1")
    copies = exchange(door, BOB, "vasco move 1 bob bobpass1 b1,0")
    assert CAROL not in {m.to for m in copies}


def test_a_lone_double_star_in_a_subject_is_ignored(door: Door) -> None:
    players(door)
    mails = exchange(door, ANN, "vasco move 1 ann annpass1 a0,0#1 **", "Your turn.")
    assert {m.subject for m in mails} == {"Vasco Board 1 bob **"}


def test_a_trugo_move_may_be_written_in_words(door: Door) -> None:
    players(door, "trugo")
    mails = exchange(door, ANN, "trugo move 1 ann annpass1 place a1#1")
    assert {m.subject for m in mails} == {"Trugo Board 1 bob"}
    [queued] = exchange(door, ANN, "trugo queue 1 ann annpass1 place a2 if place a1")
    assert queued.subject == "Trugo Board 1 queued"


def test_a_reply_to_a_board_mail_is_answered_with_the_command_filled_in(door: Door) -> None:
    players(door, "vasco -size=12")
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    [answer] = exchange(door, BOB, "Re: Vasco Board 1 bob", "Here is my move: b1,0")
    assert answer.subject == "Vasco Board 1 Error"
    assert answer.text.startswith(
        "To move on board 1, send a mail whose Subject is\n"
        "  vasco move 1 bob PASSWORD MOVE#2\n"
        "with your password for PASSWORD and your move for MOVE, for example:\n"
        "  vasco move 1 bob PASSWORD "
    )
    example = re.search(r"for example:\n  (vasco move 1 bob PASSWORD (\S+))\n", answer.text)
    assert example is not None
    played = exchange(door, BOB, example.group(1).replace("PASSWORD", "bobpass1"))
    assert {m.subject for m in played} == {"Vasco Board 1 ann"}


EXAMPLE = re.compile(r"^For example: (.*)\.$", re.MULTILINE)


def examples_in(text: str) -> list[str]:
    """Every move a board's text gives as an example, as written: the
    first word of each ('d3 (the same as d3,-1)', 'x1,0 removes one') and
    the form in brackets."""
    found = EXAMPLE.search(text)
    assert found is not None, text
    moves = []
    for part in found.group(1).split("; "):
        moves.append(part.split()[0])
        same = re.search(r"the same as (\S+?)\)", part)
        if same:
            moves.append(same.group(1))
    return moves


SENDERS = {0: (ANN, "ann annpass1"), 1: (BOB, "bob bobpass1")}


@pytest.mark.parametrize(("game", "options", "plies"), [
    ("vasco", "-size=12", 0), ("vasco", "-size=12", 5),
    ("trugo", "", 0), ("trugo", "", 9), ("trugo", "-size=12 -pieces=6", 16),
])  # fmt: skip
def test_every_example_a_board_mail_shows_plays_as_written(
    door: Door, game: str, options: str, plies: int
) -> None:
    """Each example move the board mail offers, mailed as it is written,
    is played: each on a board of its own, brought by mail to the position
    the mail showed."""
    players(door, f"{game} {options}")
    rules = get_game(game)
    state = rules.new_state(rules.parse_options(options.split()))
    chooser = random.Random(plies)
    record: list[tuple[int, str]] = []  # (the seat to move, the move)
    for _ in range(plies):
        going_on = [m for m in state.legal_moves() if state.play(m).result is None]
        move = chooser.choice(going_on)
        assert state.to_move is not None
        record.append((state.to_move, state.move_text(move)))
        state = state.play(move)
    assert state.to_move is not None
    address, who = SENDERS[state.to_move]
    replay(door, game, 1, record)
    [shown] = exchange(door, address, f"{game} show 1")
    moves = examples_in(shown.text)
    assert moves
    for board, move in enumerate(moves, start=1):
        if board > 1:
            exchange(door, ANN, f"{game} challenge ann bob {options}")
            replay(door, game, board, record)
        mails = exchange(door, address, f"{game} move {board} {who} {move}#{plies + 1}")
        assert mails and all("Error" not in m.subject for m in mails), (move, mails[0].text[:300])


def replay(door: Door, game: str, board: int, record: list[tuple[int, str]]) -> None:
    """Play the record on the board by mail, each move by its player."""
    for number, (seat, move) in enumerate(record, start=1):
        address, who = SENDERS[seat]
        mails = exchange(door, address, f"{game} move {board} {who} {move}#{number}")
        assert all("Error" not in m.subject for m in mails), mails


def test_the_vacu_komi_and_colour_examples_play_as_written(door: Door) -> None:
    players(door, "vacu -size=5")
    [shown] = exchange(door, ANN, "vacu show 1")
    named = re.search(r"names the komi for White \(like (\S+)\)\.", shown.text)
    assert named is not None
    exchange(door, ANN, f"vacu move 1 ann annpass1 {named.group(1)}#1")
    [shown] = exchange(door, BOB, "vacu show 1")
    chosen = re.search(r"chooses a colour \((\S+) or (\S+)\)\.", shown.text)
    assert chosen is not None and chosen.groups() == ("black", "white")
    mails = exchange(door, BOB, f"vacu move 1 bob bobpass1 {chosen.group(2)}#2")
    assert mails and all("Error" not in m.subject for m in mails)
