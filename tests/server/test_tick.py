"""The periodic job over simulated weeks: nags, forfeits, vacation, total
time, stalled draw votes, digests and archiving."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, event, select

from pbem.mail.delivery import MaildirTransport, deliver_due
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import Board, BoardStatus, Ending, OutboxMessage, QueuedMove, User, Vote
from pbem.store.boards import create_board
from tests.server.test_commands import Clock, signup
from tests.store.query_work import QueryWork


def start(server: Server, extra: str = "") -> None:
    signup(server, "alice", "bob")
    server.handle("alice@example.org", f"vasco challenge alice bob {extra}".strip())
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")


def board(server: Server) -> Board:
    with server.sessions() as session:
        return session.get_one(Board, 1)


def test_nag_once_a_day_after_the_nag_time_then_forfeit(server: Server, clock: Clock) -> None:
    start(server)
    server.handle("bob@example.org", "vasco accept bob pw-bob")  # he took the challenge up
    clock.advance(days=6, hours=23)
    assert server.tick() == []
    clock.advance(hours=2)
    [nag] = server.tick()
    assert nag.to == ("bob@example.org",) and nag.subject == "Vasco Board 1 bob (reminder)"
    assert "your move on board 1 for 7 days" in nag.body and "you forfeit" in nag.body
    clock.advance(hours=5)
    assert server.tick() == []  # once a day
    clock.advance(days=1)
    assert len(server.tick()) == 1
    clock.advance(days=13)
    messages = server.tick()
    assert all("bob forfeited: no move in 21 days; alice wins" in m.body for m in messages)
    assert (board(server).status, board(server).winner) == ("finished", 0)
    assert board(server).ending is Ending.FORFEIT
    [table] = server.handle("x@example.org", "vasco standings").mails
    assert "alice" in table.body and "1824" in table.body  # forfeits are rated


def test_a_move_resets_the_clock(server: Server, clock: Clock) -> None:
    start(server)
    clock.advance(days=20)
    server.handle("bob@example.org", "vasco move 1 bob pw-bob b1,0")
    clock.advance(days=6)
    assert server.tick() == []
    clock.advance(days=2)
    [nag] = server.tick()
    assert nag.to == ("alice@example.org",)


def test_vacation_stops_nags_and_forfeits(server: Server, clock: Clock) -> None:
    start(server)
    server.handle("bob@example.org", "vasco accept bob pw-bob")  # (an answered challenge)
    messages = server.handle("bob@example.org", "vacation bob pw-bob on")
    assert [m.to for m in messages.mails] == [("alice@example.org",), ("bob@example.org",)]
    clock.advance(days=60)
    assert server.tick() == []
    messages = server.handle("bob@example.org", "vacation bob pw-bob OFF")
    assert "Vasco Board 1 bob (reminder)" in [m.subject for m in messages.mails]
    assert not any("forfeited" in m.body for m in server.tick())  # a whole nag period first
    clock.advance(days=7)
    messages = server.tick()
    assert any("forfeited" in m.body for m in messages)  # then the time away counts


def test_total_time_runs_out(server: Server, clock: Clock) -> None:
    start(server, "--nagtime=20 --forfeittime=30 --totaltime=5")
    clock.advance(days=3)
    server.handle("bob@example.org", "vasco move 1 bob pw-bob b1,0")
    clock.advance(days=1)
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a2,1")
    clock.advance(days=2, hours=1)  # bob: 3 days before, now 2 more
    messages = server.tick()
    assert all("bob ran out of time (5 days in all); alice wins" in m.body for m in messages)
    assert board(server).ending is Ending.OUT_OF_TIME


def test_an_unanswered_draw_proposal_is_accepted_at_the_forfeit_time(
    server: Server, clock: Clock
) -> None:
    start(server)
    server.handle("alice@example.org", "vasco propose 1 alice pw-alice")
    clock.advance(days=22)
    [reminder] = server.tick()  # bob was never reminded of it: he is, and it waits a day
    assert reminder.to == ("bob@example.org",) and "a draw is proposed" in reminder.subject
    clock.advance(days=1)
    messages = server.tick()
    assert any("drawn: the proposal stood unanswered" in m.body for m in messages)
    assert board(server).winner is None and board(server).status == "finished"
    assert board(server).ending is Ending.STANDING_DRAW


def test_digest_once_a_day_and_archiving(server: Server, clock: Clock) -> None:
    start(server)
    server.handle("bob@example.org", "mail bob pw-bob digest")
    [digest] = server.tick()
    assert digest.subject == "pbem digest bob: 1 board awaits you"
    assert "Vasco board 1 against alice, move 2, waiting 0 days" in digest.body
    clock.advance(hours=12)
    assert server.tick() == []
    server.handle("bob@example.org", "vasco resign 1 bob pw-bob")
    clock.advance(days=15)
    server.tick()
    assert board(server).status == "archived"


def test_a_forfeit_drops_what_waited_on_the_board(server: Server, clock: Clock) -> None:
    start(server)
    server.handle("alice@example.org", "vasco undo 1 alice pw-alice")
    server.handle("alice@example.org", "vasco queue 1 alice pw-alice a2,1")
    clock.advance(days=22)
    server.tick()
    assert board(server).status == "finished"
    with server.sessions() as session:
        assert session.scalars(select(Vote)).all() == []
        assert session.scalars(select(QueuedMove)).all() == []


# -- what the job costs ----------------------------------------------------------------


class Statements:
    """Counts the SQL statements and the transactions an engine runs."""

    def __init__(self, engine: Engine) -> None:
        self.statements = 0
        self.transactions = 0
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "begin", self._begin)

    def _statement(self, *args: object) -> None:
        self.statements += 1

    def _begin(self, *args: object) -> None:
        self.transactions += 1

    def reset(self) -> None:
        self.statements = self.transactions = 0


def add_boards(server: Server, count: int, clock: Clock) -> None:
    """`count` more active boards between alice and bob (no command, no mail)."""
    with server.sessions.begin() as session:
        alice, bob = (
            session.scalar(select(User).where(User.userid_key == n)) for n in ("ann", "bo")
        )
        for _ in range(count):
            create_board(session, "vasco", [], [alice, bob], clock(), nag_days=7, forfeit_days=21)


def test_the_job_costs_what_is_due_not_what_exists(
    engine: Engine, server: Server, clock: Clock, query_work: QueryWork
) -> None:
    """As many statements at 10 boards as at 2,000, and as much work for the
    database in its reads (SQLite's planner once walked every active board
    to find the due ones)."""
    signup(server, "ann", "bo")
    counter = Statements(engine)
    costs, work = [], []
    for count in (10, 1990):
        add_boards(server, count, clock)
        clock.advance(hours=1)
        query_work.statistics_as_autovacuum_keeps_them(engine)
        counter.reset()
        with query_work.reads_of(engine) as reads:
            assert server.tick() == []  # nothing due
        costs.append(counter.statements)
        work.append(query_work.work_of(engine, reads))
    assert costs[0] == costs[1] <= 12
    assert work[1] < 2 * work[0] + 10, work  # (a walk: hundreds more)


def test_each_due_board_is_its_own_transaction(
    engine: Engine, server: Server, clock: Clock
) -> None:
    signup(server, "ann", "bo")
    add_boards(server, 5, clock)
    clock.advance(days=7, minutes=1)
    counter = Statements(engine)
    nags = server.tick()
    assert len(nags) == 5 and {m.subject for m in nags} == {
        f"Vasco Board {n} ann (reminder)" for n in range(1, 6)
    }
    assert counter.transactions >= 5 + 1  # one a board, after the read that found them
    counter.reset()
    assert server.tick() == []  # nagged: not due again for a day
    clock.advance(days=1)
    assert len(server.tick()) == 5


def test_an_unanswered_challenge_times_out_unrated(server: Server, clock: Clock) -> None:
    """Rating farming: mallory challenges carol again and again with the
    shortest forfeit time and carol never answers. Each board ends, but
    none is rated: carol keeps her 1600, mallory gains nothing."""
    signup(server, "mallory", "carol")
    for board in range(1, 6):
        server.handle(
            "mallory@example.org", "vasco challenge mallory carol --nagtime=1 --forfeittime=2"
        )
        server.handle("mallory@example.org", f"vasco move {board} mallory pw-mallory a0,0")
    clock.advance(days=2, hours=1)
    ended = server.tick()
    assert (
        sum("carol never answered the challenge in time; not rated" in m.body for m in ended) >= 5
    )
    with server.sessions() as session:
        boards = session.scalars(select(Board)).all()
        assert {(b.status, b.winner, b.ending) for b in boards} == {
            (BoardStatus.FINISHED, None, Ending.UNANSWERED)
        }
    [table] = server.handle("x@example.org", "vasco standings").mails
    assert "No rated games yet." in table.body


def test_delivered_mail_is_forgotten_after_30_days_and_unsent_mail_never(
    server: Server, clock: Clock, tmp_path: Path
) -> None:
    """The outbox keeps a delivered mail's copy 30 days (a host may look
    into it), then the job drops it; a mail not delivered yet stays until
    it is, however old."""
    settings = Settings(address="pbem@games.test")
    start(server)  # the signups', the challenge's and the move's mails
    delivered = {row.id for row in outbox(server)}
    assert deliver_due(server.sessions, settings, MaildirTransport(tmp_path), clock()) == len(
        delivered
    )
    clock.advance(days=10)
    server.handle("bob@example.org", "vasco move 1 bob pw-bob b1,0")  # its mails wait
    waiting = {row.id for row in outbox(server)} - delivered
    assert waiting
    clock.advance(days=20, minutes=1)
    server.tick()  # (ann is nagged: a mail that waits too)
    kept = outbox(server)
    assert not delivered & {row.id for row in kept}  # delivered 30 days ago: gone
    assert waiting <= {row.id for row in kept} and all(row.sent_at is None for row in kept)
    clock.advance(days=100)
    server.tick()
    assert {row.id for row in kept} <= {row.id for row in outbox(server)}  # unsent: kept
    assert all(row.sent_at is None for row in outbox(server))
    count = len(outbox(server))
    assert deliver_due(server.sessions, settings, MaildirTransport(tmp_path), clock()) == count
    clock.advance(days=29)
    server.tick()
    assert len(outbox(server)) == count  # delivered 29 days ago: kept
    clock.advance(days=1, minutes=1)
    server.tick()
    assert outbox(server) == []


def outbox(server: Server) -> list[OutboxMessage]:
    with server.sessions() as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
