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
from pbem.server.language.help_subjects import HELP_SUBJECTS
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
    assert queued.text.startswith("You have the following move queued:\n  b1,0\n")


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
    examples_play_as_written(door, game, options, plies)


def examples_play_as_written(door: Door, game: str, options: str, plies: int) -> None:
    """After `plies` random moves (each mailed), every example move the
    board mail offers, mailed as it is written, is played: each on a board
    of its own, brought by mail to the position the mail showed."""
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


def test_show_takes_any_players_every_board_awaiting_them_and_several_boards(
    door: Door,
) -> None:
    players(door)
    exchange(door, CAROL, "signup carol carolpw1")
    exchange(door, CAROL, "vasco challenge bob carol -size=3")
    exchange(door, CAROL, "vasco challenge carol ann -size=3")
    [mine] = exchange(door, CAROL, "vasco show ann bob")
    assert mine.subject == "Vasco show ann bob active"
    assert [line for line in mine.text.splitlines() if line.startswith("== ")] == [
        "== Vasco Board 1 ann ==",
        "== Vasco Board 2 bob ==",
        "== Vasco Board 3 carol ==",
    ]
    [waiting] = exchange(door, CAROL, "vasco show ann bob next")
    assert [line for line in waiting.text.splitlines() if line.startswith("== ")] == [
        "== Vasco Board 1 ann ==",
        "== Vasco Board 2 bob ==",
    ]
    shown = exchange(door, CAROL, "vasco show board 1 3")
    assert [m.subject for m in shown] == ["Vasco Board 1 ann", "Vasco Board 3 carol"]
    [drawn] = exchange(door, CAROL, "vasco showas bob bobpass1 2")
    assert drawn.subject == "Vasco Board 2 bob"
    [waiting] = exchange(door, CAROL, "vasco showas bob bobpass1 next")
    assert "== Vasco Board 2 bob ==" in waiting.text
    [refused] = exchange(door, CAROL, "vasco showas bob wrongpass 2")
    assert refused.subject == "Vasco Board 2 Error" and "do not match" in refused.text


def test_games_history_list_and_all_show_by_mail(door: Door) -> None:
    players(door)
    exchange(door, BOB, "vasco resign 1 bob bobpass1")  # declined: not rated
    exchange(door, ANN, "vasco challenge ann bob -size=3")
    exchange(door, ANN, "vasco move 2 ann annpass1 a0,0")
    exchange(door, BOB, "vasco move 2 bob bobpass1 a-1,-1")  # bob wins by the rules
    exchange(door, BOB, "vasco challenge bob ann -size=3")
    [listing] = exchange(door, CAROL, "vasco games")
    assert [line.split()[0] for line in listing.text.splitlines() if "against" in line] == [
        "1",
        "2",
        "3",
    ]
    [history] = exchange(door, CAROL, "vasco history")
    assert history.subject == "Vasco history"
    [line] = [line for line in history.text.splitlines() if "board" in line and "beat" in line]
    assert line.endswith(": bob beat ann (bob 1600 -> 1824)")
    [players_of_vasco] = exchange(door, CAROL, "list vasco")
    assert players_of_vasco.subject == "pbem list vasco"
    assert "  ann  rating 1424, 1 game" in players_of_vasco.text
    assert "  bob  rating 1824, 1 game" in players_of_vasco.text
    [awaiting] = exchange(door, CAROL, "all show bob next")
    assert "== Vasco Board 3 bob ==" in awaiting.text
    [none] = exchange(door, CAROL, "all show ann next")
    assert none.text.startswith("ann has no boards awaiting their move.\n")


@pytest.mark.parametrize("subject", ["commands", "tutorial", "ratings", "timing", "mail"])
def test_help_subjects_by_mail(door: Door, subject: str) -> None:
    [answer] = exchange(door, CAROL, f"help {subject}")
    assert answer.subject == ("pbem help" if subject == "commands" else f"pbem help {subject}")
    assert len(answer.text) > 300


def test_every_command_the_help_subjects_show_runs_as_written(door: Door) -> None:
    """The tutorial and the other subjects quote commands; each, mailed by
    the player they name in the order they come, is taken."""
    texts = [HELP_SUBJECTS[name] for name in ("tutorial", "ratings", "timing", "mail")]
    quoted = [
        " ".join(line.split())
        for text in texts
        for line in re.findall(r"^     (\S.*)$|'([^']+)'", text, re.M)
        for line in line
        if line
    ]
    exchange(door, BOB, "signup bob bobpass1")
    assert quoted[0] == "signup alice secret1" and len(quoted) > 15
    for command in quoted:
        mails = exchange(door, "alice@example.org", command)
        assert mails, command
        assert all("error" not in m.subject.lower() for m in mails), (command, mails[0].text)


def test_reject_stands_until_accept_and_limit_reports_and_sets_it(door: Door) -> None:
    players(door)  # board 1: an open challenge to bob
    [answer] = exchange(door, BOB, "vasco reject bob bobpass1", "Busy this month.")[-1:]
    assert answer.subject == "Vasco challenges rejected by bob"
    assert answer.text.startswith(
        "You declined the Vasco challenge on board 1. You take no new Vasco challenges "
        "until you send 'vasco accept bob PASSWORD'."
    )
    [refused] = exchange(door, ANN, "vasco challenge ann bob")
    assert refused.subject == "Vasco error"
    assert "bob takes no new Vasco challenges now" in refused.text
    exchange(door, CAROL, "signup carol carolpw1")
    [standings] = exchange(door, CAROL, "vasco standings")
    assert re.search(r"bob .* 0/reject ", standings.text), standings.text
    together = standings.text.split("All together (E established, P provisional, I inactive):\n")
    assert re.match(r"  1\. bob +1600 P\n", together[1]), standings.text
    [setting] = exchange(door, BOB, "vasco limit bob bobpass1")
    assert "and you refuse new challenges" in setting.text
    [taken] = exchange(door, BOB, "vasco accept bob bobpass1")
    assert taken.text.startswith("You have no open Vasco challenge. You take new challenges")
    assert {m.subject for m in exchange(door, ANN, "vasco chal ann bob")} == {
        "New Vasco Board 2 ann"
    }
    exchange(door, BOB, "vasco limit bob bobpass1 reject")
    assert "takes no new" in exchange(door, ANN, "vasco challenge ann bob")[0].text
    exchange(door, BOB, "vasco limit bob bobpass1 accept")
    [limited] = exchange(door, BOB, "vasco limit bob bobpass1 1")
    assert limited.text.startswith("Vasco: at most 1 board at once, and you take new challenges")
    [unlimited] = exchange(door, BOB, "vasco limit bob bobpass1 inf")
    assert unlimited.text.startswith("Vasco: no limit, and you take new challenges")
    [seeking] = exchange(door, BOB, "vasco seek bob bobpass1 3")
    assert "bob now seeks 3 Vasco games" in seeking.text
    [asked] = exchange(door, BOB, "vasco seek bob bobpass1")
    assert "bob now seeks 3 Vasco games" in asked.text


def test_subscribe_with_the_board_first_as_pbmserv_wrote_it(door: Door) -> None:
    players(door)
    exchange(door, CAROL, "signup carol carolpw1")
    exchange(door, CAROL, "vasco sub 1 carol carolpw1")
    copies = exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    assert CAROL in {m.to for m in copies}


def test_message_to_several_players(door: Door) -> None:
    players(door)
    exchange(door, CAROL, "signup carol carolpw1")
    mails = exchange(door, ANN, "message ann annpass1 bob carol", "Tea at five?")
    told = {m.to: m for m in mails if m.subject == "pbem message from ann"}
    assert set(told) == {BOB, CAROL}
    assert told[BOB].text.startswith("ann writes (to you and carol):\n> Tea at five?")
    sent = next(m for m in mails if m.to == ANN)
    assert sent.subject == "pbem message to bob, carol"


def test_signup_and_change_address_with_several_addresses(door: Door) -> None:
    [welcome] = exchange(door, ANN, "signup ann annpass1 ann@example.org ann@work.example")
    assert "Commands may come from ann@work.example too." in welcome.text
    [games] = exchange(door, "ann@work.example", "vasco games next")  # known there
    assert games.text.startswith("Vasco next boards of ann:")
    [changed] = exchange(
        door, ANN, "change address ann annpass1 ann@home.example ann@phone.example"
    )
    assert "now goes to ann@home.example" in changed.text
    assert "Commands may come from ann@phone.example too." in changed.text
    [again] = exchange(door, "ann@phone.example", "vasco games next")
    assert again.to == "ann@phone.example" and again.text.startswith("Vasco next boards of ann:")


def test_list_and_help_take_several_games_and_subjects(door: Door) -> None:
    players(door)
    [both] = exchange(door, CAROL, "list vasco trugo")
    assert both.subject == "pbem list vasco trugo"
    assert "players of Vasco:" in both.text and "players of Trugo:" in both.text
    helped = exchange(door, CAROL, "help vasco timing")
    assert [m.subject for m in helped] == ["Vasco help", "pbem help timing"]


@pytest.mark.parametrize(
    "subject",
    ["Re: New Vasco Board 1 ann", "Re: Vasco Board 1 game over", "RE: Vasco Board 1 after move 0"],
)
def test_replies_to_other_board_mails_are_answered_with_the_command(
    door: Door, subject: str
) -> None:
    players(door, "vasco -size=12")
    [answer] = exchange(door, ANN, subject)
    assert answer.subject == "Vasco Board 1 Error"
    assert answer.text.startswith("To move on board 1, send a mail whose Subject is\n")


def test_add_takes_several_addresses(door: Door) -> None:
    exchange(door, ANN, "signup ann annpass1")
    [added] = exchange(door, ANN, "add ann annpass1 ann@work.example ann@phone.example")
    assert set(added.to.split(", ")) == {ANN, "ann@work.example", "ann@phone.example"}
    assert "ann may now send commands from ann@work.example, ann@phone.example too" in added.text
    [again] = exchange(door, "ann@phone.example", "vasco games next")
    assert again.text.startswith("Vasco next boards of ann:")
    [again_added] = exchange(door, ANN, "add ann annpass1 ann@phone.example")
    assert again_added.subject == "pbem error: add"
    assert "ann has ann@phone.example already: name only addresses to add." in again_added.text


def test_subscribe_active_follows_every_board_being_played(door: Door) -> None:
    players(door)  # board 1
    exchange(door, ANN, "vasco challenge ann bob -size=3")  # board 2
    exchange(door, BOB, "vasco resign 2 bob bobpass1")  # declined: over
    exchange(door, ANN, "vasco challenge bob ann -size=3")  # board 3
    exchange(door, CAROL, "signup carol carolpw1")
    [done] = exchange(door, CAROL, "vasco subscribe carol carolpw1 active")
    assert "carol gets copies of the mails of the 2 Vasco boards being played." in done.text
    copies = exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    assert CAROL in {m.to for m in copies}
    exchange(door, CAROL, "vasco unsub carol carolpw1 active")
    copies = exchange(door, BOB, "vasco move 3 bob bobpass1 a0,0")
    assert CAROL not in {m.to for m in copies}
