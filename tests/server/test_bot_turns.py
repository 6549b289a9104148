"""Bots as players, on SQLite and PostgreSQL: the bot users the database
comes with, challenges they accept at once, the boards the bot worker is
asked about, the lease that keeps two workers off one board, and the
commands a bot sends (guarded by the board's version)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import Engine, select

from pbem.server import Server
from pbem.server.bot_turns import DRAW, MOVE, UNDO, answer, claim, play, release, waiting
from pbem.store import Board, BotLease, User
from pbem.store.boards import create_board
from tests.server.test_commands import Clock, board_row, signup
from tests.store.query_work import QueryWork

BOTS = {"easybot": "easy", "mediumbot": "medium", "hardbot": "hard"}


def bot_board(server: Server, line: str = "vasco challenge ann easybot") -> int:
    signup(server, "ann")
    sent = server.handle("ann@example.org", line)
    assert sent.board is not None, [m.body for m in sent.mails]
    return sent.board


def test_the_database_comes_with_one_bot_per_level_that_no_one_can_log_in_as(
    server: Server,
) -> None:
    with server.sessions() as session:
        bots = session.scalars(select(User).where(User.bot_level.is_not(None))).all()
        assert {bot.userid: bot.bot_level for bot in bots} == BOTS
        assert all(bot.addresses == [] and bot.is_bot for bot in bots)
    for name in BOTS:
        [refused] = server.handle("x@example.org", f"vasco move 1 {name} ! a0,0").mails
        assert refused.error is not None
        [taken] = server.handle("x@example.org", f"signup {name} secret").mails
        assert taken.error is not None and "taken" in taken.error.lower()


def test_a_bot_accepts_a_challenge_at_once_and_gets_no_mail(server: Server) -> None:
    signup(server, "ann")
    sent = server.handle("ann@example.org", "vacu challenge ann hardbot")
    assert [m.to for m in sent.mails] == [("ann@example.org",)]
    assert "hardbot (a bot) accepts at once." in sent.mails[0].body
    board = board_row(server)
    assert [player.accepted for player in board.players] == [True, True]  # ann chose it too


def test_bots_play_only_against_people(server: Server) -> None:
    signup(server, "ann")
    [refused] = server.handle("ann@example.org", "trugo challenge easybot hardbot").mails
    assert refused.error is not None and "Bots play only against people" in refused.error


def test_the_worker_is_asked_to_move_only_when_the_bot_is_to_move(server: Server) -> None:
    board = bot_board(server)
    assert waiting(server) == []  # ann moves first
    server.handle("ann@example.org", f"vasco move {board} ann pw-ann a0,0")
    [turn] = waiting(server)
    assert (turn.task, turn.board, turn.bot, turn.level, turn.seat) == (
        MOVE,
        board,
        "easybot",
        "easy",
        1,
    )
    assert turn.moves == ("a0,0",) and turn.version == 1 and turn.game == "vasco"
    assert play(server, turn, "b1,0") is None
    assert [m.text for m in board_row(server).moves] == ["a0,0", "b1,0"]
    assert waiting(server) == []


def test_a_bots_move_for_a_board_that_moved_on_is_refused_and_plays_nothing(
    server: Server,
) -> None:
    board = bot_board(server, "vasco challenge easybot ann")
    [turn] = waiting(server)
    assert play(server, turn, "a0,0") is None
    refused = play(server, turn, "a0,0")  # the same turn again: the #N guard
    assert refused is not None and "stale" in refused
    assert board_row(server).version == 1 and board == turn.board


def test_a_bot_is_never_due_for_a_nag_or_a_forfeit(server: Server, clock: Clock) -> None:
    bot_board(server, "vasco challenge easybot ann")
    assert board_row(server).due_at is None
    [turn] = waiting(server)
    play(server, turn, "a0,0")
    assert board_row(server).due_at is not None  # ann's clock runs
    clock.advance(days=60)
    server.tick()
    assert board_row(server).status == "finished"  # ann forfeited...
    assert "ann" in (board_row(server).result or "")


def test_a_bot_to_move_waits_as_long_as_it_takes_without_a_forfeit(
    server: Server, clock: Clock
) -> None:
    bot_board(server, "vasco challenge easybot ann")
    clock.advance(days=60)
    server.tick()
    assert board_row(server).status == "active"


def test_one_lease_per_board_and_a_lease_that_ran_out_is_taken_over(
    server: Server, clock: Clock
) -> None:
    bot_board(server, "vasco challenge easybot ann")
    [turn] = waiting(server)
    assert claim(server, turn, "one", 30)
    assert not claim(server, turn, "two", 30)
    assert waiting(server) == []  # leased boards are not offered
    clock.advance(seconds=31)
    assert waiting(server) == [turn]
    assert claim(server, turn, "two", 30)
    release(server, turn, "one")  # the old holder's release no longer counts
    with server.sessions() as session:
        assert session.scalars(select(BotLease.holder)).all() == ["two"]
    release(server, turn, "two")
    assert waiting(server) == [turn]


def test_a_draw_offer_and_an_undo_are_put_to_the_bot_before_any_move(server: Server) -> None:
    board = bot_board(server)
    server.handle("ann@example.org", f"vasco move {board} ann pw-ann a0,0")
    [turn] = waiting(server)
    play(server, turn, "b1,0")
    server.handle("ann@example.org", f"vasco undo {board} ann pw-ann")
    [undo] = waiting(server)
    assert undo.task == UNDO
    assert answer(server, undo, yes=False) is None
    assert board_row(server).version == 2  # rejected: nothing taken back
    server.handle("ann@example.org", f"vasco propose {board} ann pw-ann")
    [draw] = waiting(server)
    assert draw.task == DRAW
    assert answer(server, draw, yes=True) is None
    finished = board_row(server)
    assert finished.status == "finished" and finished.result == "drawn by agreement"


def test_a_board_where_the_bot_already_voted_is_not_offered_again(server: Server) -> None:
    board = bot_board(server, "vasco challenge easybot ann")
    [turn] = waiting(server)
    play(server, turn, "a0,0")
    server.handle("ann@example.org", f"vasco move {board} ann pw-ann b1,0")
    server.handle("ann@example.org", f"vasco propose {board} ann pw-ann")
    with server.sessions.begin() as session:
        assert session.get_one(Board, board).version == 2
    [draw] = waiting(server)
    assert draw.task == DRAW and draw.seat == 0
    assert answer(server, draw, yes=False) is None
    [move] = waiting(server)  # rejected: the bot's move is next
    assert move.task == MOVE


def test_leases_expire_by_the_clock(server: Server, clock: Clock) -> None:
    bot_board(server, "vasco challenge easybot ann")
    [turn] = waiting(server)
    claim(server, turn, "one", 5)
    with server.sessions() as session:
        lease = session.get_one(BotLease, turn.board)
        assert lease.expires_at == clock.now + timedelta(seconds=5)
        assert lease.version == turn.version


def test_the_look_for_boards_waiting_for_a_bot_costs_the_same_among_many_boards(
    engine: Engine, server: Server, clock: Clock, query_work: QueryWork
) -> None:
    """The worker looks once a second: it walks the bots' active boards, not
    every active board (at 100,000 boards it took a tenth of a second each
    time on SQLite before `boards.with_bot` and its index)."""
    board = bot_board(server)
    server.handle("ann@example.org", f"vasco move {board} ann pw-ann a0,0")
    with server.sessions.begin() as session:
        people = [
            User(userid=f"p{n}", userid_key=f"p{n}", password_hash="!", created_at=clock())
            for n in range(50)
        ]
        session.add_all(people)
    costs = []
    for count in (100, 2000):
        with server.sessions.begin() as session:
            for number in range(count - len(costs) * 100):
                pair = [people[number % 50], people[(number * 7 + 1) % 50]]
                create_board(session, "vasco", [], pair, clock())
        query_work.statistics_as_autovacuum_keeps_them(engine)
        with query_work.reads_of(engine) as statements:
            [turn] = waiting(server)
        assert (turn.task, turn.board) == (MOVE, board)
        costs.append(query_work.work_of(engine, statements))
    assert costs[1] < 1.5 * costs[0], costs
