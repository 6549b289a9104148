"""The command layer on real databases: each command's replies and errors,
and that a failed command changes nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select

from pbem.games import get_game
from pbem.server import Server
from pbem.server.language.messages import Outcome, Outgoing
from pbem.server.runners.board_commands import CHAT_KEPT
from pbem.store import Board, Ending, OutboxMessage, RatingEvent, User, session_factory

PERSON = User.bot_level.is_(None)  # the database's own bots are no one's signup


class Clock:
    """Time that tests move by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 9, 0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


STOP_LINES = ("You get this mail as", "stops these copies.", "You get this mail because")


class CheckedServer(Server):
    """A server whose every mail is checked to end by saying how to stop it."""

    def handle(self, *args: object, **kwargs: object) -> Outcome:
        outcome = super().handle(*args, **kwargs)  # type: ignore[arg-type]
        footed(list(outcome.mails))
        return outcome

    def tick(self) -> list[Outgoing]:
        return footed(super().tick())


def footed(messages: list[Outgoing]) -> list[Outgoing]:
    for message in messages:
        last = message.body.rstrip("\n").rsplit("\n", 1)[-1]
        assert any(stop in last for stop in STOP_LINES), message
    return messages


@pytest.fixture
def server(engine: Engine) -> Iterator[Server]:
    yield CheckedServer(session_factory(engine), Clock())


def signup(server: Server, *names: str) -> None:
    for name in names:
        [reply] = server.handle(f"{name.lower()}@example.org", f"signup {name} pw-{name}").mails
        assert reply.subject == f"pbem signup {name}"


def outbox_count(server: Server) -> int:
    with server.sessions() as session:
        return session.scalar(select(func.count()).select_from(OutboxMessage)) or 0


def test_signup_makes_an_account_and_refuses_a_second_of_the_same_name(server: Server) -> None:
    signup(server, "Alice")
    [error] = server.handle("other@example.org", "signup alice another1").mails
    assert error.to == ("other@example.org",)
    assert error.subject == "pbem error: signup"
    assert "is taken (userids ignore case)" in error.body
    assert "> Subject: signup alice another1" in error.body
    with server.sessions() as session:
        user = session.scalar(select(User).where(User.userid_key == "alice"))
        assert user is not None and user.userid == "Alice"
        assert user.password_hash.startswith("$argon2")
        assert "pw-Alice" not in user.password_hash


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("signup al:ice secret1", "cannot be a userid"),
        ("signup alice 'quoted'", "A password needs"),
        ("signup alice abc", "A password needs"),
        ("signup alice secret1 not-an-address", "is not a mail address"),
        ("signup", "Write this command as: signup USERID PASSWORD [ADDRESS ...]"),
        ("", "The command line is empty"),
        ("dance with me", "'dance' is no command or game"),
        ("vasco", "What should Vasco do?"),
        ("vasco fly 1", "'fly' is no Vasco command"),
        ("x" * 2000, "The command line is 2000 characters long"),
        ("SIGNUP  alice   \x00\x01", "A password needs"),
    ],
)
def test_malformed_commands_get_a_clear_error_and_change_nothing(
    server: Server, line: str, words: str
) -> None:
    [error] = server.handle("alice@example.org", line).mails
    assert words in error.body
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(User).where(PERSON)) == 0
    assert outbox_count(server) == 1  # only the error mail


def test_help_lists_the_commands_and_each_games_rules(server: Server) -> None:
    [general] = server.handle("who@example.org", "help").mails
    assert "GAME move BOARD USERID PASSWORD MOVE[#N]" in general.body
    [rules] = server.handle("who@example.org", "TRUGO HELP").mails
    assert rules.subject == "Trugo help" and rules.body.startswith("Trugo by mail\n")
    assert "\nTrugo\n=====\n" in rules.body  # the rules follow, as plain text
    [same] = server.handle("who@example.org", "help convacu").mails
    assert same.body.startswith("Convacu by mail\n") and "\nVacu and Convacu\n" in same.body


def challenge(server: Server, line: str = "vasco challenge alice bob -size=12") -> int:
    signup(server, "alice", "bob")
    messages = server.handle("alice@example.org", line)
    assert {m.to for m in messages.mails} == {("alice@example.org",), ("bob@example.org",)}
    assert all(m.subject == "New Vasco Board 1 alice" for m in messages.mails)
    return 1


def test_challenge_starts_a_board_and_mails_both_players(server: Server) -> None:
    challenge(server)
    with server.sessions() as session:
        board = session.get_one(Board, 1)
        assert board.options == {"size": 12, "strict": False}
        assert (board.nag_days, board.forfeit_days, board.total_days) == (7, 21, None)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("vasco challenge alice", "Vasco needs 2 players"),
        ("vasco challenge alice carol", "There is no user 'carol'"),
        ("vasco challenge bob BOB", "only on a board they start themselves"),
        ("vasco challenge alice bob -size=0", "-size=0 is too small"),
        ("vasco challenge alice bob -colour", "Unknown option -colour"),
        ("vasco challenge alice bob --nagtime=9 --forfeittime=5", "must be longer"),
        ("vasco challenge alice bob --nagtime=x", "Cannot read '--nagtime=x'"),
    ],
)
def test_challenge_errors(server: Server, line: str, words: str) -> None:
    signup(server, "alice", "bob")
    [error] = server.handle("alice@example.org", line).mails
    assert words in error.body
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Board)) == 0


def test_a_move_goes_to_both_players_with_the_comment(server: Server) -> None:
    challenge(server)
    messages = server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0#1", "Hi!")
    assert len(messages.mails) == 2
    for message in messages.mails:
        assert message.subject == "Vasco Board 1 bob **"
        assert "Comment from alice:\n> Hi!" in message.body
        assert "  1. alice      a0,0*" in message.body
        assert "Move 2: Blue (X) to move." in message.body
        assert "mail " in message.body.splitlines()[-1]  # how to get fewer mails


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("vasco move 1 alice wrong a0,0", "do not match"),
        ("vasco move 1 bob pw-bob a0,0", "It is not your move on board 1: alice is to move"),
        ("vasco move 1 alice pw-alice q9", "Move q9 cannot be played on board 1"),
        ("vasco move 1 alice pw-alice a5,5", "the first tile must be placed at 0,0"),
        ("vasco move 1 alice pw-alice a0,0#2", "this mail was for move 2"),
        ("vasco move 7 alice pw-alice a0,0", "There is no Vasco board 7"),
        ("trugo move 1 alice pw-alice a0,0", "There is no Trugo board 1"),
        ("vasco move x alice pw-alice a0,0", "'x' is not a board number"),
        ("vasco move 1 alice pw-alice", "To move on board 1, send"),
        ("vasco move 1 alice pw-alice a0,0#x", "After '#' comes the move's number"),
    ],
)
def test_move_errors_come_with_the_board_and_change_nothing(
    server: Server, line: str, words: str
) -> None:
    challenge(server)
    [error] = server.handle("alice@example.org", line).mails
    assert words in error.body, error.body
    if words.startswith(("It is not", "Move ", "the first", "this mail")):
        assert "The board (Vasco Board 1 alice):" in error.body
    with server.sessions() as session:
        assert session.get_one(Board, 1).version == 0


def test_a_duplicated_mail_with_its_number_plays_once(server: Server) -> None:
    challenge(server)
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0#1")
    [error] = server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0#1").mails
    assert "stale or came twice" in error.body
    with server.sessions() as session:
        assert session.get_one(Board, 1).version == 1


def test_a_non_player_cannot_move(server: Server) -> None:
    challenge(server)
    signup(server, "carol")
    [error] = server.handle("carol@example.org", "vasco move 1 carol pw-carol a0,0").mails
    assert "carol does not play on board 1" in error.body


def test_show_draws_the_board_now_and_as_it_was(server: Server) -> None:
    challenge(server)
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    server.handle("bob@example.org", "vasco move 1 bob pw-bob b1,0")
    [now] = server.handle("stranger@example.org", "vasco show 1").mails
    assert now.to == ("stranger@example.org",) and "Move 3: Red (O) to move." in now.body
    [before] = server.handle("stranger@example.org", "vasco show 1#1").mails
    assert "Move 2: Blue (X) to move." in before.body
    [error] = server.handle("stranger@example.org", "vasco show 1#5").mails
    assert "Board 1 has moves 0 to 2" in error.body


def test_games_lists_boards_by_players_and_selector(server: Server) -> None:
    challenge(server)
    signup(server, "carol", "dave")
    server.handle("carol@example.org", "vasco challenge carol dave")
    server.handle("carol@example.org", "vasco challenge dave carol")
    server.handle("dave@example.org", "vasco resign 3 dave pw-dave")
    [every] = server.handle("x@example.org", "vasco games").mails
    assert every.subject == "Vasco games"
    assert every.body.startswith(
        "Vasco boards:\n"
        "      1  alice against bob  Move 1: alice to move.\n"
        "      2  carol against dave  Move 1: carol to move.\n"
        "      3  dave against carol  "
        "Declined: dave declined the challenge; not rated (no moves).\n\n"
    )
    [some] = server.handle("x@example.org", "vasco games bob dave active").mails
    assert some.subject == "Vasco games bob dave active"
    assert some.body.startswith("Vasco active boards of bob dave:\n      1  alice against bob")
    assert "      2  carol against dave" in some.body and " 3 " not in some.body
    [ended] = server.handle("x@example.org", "vasco games carol inactive").mails
    assert [line.split()[0] for line in ended.body.splitlines() if "against" in line] == ["3"]
    [waiting] = server.handle("carol@example.org", "vasco games next").mails
    assert waiting.body.startswith("Vasco next boards of carol:\n      2  carol against dave")
    assert len([line for line in waiting.body.splitlines() if "against" in line]) == 1
    [none] = server.handle("x@example.org", "trugo games bob").mails
    assert "none yet" in none.body
    [error] = server.handle("x@example.org", "vasco games next").mails
    assert "this address has no account" in error.body


def test_mail_preference_none_stops_board_mail(server: Server) -> None:
    challenge(server)
    [confirm] = server.handle("bob@example.org", "mail bob pw-bob NONE").mails
    assert "no board mail" in confirm.body
    messages = server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    assert [m.to for m in messages.mails] == [("alice@example.org",)]
    [error] = server.handle("bob@example.org", "mail bob pw-bob weekly").mails
    assert "write every, digest or none" in error.body


@pytest.mark.parametrize("name", ["vasco", "trugo", "vacu", "convacu"])
def test_a_whole_game_from_challenge_to_result(server: Server, name: str) -> None:
    signup(server, "alice", "bob")
    options = {"vasco": "-size=12", "trugo": "-size=8", "vacu": "-size=5", "convacu": "-size=5"}
    server.handle("alice@example.org", f"{name} challenge alice bob {options[name]}")
    rng = random.Random(7)
    users = ["alice", "bob"]
    state = get_game(name).start([options[name]])
    for number in range(1, 400):
        if state.result is not None:
            break
        move = state.move_text(rng.choice(state.legal_moves()))
        player = users[state.to_move]
        messages = server.handle(
            f"{player}@example.org", f"{name} move 1 {player} pw-{player} {move}#{number}"
        )
        assert not messages.mails[0].subject.startswith("pbem error"), messages.mails[0].body
        state = state.play_text(move)
    assert state.result is not None
    assert all("Game over" in m.body for m in messages.mails)
    assert all(m.subject.endswith("game over") for m in messages.mails)
    with server.sessions() as session:
        board = session.get_one(Board, 1)
        assert board.status == "finished" and board.winner == state.result.winner
        assert board.ending is Ending.RULES
        assert board.snapshot == state.to_json(legal_moves=False)


def test_add_and_change_address_and_password(server: Server) -> None:
    signup(server, "alice")
    [added] = server.handle("alice@example.org", "add alice pw-alice alice@work.example").mails
    assert added.to == ("alice@example.org", "alice@work.example")
    [listing] = server.handle(
        "alice@work.example", "vasco games next"
    ).mails  # known by the new address
    assert "Vasco next boards of alice:" in listing.body
    [moved] = server.handle(
        "x@example.org", "change address alice pw-alice alice@home.example"
    ).mails
    assert moved.to == ("alice@example.org", "alice@home.example")
    assert "now goes to alice@home.example" in moved.body
    [changed] = server.handle("x@example.org", "CHANGE PASSWORD Alice pw-alice new-secret").mails
    assert changed.to == ("alice@home.example",)
    [error] = server.handle("x@example.org", "mail alice pw-alice none").mails
    assert "do not match" in error.body
    [ok] = server.handle("x@example.org", "mail alice new-secret none").mails
    assert "no board mail" in ok.body


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("add alice pw-alice bob@example.org", "already belongs to an account"),
        ("change colour alice pw-alice red", "Write this command as: change password"),
        ("change password alice pw-alice", "Write this command as: change password"),
        ("change password alice pw-alice a b", "Write this command as"),
        ("change address alice pw-alice bob@example.org", "belongs to another account"),
        ("change password alice pw-alice no", "A password needs"),
        ("list everyone", "No game called 'everyone'"),
    ],
)
def test_account_errors(server: Server, line: str, words: str) -> None:
    signup(server, "alice", "bob")
    [error] = server.handle("alice@example.org", line).mails
    assert words in error.body


def test_list_shows_the_players(server: Server) -> None:
    signup(server, "bob", "Alice")
    [listing] = server.handle("who@example.org", "list").mails
    assert listing.body.startswith(
        "5 players:\n  Alice\n  bob\n  easybot (bot, easy level)\n  hardbot (bot, hard level)\n"
        "  mediumbot (bot, medium level)\n\n"
    )


def test_chat_reaches_the_other_players(server: Server) -> None:
    challenge(server)
    messages = server.handle("alice@example.org", "vasco chat 1 alice pw-alice", "Ready?")
    assert [m.to for m in messages.mails] == [("bob@example.org",), ("alice@example.org",)]
    assert messages.mails[0].subject == "Vasco Board 1 chat from alice"
    assert "> Ready?" in messages.mails[0].body
    [error] = server.handle("alice@example.org", "vasco chat 1 alice pw-alice").mails
    assert "write it in the body" in error.body


def test_chat_is_kept_for_the_board_page_in_order_with_the_moves(server: Server) -> None:
    """Chat by mail is kept with the move it followed, and the board's views
    learn of it (the page shows it among the moves); a long one is cut for
    the page, while the mail carries it whole."""
    challenge(server)
    before = server.views.get(1)
    assert before is not None and before.chat == ()
    server.handle("bob@example.org", "vasco chat 1 bob pw-bob", "Hello!")
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    long = "x" * (CHAT_KEPT + 50)
    [to_bob, _] = server.handle("alice@example.org", "vasco chat 1 alice pw-alice", long).mails
    assert long in to_bob.body
    view = server.views.get(1)
    assert view is not None and view.revision > before.revision
    said = [(line.after, line.player, line.text) for line in view.chat]
    assert said == [(0, "bob", "Hello!"), (1, "alice", "x" * (CHAT_KEPT - 1) + "…")]


def test_pass_is_the_move_pass_where_the_game_has_one(server: Server) -> None:
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vacu challenge alice bob -komi=6 -size=5")
    server.handle("alice@example.org", "vacu move 1 alice pw-alice button#1")
    messages = server.handle("bob@example.org", "vacu pass 1 bob pw-bob#2")
    assert all("Last move: pass by White (O)." in m.body for m in messages.mails)
    [error] = server.handle("bob@example.org", "vasco pass 1 bob pw-bob").mails
    assert "Vasco has no passing" in error.body


def play(server: Server, who: str, move: str) -> tuple[Outgoing, ...]:
    return server.handle(f"{who}@example.org", f"vasco move 1 {who} pw-{who} {move}").mails


def board_row(server: Server) -> Board:
    with server.sessions() as session:
        board = session.get_one(Board, 1)
        board.moves  # noqa: B018 (load the record before the session closes)
        return board


def test_resigning_before_the_first_move_declines(server: Server) -> None:
    challenge(server)
    messages = server.handle("bob@example.org", "vasco resign 1 bob pw-bob")
    assert all(
        "Game over: bob declined the challenge; not rated." in m.body for m in messages.mails
    )
    assert all(m.subject == "Vasco Board 1 game over" for m in messages.mails)
    board = board_row(server)
    assert (board.status, board.winner, board.ending) == ("finished", None, Ending.DECLINED)
    [error] = play(server, "alice", "a0,0")
    assert "Board 1 is over" in error.body
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(RatingEvent)) == 0


def test_reject_without_a_board_declines_every_open_challenge(server: Server) -> None:
    challenge(server)
    server.handle("x@example.org", "vasco challenge alice bob")
    server.handle("x@example.org", "vasco challenge bob alice")
    server.handle("x@example.org", "trugo challenge alice bob")
    play(server, "alice", "a0,0")
    server.handle("bob@example.org", "vasco move 3 bob pw-bob a0,0")  # bob moved on 3
    messages = server.handle("bob@example.org", "vasco reject bob pw-bob")
    assert {m.subject for m in messages.mails} == {
        "Vasco Board 1 game over",
        "Vasco Board 2 game over",
        "Vasco challenges rejected by bob",
    }
    with server.sessions() as session:
        status = {b.id: b.status for b in session.scalars(select(Board))}
    assert status == {1: "finished", 2: "finished", 3: "active", 4: "active"}
    [again] = server.handle("bob@example.org", "vasco reject bob pw-bob").mails
    assert again.body.startswith("You take no new Vasco challenges until you send")


def test_accept_without_a_board_makes_a_later_resignation_count(server: Server) -> None:
    challenge(server)
    messages = server.handle("bob@example.org", "vasco accept bob pw-bob")
    assert {(m.to, m.subject) for m in messages.mails} == {
        (("alice@example.org",), "Vasco Board 1 accepted by bob"),
        (("bob@example.org",), "Vasco challenges accepted by bob"),
    }
    [again] = server.handle("bob@example.org", "vasco accept bob pw-bob").mails
    assert again.body.startswith("You have no open Vasco challenge. You take new challenges")
    messages = server.handle("bob@example.org", "vasco resign 1 bob pw-bob")
    assert all("will resign" in m.subject for m in messages.mails)  # out of turn: queued
    play(server, "alice", "a0,0")
    board = board_row(server)
    assert (board.result, board.winner) == ("bob resigned; alice wins", 0)
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(RatingEvent)) == 2


def test_move_words_run_the_commands_pbmserv_allowed_in_a_move(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    messages = server.handle("bob@example.org", "vasco move 1 bob pw-bob propose")
    assert all(m.subject == "Vasco Board 1 draw proposed" for m in messages.mails)
    messages = server.handle("alice@example.org", "vasco move 1 alice pw-alice accept")
    assert board_row(server).result == "drawn by agreement"
    [error] = server.handle("alice@example.org", "vasco move 1 alice pw-alice swap").mails
    assert "Vasco has no swap step" in error.body


def test_swap_takes_black_at_vacus_colour_choice(server: Server) -> None:
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vacu challenge alice bob -size=9")
    [error] = server.handle("alice@example.org", "vacu swap 1 alice pw-alice").mails
    assert "only for the second player's first turn" in error.body
    server.handle("alice@example.org", "vacu move 1 alice pw-alice komi6")
    messages = server.handle("bob@example.org", "vacu move 1 bob pw-bob swap#2")
    assert any("Last move: black" in m.body for m in messages.mails), messages.mails[0].body
    board = board_row(server)
    assert [m.text for m in board.moves] == ["komi6", "black"]
    assert board.snapshot["to_move"] == 1  # bob took Black, and Black moves first
    [error] = server.handle("bob@example.org", "vacu swap 1 bob pw-bob").mails
    assert "board 1 is past it" in error.body


def test_resigning_on_your_turn_ends_the_game(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    play(server, "bob", "b1,0")
    server.handle("alice@example.org", "vasco resign 1 alice pw-alice")
    assert board_row(server).result == "alice resigned; bob wins"
    assert board_row(server).ending is Ending.RESIGNATION


def test_resigning_out_of_turn_waits_for_the_turn(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    [told] = server.handle("alice@example.org", "vasco resign 1 alice pw-alice").mails
    assert told.to == ("alice@example.org",)  # the resigner alone
    assert "takes effect when your turn comes" in told.body
    assert board_row(server).status == "active"
    messages = play(server, "bob", "b1,0")
    assert any("Game over: alice resigned; bob wins." in m.body for m in messages)
    assert board_row(server).winner == 1


def test_a_queued_answer_is_played_at_once_and_marked_auto(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    [ok] = server.handle("alice@example.org", "vasco queue 1 alice pw-alice a2,1 if b1,0").mails
    assert "if the reply is b1,0" in ok.body
    messages = play(server, "bob", "b1,0")
    assert any("Last move: a2,1 by Red (O)" in m.body for m in messages)
    board = board_row(server)
    assert [(m.text, m.auto) for m in board.moves] == [
        ("a0,0", False), ("b1,0", False), ("a2,1", True),
    ]  # fmt: skip


def test_a_queued_answer_to_another_move_is_dropped(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    server.handle("alice@example.org", "vasco queue 1 alice pw-alice a2,1 if b-1,0")
    play(server, "bob", "b1,0")
    assert board_row(server).version == 2
    play(server, "alice", "a2,1")  # her turn as usual; the queue is gone
    assert board_row(server).version == 3


def test_queue_errors(server: Server) -> None:
    challenge(server)
    [error] = server.handle("alice@example.org", "vasco queue 1 alice pw-alice a0,0 if b1,0").mails
    assert "It is your move on board 1, so there is no reply to answer" in error.body
    play(server, "alice", "a0,0")
    [error] = server.handle("alice@example.org", "vasco queue 1 alice pw-alice zz").mails
    assert "Cannot read the move zz" in error.body
    [error] = server.handle("alice@example.org", "vasco queue 1 alice pw-alice a2,1 if a0,0").mails
    assert "is no move the opponent can make" in error.body
    [error] = server.handle(
        "alice@example.org", "vasco queue 1 alice pw-alice a2,1 when b1,0"
    ).mails
    assert "Cannot read the move a2,1 when b1,0" in error.body
    [error] = server.handle("alice@example.org", "vasco queue 1 alice pw-alice a2,1 if").mails
    assert "Write this command as: vasco queue" in error.body


def test_a_draw_needs_every_player(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    messages = server.handle("alice@example.org", "vasco propose 1 alice pw-alice")
    assert all("alice proposes a draw" in m.body and "Waiting for: bob" in m.body
               for m in messages.mails)  # fmt: skip
    messages = server.handle("bob@example.org", "vasco accept 1 bob pw-bob")
    assert all("Game over: drawn by agreement." in m.body for m in messages.mails)
    board = board_row(server)
    assert (board.status, board.winner, board.result) == ("finished", None, "drawn by agreement")
    assert board.ending is Ending.AGREED_DRAW


def test_an_undo_takes_back_the_last_move_when_all_agree(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    play(server, "bob", "b1,0")
    server.handle("bob@example.org", "vasco undo 1 bob pw-bob")
    assert board_row(server).version == 2
    messages = server.handle("alice@example.org", "vasco accept 1 alice pw-alice")
    assert all("Move 2: Blue (X) to move." in m.body for m in messages.mails)
    board = board_row(server)
    assert board.version == 1 and [m.text for m in board.moves] == ["a0,0"]


def test_reject_and_moves_end_proposals(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    server.handle("bob@example.org", "vasco propose 1 bob pw-bob")
    messages = server.handle("alice@example.org", "vasco reject 1 alice pw-alice")
    assert all("alice rejects a draw" in m.body for m in messages.mails)
    [error] = server.handle("alice@example.org", "vasco accept 1 alice pw-alice").mails
    assert "Nothing is proposed on board 1" in error.body
    server.handle("alice@example.org", "vasco propose 1 alice pw-alice")
    play(server, "bob", "b1,0")  # a move ends the proposal
    [error] = server.handle("bob@example.org", "vasco accept 1 bob pw-bob").mails
    assert "Nothing is proposed" in error.body
    [error] = server.handle("x@example.org", "vasco undo 2 alice pw-alice").mails
    assert "There is no Vasco board 2" in error.body


def test_showas_and_preview_change_nothing(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    [seen] = server.handle("x@example.org", "vasco showas 1 bob").mails
    assert "Move 2: Blue (X) to move." in seen.body
    [preview] = server.handle("x@example.org", "vasco preview 1 b1,0 a2,1").mails
    assert preview.subject == "Vasco Board 1 preview"
    assert "Move 4: Blue (X) to move." in preview.body and "nothing was played" in preview.body
    [fresh] = server.handle("x@example.org", "trugo preview new 2 -size=5 a0,0 b1,0").mails
    assert "Move 3: White (O) to move." in fresh.body
    [error] = server.handle("x@example.org", "vasco preview 1 b1,0 zz").mails
    assert "Move 3 (zz) cannot be played" in error.body
    [error] = server.handle("x@example.org", "vasco preview new 3 a0,0").mails
    assert "Vasco is played by 2" in error.body
    [error] = server.handle("x@example.org", "vasco showas 1 carol").mails
    assert "There is no user 'carol'" in error.body
    assert board_row(server).version == 1


def test_a_forged_multiple_makes_one_mail_not_fifty(server: Server) -> None:
    """Backscatter: fifty bad lines from a forged From cost the victim one mail."""
    body = "\n".join(f"vasco move {n} nobody guess{n} a0,0" for n in range(50))
    messages = server.handle("victim@example.org", "multiple", body, "<forged@x>")
    assert [(m.to, m.subject) for m in messages.mails] == [
        (("victim@example.org",), "pbem error: multiple")
    ]
    assert "50 of the 50 commands" in messages.mails[0].body
    assert server.handle("victim@example.org", "multiple", body, "<forged@x>").mails == ()


def test_message_and_all_show(server: Server) -> None:
    challenge(server)
    messages = server.handle("alice@example.org", "message alice pw-alice bob", "Hello Bob")
    assert messages.mails[0].to == ("bob@example.org",) and "> Hello Bob" in messages.mails[0].body
    [error] = server.handle("alice@example.org", "message alice pw-alice bob").mails
    assert "write them in the body" in error.body
    [everything] = server.handle("x@example.org", "all show alice").mails
    assert "== Vasco Board 1 alice ==" in everything.body
    signup(server, "carol")
    [empty] = server.handle("x@example.org", "ALL SHOW carol").mails
    assert "carol has no active boards" in empty.body


def test_multiple_runs_each_line_as_its_own_command(server: Server) -> None:
    signup(server, "alice", "bob")
    body = (
        "vasco challenge alice bob\nvasco move 1 alice pw-alice a0,0\n\nvasco move 1 bob x b1,0\n"
    )
    messages = server.handle("alice@example.org", "multiple", body)
    subjects = [m.subject for m in messages.mails]
    assert subjects[:2] == ["New Vasco Board 1 alice", "New Vasco Board 1 alice"]
    assert subjects[2:4] == ["Vasco Board 1 bob", "Vasco Board 1 bob"]
    assert subjects[4:] == ["pbem error: multiple"]  # one answer for the refused lines
    assert "1 of the 3 commands" in messages.mails[4].body
    assert "Line 3: vasco move 1 bob x b1,0" in messages.mails[4].body
    assert board_row(server).version == 1
    [error] = server.handle("alice@example.org", "multiple", "").mails
    assert "'multiple' stands alone" in error.body


def test_submit_shows_the_move_and_confirm_plays_it(server: Server) -> None:
    challenge(server)
    [shown] = server.handle("alice@example.org", "vasco submit 1 alice pw-alice A0,0", "gl").mails
    assert shown.to == ("alice@example.org",) and "not played yet" in shown.body
    assert "vasco confirm 1 alice PASSWORD" in shown.body
    assert board_row(server).version == 0
    [other] = server.handle("alice@example.org", "vasco submit 1 alice pw-alice b0,0").mails
    assert "after b0,0" in other.body  # a new submission replaces the old one
    messages = server.handle("alice@example.org", "vasco confirm 1 alice pw-alice")
    assert all("Last move: b0,0 by Red (O)." in m.body for m in messages.mails)
    assert [m.text for m in board_row(server).moves] == ["b0,0"]
    [error] = server.handle("alice@example.org", "vasco confirm 1 alice pw-alice").mails
    assert "Nothing is submitted on board 1" in error.body


def test_a_submitted_move_goes_stale_when_the_board_changes(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    server.handle("bob@example.org", "vasco submit 1 bob pw-bob b1,0")
    server.handle("bob@example.org", "vasco undo 1 bob pw-bob")
    server.handle("alice@example.org", "vasco accept 1 alice pw-alice")  # the board changed
    [error] = server.handle("bob@example.org", "vasco confirm 1 bob pw-bob").mails
    assert "Nothing is submitted" in error.body or "is stale" in error.body
    [error] = server.handle("alice@example.org", "vasco submit 1 alice pw-alice q1").mails
    assert "Move q1 cannot be played on board 1" in error.body


def test_signoff_resigns_everything_and_stops_challenges(server: Server) -> None:
    challenge(server)
    play(server, "alice", "a0,0")
    messages = server.handle("bob@example.org", "signoff bob pw-bob")
    assert any("bob declined the challenge; not rated" in m.body for m in messages.mails)
    assert any("1 active boards were resigned" in m.body for m in messages.mails)
    [error] = server.handle("alice@example.org", "trugo challenge alice bob").mails
    assert "bob has signed off" in error.body
    [back] = server.handle("bob@example.org", "signon bob pw-bob").mails
    assert "Welcome back, bob" in back.body
    assert (
        server.handle("alice@example.org", "trugo challenge alice bob")
        .mails[0]
        .subject.startswith("New Trugo Board 2 alice")
    )


def test_delete_only_an_account_that_never_played(server: Server) -> None:
    signup(server, "carol")
    challenge(server)
    [error] = server.handle("bob@example.org", "delete bob pw-bob").mails
    assert "signoff bob PASSWORD' leaves the server instead" in error.body
    [gone] = server.handle("carol@example.org", "delete carol pw-carol").mails
    assert "The account carol is deleted" in gone.body
    [listing] = server.handle("x@example.org", "list").mails
    assert "carol" not in listing.body


def test_broadcast_is_for_administrators(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    signup(server, "alice", "bob")
    [error] = server.handle("alice@example.org", "broadcast alice pw-alice", "News!").mails
    assert "Only the server's administrators" in error.body
    monkeypatch.setenv("PBEM_ADMINS", "root, Alice")
    messages = server.handle("alice@example.org", "broadcast alice pw-alice", "News!")
    assert sorted(m.to for m in messages.mails) == [("alice@example.org",), ("bob@example.org",)]
    assert all(m.body.startswith("News!") for m in messages.mails)


def test_show_by_players(server: Server) -> None:
    challenge(server)
    signup(server, "carol")
    server.handle("alice@example.org", "vasco challenge carol alice")
    server.handle("bob@example.org", "vasco resign 1 bob pw-bob")
    [active] = server.handle("x@example.org", "vasco show alice").mails
    assert "== Vasco Board 2 carol ==" in active.body and "Board 1 " not in active.body
    [old] = server.handle("x@example.org", "vasco show alice bob inactive").mails
    assert "== Vasco Board 1 game over ==" in old.body
    [every] = server.handle("x@example.org", "vasco show alice ALL").mails
    assert "Board 1 game over" in every.body and "Board 2 carol" in every.body
    [following] = server.handle("x@example.org", "vasco show carol next").mails
    assert following.body.startswith("== Vasco Board 2 carol ==")
    [none] = server.handle("x@example.org", "vasco show alice next").mails
    assert "No next Vasco boards of alice" in none.body
    [error] = server.handle("x@example.org", "vasco show nobody").mails
    assert "There is no user 'nobody'" in error.body


def test_a_mail_delivered_twice_runs_once(server: Server) -> None:
    signup(server, "alice", "bob")
    line = "vasco challenge alice bob"
    first = server.handle("alice@example.org", line, message_id="<m1@example.org>")
    assert len(first.mails) == 2
    assert server.handle("alice@example.org", line, message_id="<m1@example.org>").mails == ()
    [error] = server.handle("alice@example.org", "vasco fly", message_id="<m2@example.org>").mails
    assert error.subject == "Vasco error"
    assert (
        server.handle("alice@example.org", "vasco fly", message_id="<m2@example.org>").mails == ()
    )
    body = "vasco show 1\nvasco show 1\n"
    assert len(server.handle("x@example.org", "multiple", body, message_id="<m3@x>").mails) == 2
    assert server.handle("x@example.org", "multiple", body, message_id="<m3@x>").mails == ()
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Board)) == 1
        shown = session.scalars(select(OutboxMessage).where(OutboxMessage.board_id == 1)).all()
        assert {(m.board_version, m.board_seat) for m in shown} >= {(0, 0), (0, 1), (0, None)}


def test_stop_with_the_token_turns_mail_off(server: Server) -> None:
    from pbem.server.mailing.footers import stop_token

    signup(server, "alice")
    with server.sessions() as session:
        token = stop_token(session.scalars(select(User).where(PERSON)).one())
    [error] = server.handle("x@example.org", "stop alice 0123456789abcdef0123").mails
    assert "not alice's stop token" in error.body
    [done] = server.handle("x@example.org", f"stop ALICE {token.upper()}").mails
    assert "alice gets no more board mail" in done.body
    with server.sessions() as session:
        assert session.scalars(select(User).where(PERSON)).one().mail_preference == "none"
    server.handle("alice@example.org", "change password alice pw-alice newpass1")
    [error] = server.handle("x@example.org", f"stop alice {token}").mails
    assert "not alice's stop token" in error.body


def test_a_door_that_vouches_for_a_user_needs_no_password(server: Server) -> None:
    challenge(server)
    messages = server.handle("alice@example.org", "vasco move 1 alice - a0,0#1", as_user="ALICE")
    assert all(m.subject == "Vasco Board 1 bob" for m in messages.mails)
    [error] = server.handle("bob@example.org", "vasco move 1 bob - b1,0#2", as_user="alice").mails
    assert "'bob' and that password do not match" in error.body
    [error] = server.handle(
        "alice@example.org", "change password alice - newpass1", as_user="alice"
    ).mails  # a password change always asks for the password
    assert "'alice' and that password do not match" in error.body


@pytest.mark.parametrize(
    ("who", "line", "kind"),
    [
        ("carol", "vasco move 1 carol pw-carol a0,0#1", "forbidden"),
        ("alice", "vasco move 1 alice wrong a0,0#1", "forbidden"),
        ("alice", "vasco move 9 alice pw-alice a0,0#1", "not_found"),
        ("alice", "vasco move 1 alice pw-alice a0,0#2", "conflict"),
        ("alice", "vasco move 1 alice pw-alice a5,5#1", "conflict"),
        ("alice", "vasco move 1 alice pw-alice q9#1", "malformed"),
        ("bob", "vasco move 1 bob pw-bob a0,0#1", "conflict"),
        ("alice", "vasco move 1 alice", "malformed"),
        ("alice", "signup bob secret9", "conflict"),
    ],
)
def test_each_refusal_says_what_kind_it_is(server: Server, who: str, line: str, kind: str) -> None:
    challenge(server)
    signup(server, "carol")
    [error] = server.handle(f"{who}@example.org", line).mails
    assert (error.error is not None, error.error_kind) == (True, kind), error.error


def test_a_race_lost_outside_a_move_is_a_refusal_not_a_crash(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.server.boards import lifecycle
    from pbem.store.boards import StaleBoard

    challenge(server)

    def raced(*args: object, **kwargs: object) -> None:
        raise StaleBoard(1, 0)

    monkeypatch.setattr(lifecycle, "finish_board", raced)
    [error] = server.handle("bob@example.org", "vasco resign 1 bob pw-bob").mails
    assert error.error_kind == "conflict" and "Board 1 has moved on" in error.body
    assert board_row(server).status == "active"


def test_a_new_board_mail_names_the_challenger_never_their_address(server: Server) -> None:
    signup(server, "alice", "bob")
    mails = server.handle("alice@example.org", "vasco challenge alice bob")
    to_bob = [m for m in mails.mails if m.to == ("bob@example.org",)]
    assert to_bob and "from a challenge sent by alice." in to_bob[0].body
    assert all("alice@example.org" not in m.body for m in to_bob)
    stranger = server.handle("nobody@example.org", "vasco challenge alice bob")
    assert all(
        "nobody@example.org" not in m.body
        for m in stranger.mails
        if m.to != ("nobody@example.org",)
    )
    assert "sent by someone without an account here" in stranger.mails[0].body
