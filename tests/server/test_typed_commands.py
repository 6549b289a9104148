"""Commands as objects: the web, the API and bots hand the server a command
for a player the door vouches for; mail text is read into the same objects.
Both ways do the same thing, and the outcome says what changed."""

from __future__ import annotations

import pytest

from pbem.games import get_game
from pbem.server import Server
from pbem.server.errors import CONFLICT, FORBIDDEN, CommandError
from pbem.server.language import commands
from pbem.server.language.commands.challenges import read_challenge
from pbem.server.language.commands.on_board import read_move, read_plain, read_queue
from pbem.server.language.messages import Effect
from pbem.server.language.registry import RUNNERS
from pbem.store import Board
from tests.server.test_commands import challenge, outbox_count

VASCO = get_game("vasco")
TRUGO = get_game("trugo")


def moves_of(server: Server, board_id: int) -> list[str]:
    with server.sessions() as session:
        board = session.get_one(Board, board_id)
        return [row.text for row in sorted(board.moves, key=lambda row: row.number)]


def test_every_board_command_has_what_runs_it() -> None:
    kinds = {kind for kind in vars(commands).values() if isinstance(kind, type)}
    # every command with a word of its own (OnBoard and Guarded are only bases)
    on_board = {kind for kind in kinds if issubclass(kind, commands.OnBoard) and kind.verb}
    assert on_board == {kind for kind in RUNNERS if issubclass(kind, commands.OnBoard)}


def test_a_vouched_move_plays_without_a_password(server: Server) -> None:
    board = challenge(server)
    sent = server.execute(
        commands.Move(game="vasco", board=board, userid="Alice", move="a0,0", number=1),
        as_user="alice",
    )
    assert not any(message.error for message in sent.mails)
    assert sent.effects[0] is Effect.MOVED
    assert moves_of(server, board)[0] == "a0,0"


def test_a_command_no_door_vouched_for_needs_its_password(server: Server) -> None:
    board = challenge(server)
    move = commands.Move(game="vasco", board=board, userid="alice", move="a0,0")
    for as_user in (None, "bob"):  # nobody vouched, or for another player
        (refusal,) = server.execute(move, as_user=as_user).mails
        assert refusal.error_kind == FORBIDDEN
        assert "password do not match" in (refusal.error or "")
    assert moves_of(server, board) == []
    with_password = commands.Move(
        game="vasco", board=board, userid="alice", password="pw-alice", move="a0,0"
    )
    assert server.execute(with_password, as_user=None).effects == (Effect.MOVED,)


def test_a_refused_command_changes_nothing_and_says_why(server: Server) -> None:
    board = challenge(server)
    queued = outbox_count(server)
    ahead = commands.Move(game="vasco", board=board, userid="alice", move="a0,0", number=3)
    (refusal,) = server.execute(ahead, as_user="alice").mails
    assert refusal.error_kind == CONFLICT and "has not reached" in (refusal.error or "")
    out_of_turn = commands.Move(game="vasco", board=board, userid="bob", move="a0,0")
    (refusal,) = server.execute(out_of_turn, as_user="bob").mails
    assert "not your move" in (refusal.error or "")
    assert outbox_count(server) == queued  # a refusal for a door is returned, not mailed
    assert moves_of(server, board) == []


def test_what_changed_is_in_the_outcome(server: Server) -> None:
    board = challenge(server)
    on = {"game": "vasco", "board": board}
    server.execute(commands.Move(**on, userid="alice", move="a0,0"), as_user="alice")  # type: ignore[arg-type]
    server.execute(commands.Move(**on, userid="bob", move="b1,0"), as_user="bob")  # type: ignore[arg-type]
    proposed = server.execute(commands.Propose(**on, userid="alice"), as_user="alice")  # type: ignore[arg-type]
    assert proposed.effects == (Effect.VOTED,)
    rejected = server.execute(commands.Reject(**on, userid="bob"), as_user="bob")  # type: ignore[arg-type]
    assert rejected.effects == (Effect.PROPOSAL_REJECTED,)
    server.execute(commands.Undo(**on, userid="alice"), as_user="alice")  # type: ignore[arg-type]
    taken = server.execute(commands.Accept(**on, userid="bob"), as_user="bob")  # type: ignore[arg-type]
    assert taken.effects == (Effect.TAKEN_BACK,)
    assert len(moves_of(server, board)) == 1
    chat = commands.Chat(**on, userid="bob", comment="hello")  # type: ignore[arg-type]
    assert server.execute(chat, as_user="bob").effects == (Effect.CHATTED,)
    resign = server.execute(commands.Resign(**on, userid="alice"), as_user="alice")  # type: ignore[arg-type]
    assert resign.effects == (Effect.RESIGN_QUEUED,)  # not alice's turn: when it comes
    resign = server.execute(commands.Resign(**on, userid="bob"), as_user="bob")  # type: ignore[arg-type]
    assert resign.effects == (Effect.RESIGNED,)


def test_text_is_read_into_the_same_commands() -> None:
    assert read_move(VASCO, ["7", "ann", "pw", "a0,0#3"], "hi") == commands.Move(
        game="vasco", board=7, userid="ann", password="pw", move="a0,0", number=3, comment="hi"
    )
    # pbmserv's `move BOARD USERID PASSWORD resign` (and the votes, and swap)
    assert read_move(VASCO, ["7", "ann", "pw", "Resign"], "") == commands.Resign(
        game="vasco", board=7, userid="ann", password="pw"
    )
    assert read_move(VASCO, ["7", "ann", "pw", "swap#2"], "") == commands.Swap(
        game="vasco", board=7, userid="ann", password="pw", number=2
    )
    assert read_queue(TRUGO, ["7", "ann", "pw", "c3", "if", "b2"], "") == commands.Queue(
        game="trugo", board=7, userid="ann", password="pw", move="c3", condition="b2"
    )
    with pytest.raises(CommandError, match="not a board number"):
        read_plain(commands.Chat, VASCO, ["seven", "ann", "pw"], "")
    with pytest.raises(CommandError, match="vasco move BOARD USERID PASSWORD MOVE"):
        read_move(VASCO, ["seven", "ann", "pw"], "")
    with pytest.raises(CommandError, match="To move on board 7, send: vasco move 7 ann PASSWORD"):
        read_move(VASCO, ["7", "ann", "pw"], "")


def test_a_commands_text_never_holds_its_password() -> None:
    move = commands.Move(game="vasco", board=7, userid="ann", password="s3cret", move="a0,0")
    assert move.text() == "vasco move 7 ann PASSWORD a0,0"
    queued = commands.Queue(
        game="trugo", board=7, userid="ann", password="s3cret", move="c3", condition="b2"
    )
    assert "s3cret" not in queued.text()
    assert commands.MailPreference(userid="ann", password="s3cret", preference="none").text() == (
        "mail ann PASSWORD none"
    )


def test_settings_are_commands_too(server: Server) -> None:
    challenge(server)
    sent = server.execute(commands.MailPreference(userid="bob", preference="digest"), as_user="bob")
    assert sent.effects == (Effect.PREFERENCE_SET,)
    (refusal,) = server.execute(commands.Vacation(userid="bob", state="maybe"), as_user="bob").mails
    assert "on or off" in (refusal.error or "")


def test_a_challenge_is_a_command_too(server: Server) -> None:
    from tests.server.test_commands import signup

    signup(server, "alice", "bob")
    words = ["alice", "bob", "-size=12", "--nagtime=3", "--forfeittime=9"]
    command = read_challenge(VASCO, words, "")
    assert command == commands.Challenge(
        game="vasco",
        players=("alice", "bob"),
        options=("-size=12",),
        nag_days=3,
        forfeit_days=9,
    )
    assert command.text() == "vasco challenge alice bob -size=12 --nagtime=3 --forfeittime=9"
    sent = server.execute(command, as_user="alice")
    assert sent.board == 1 and not any(message.error for message in sent.mails)
    with server.sessions() as session:
        board = session.get_one(Board, 1)
        assert (board.options["size"], board.nag_days, board.forfeit_days) == (12, 3, 9)
    for bad, said in (
        (commands.Challenge(game="vasco", players=("alice",)), "needs 2 players"),
        (commands.Challenge(game="vasco", players=("alice", "bob"), nag_days=0), "1 to 365"),
        (commands.Challenge(game="vasco", players=("alice", "carol")), "no user 'carol'"),
        (
            commands.Challenge(game="vasco", players=("alice", "bob"), options=("-size=0",)),
            "size",
        ),
    ):
        (refusal,) = server.execute(bad, as_user="alice").mails
        assert said in (refusal.error or ""), refusal.error


def test_a_change_always_needs_the_current_password(server: Server) -> None:
    challenge(server)
    change = commands.Change(what="password", userid="bob", new="brand-new")
    (refusal,) = server.execute(change, as_user="bob").mails  # the session is not enough
    assert refusal.error_kind == FORBIDDEN
    assert "brand-new" not in change.text() and change.text().endswith("PASSWORD NEWPASSWORD")
    proven = commands.Change(what="password", userid="bob", password="pw-bob", new="brand-new")
    assert not any(message.error for message in server.execute(proven, as_user="bob").mails)
    login = commands.Move(game="vasco", board=1, userid="bob", password="pw-bob", move="a0,0")
    (refusal,) = server.execute(login, as_user=None).mails
    assert refusal.error_kind == FORBIDDEN  # the old password is gone
    moved = commands.Change(what="address", userid="bob", password="brand-new", new="b@new.example")
    sent = server.execute(moved, as_user="bob")
    assert {to for message in sent.mails for to in message.to} == {
        "bob@example.org",
        "b@new.example",
    }
    (refusal,) = server.execute(
        commands.Change(what="name", userid="bob", new="x"), as_user="bob"
    ).mails
    assert "change password USERID PASSWORD NEWPASSWORD" in (refusal.error or "")


def test_a_second_runner_for_one_kind_is_refused_when_it_is_registered() -> None:
    """Each command has one runner, declared where it is defined: a second
    `@runs` for the same kind fails at import, not at the first command."""
    from pbem.server.language.registry import runs

    with pytest.raises(AssertionError, match="two runners for Move"):
        runs(commands.Move)(lambda ctx, game, command: None)
