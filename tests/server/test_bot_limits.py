"""Bounded work per person (issue 50), on SQLite and PostgreSQL, through the
mail door: the bots serve people in turn, a sender without an account starts
no bot board, a person has at most BOT_BOARDS boards against the bots going,
asks at most HINTS_PER_HOUR hints an hour, and one who does not play on a
board sends at most CHATS_PER_HOUR chat lines on it an hour."""

from __future__ import annotations

import itertools

import pytest
from sqlalchemy import func, select

from pbem.server import Server, set_limits
from pbem.server.boards import hints
from pbem.server.bot_turns import MOVE, waiting
from pbem.server.runners import board_commands
from pbem.settings import SettingsError, load_settings
from pbem.store import Board, HintRequest, User
from pbem.store.boards import create_board
from tests.server.test_commands import Clock, signup

SMALL = "-size=5 -komi=3"
ids = itertools.count()


def mail(server: Server, sender: str, line: str, body: str = "") -> str | None:
    """The command by mail (with a Message-ID, as the doors give); its refusal."""
    outcome = server.handle(sender, line, body, message_id=f"<{next(ids)}@test>")
    return next((m.error for m in outcome.mails if m.error is not None), None)


def boards(server: Server) -> int:
    with server.sessions() as session:
        return session.scalar(select(func.count()).select_from(Board)) or 0


def test_the_bots_serve_people_in_turn(server: Server, clock: Clock) -> None:
    """Twenty boards of ann's wait for a bot, made first; bob's, made after
    them, is among the first a pass takes, not the twenty-first."""
    signup(server, "ann", "bob")
    with server.sessions.begin() as session:
        ann, bot = (
            session.scalars(select(User).where(User.userid == name)).one()
            for name in ("ann", "hardbot")
        )
        for _ in range(20):
            create_board(session, "vasco", [], [bot, ann], clock())  # the bot moves first
    clock.advance(seconds=5)
    assert mail(server, "bob@example.org", "vasco challenge easybot bob") is None
    bob_board = boards(server)
    first = waiting(server, limit=2)
    assert [turn.task for turn in first] == [MOVE, MOVE]
    assert bob_board in [turn.board for turn in first]
    # every board is still there to be taken, ann's in the order they waited
    everything = waiting(server, limit=50)
    assert len(everything) == 21
    anns = [turn.board for turn in everything if turn.board != bob_board]
    assert anns == sorted(anns)


def test_a_sender_without_an_account_cannot_start_a_bot_board(server: Server) -> None:
    signup(server, "ann")
    refused = mail(server, "stranger@example.org", "vasco challenge ann easybot")
    assert refused is not None and "Only a player with an account may challenge a bot" in refused
    lines = "\n".join(["vasco challenge ann hardbot"] * 10)
    server.handle("stranger@example.org", "multiple", lines, message_id="<many@test>")
    assert boards(server) == 0
    assert mail(server, "ann@example.org", "vasco challenge ann easybot") is None  # ann may
    assert boards(server) == 1


def test_a_person_has_at_most_bot_boards_against_the_bots_at_once(server: Server) -> None:
    signup(server, "ann", "bob")
    limit = board_commands.BOT_BOARDS
    for _ in range(limit):
        assert mail(server, "ann@example.org", "vasco challenge ann easybot") is None
    refused = mail(server, "ann@example.org", "vacu challenge hardbot ann")
    assert refused is not None
    assert f"at most {limit} boards against them at once" in refused
    assert "bot_boards" in refused
    assert boards(server) == limit
    assert mail(server, "bob@example.org", "vasco challenge bob easybot") is None  # bob's own
    assert mail(server, "ann@example.org", "vasco challenge ann bob") is None  # people: no limit
    assert mail(server, "ann@example.org", "vasco resign 1 ann pw-ann") is None
    assert mail(server, "ann@example.org", "vasco challenge ann easybot") is None  # one ended


def test_the_limit_of_bot_boards_is_the_settings(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (restored after the test: set_limits changes the process's limits)
    monkeypatch.setattr(board_commands, "BOT_BOARDS", board_commands.BOT_BOARDS)
    monkeypatch.setattr(board_commands, "CHATS_PER_HOUR", board_commands.CHATS_PER_HOUR)
    monkeypatch.setattr(hints, "HINTS_PER_HOUR", hints.HINTS_PER_HOUR)
    env = {"PBEM_BOT_BOARDS": "1", "PBEM_HINTS_PER_HOUR": "7", "PBEM_CHATS_PER_HOUR": "4"}
    settings = load_settings(env, config="/nonexistent/pbem.toml")
    assert settings.limits == (1, 7, 4)
    set_limits(*settings.limits)  # as `pbem` and each web process do at start
    assert (hints.HINTS_PER_HOUR, board_commands.CHATS_PER_HOUR) == (7, 4)
    signup(server, "ann")
    assert mail(server, "ann@example.org", "vasco challenge ann easybot") is None
    refused = mail(server, "ann@example.org", "vasco challenge ann easybot")
    assert refused is not None and "at most 1 board against them" in refused


def test_a_player_asks_at_most_hints_per_hour_hints_an_hour(
    server: Server, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hints, "HINTS_PER_HOUR", 3)
    signup(server, "ann", "bob")
    for _ in range(5):
        assert mail(server, "ann@example.org", f"vacu challenge ann bob {SMALL} --hints") is None
    for number in range(1, 4):
        assert mail(server, "ann@example.org", f"vacu hint {number} ann pw-ann") is None
    assert mail(server, "ann@example.org", "vacu hint 1 ann pw-ann") is None  # the same: one
    refused = mail(server, "ann@example.org", "vacu hint 4 ann pw-ann")
    assert refused is not None and "3 hints in the last hour" in refused
    assert "hints_per_hour" in refused
    assert mail(server, "bob@example.org", "vacu hint 4 bob pw-bob") is None  # bob's own
    clock.advance(minutes=61)
    assert mail(server, "ann@example.org", "vacu hint 4 ann pw-ann") is None
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(HintRequest)) == 5


def test_the_default_hint_limit_is_twenty_an_hour() -> None:
    assert hints.HINTS_PER_HOUR == 20
    assert board_commands.BOT_BOARDS == 5
    assert board_commands.CHATS_PER_HOUR == 10


def test_one_who_does_not_play_chats_at_most_chats_per_hour_on_a_board(
    server: Server, clock: Clock
) -> None:
    signup(server, "ann", "bob", "cat")
    assert mail(server, "ann@example.org", "vasco challenge ann bob") is None
    limit = board_commands.CHATS_PER_HOUR
    for n in range(limit):
        assert mail(server, "cat@example.org", "vasco chat 1 cat pw-cat", f"hello {n}") is None
    outcome = server.handle(
        "cat@example.org", "vasco chat 1 cat pw-cat", "once more", message_id="<cat@test>"
    )
    [refused] = outcome.mails
    assert refused.to == ("cat@example.org",)  # the players get nothing more
    assert refused.error is not None and f"{limit} chat lines on board 1" in refused.error
    assert "chats_per_hour" in refused.error
    for n in range(limit + 5):  # the players are not limited
        assert mail(server, "ann@example.org", "vasco chat 1 ann pw-ann", f"hi {n}") is None
    clock.advance(minutes=61)
    assert mail(server, "cat@example.org", "vasco chat 1 cat pw-cat", "back") is None


def test_a_negative_limit_is_refused_at_start() -> None:
    with pytest.raises(SettingsError, match="bot_boards must be 0 or more"):
        load_settings({"PBEM_BOT_BOARDS": "-1"}, config="/nonexistent/pbem.toml")
