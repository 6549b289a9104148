"""pbmserv's rating formulas on worked examples (docs/ratings.md), and the
standings, history, limit and seek commands."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, insert

from pbem.server import Server
from pbem.server.players.ratings import (
    Standing,
    after_game,
    established_change,
    provisional_value,
    pull_of,
    rate_finished_boards,
)
from pbem.store import Board, session_factory
from tests.server.test_commands import Clock
from tests.store.query_work import QueryWork

NEW = Standing(1600, 0)


def test_two_newcomers_the_winner_gets_1824_the_loser_1424() -> None:
    """pbmserv's (R*g + v)/(g+1) + (1720 - R)/5 with R = 1600, g = 0: the
    values 1800 and 1400 (1600 + 200 times the outcome), each pulled by
    (1720 - 1600) / 5 = 24."""
    assert after_game(NEW, NEW, 1.0) == Standing(1824, 1, 1800)
    assert after_game(NEW, NEW, 0.0) == Standing(1424, 1, 1400)
    assert after_game(NEW, NEW, 0.5) == Standing(1624, 1, 1600)


def test_a_provisional_value_against_an_established_opponent() -> None:
    me = Standing(1500, 4)
    master = Standing(1900, 30)
    assert provisional_value(me, master, -1) == 1500
    assert provisional_value(me, master, 1) == 2300
    # (1500 * 4 + 2300) / 5 + (1720 - 1500) / 5 = 1660 + 44
    assert after_game(me, master, 1.0) == Standing(1704, 5, 8300)
    # a loss: (6000 + 1500) / 5 + 44 = 1544
    assert after_game(me, master, 0.0).rating == 1544


def test_a_provisional_value_against_a_provisional_opponent() -> None:
    me = Standing(1700, 3, 5100)
    other = Standing(1500, 2, 3000)
    assert provisional_value(me, other, 0) == 1600
    assert provisional_value(me, other, -1) == 1400


def test_elo_between_established_players_is_zero_sum() -> None:
    a, b = Standing(1700, 25), Standing(1700, 40)
    assert established_change(a, b, 1.0) == pytest.approx(16)
    assert established_change(b, a, 0.0) == pytest.approx(-16)
    strong, weak = Standing(2000, 50), Standing(1600, 50)
    gain = established_change(strong, weak, 1.0)
    assert gain == pytest.approx(32 * (1 - 1 / 1.1)) and gain == pytest.approx(2.909, abs=1e-3)
    assert gain + established_change(weak, strong, 0.0) == pytest.approx(0)


def test_k_shrinks_against_a_provisional_opponent() -> None:
    established, rookie = Standing(1700, 30), Standing(1500, 10)
    assert established_change(established, rookie, 1.0) == pytest.approx(16 * (1 - 0.75975), 1e-3)
    assert established_change(established, Standing(1600, 0), 1.0) == 0


def test_the_twentieth_game_makes_a_player_established() -> None:
    me = Standing(1650, 19)
    after = after_game(me, Standing(1650, 19), 1.0)
    assert after.games == 20 and after.established
    # (1650 * 19 + 1850) / 20 + (1720 - 1650) / 5 = 1660 + 14
    assert after.rating == 1674
    later = after_game(after, Standing(after.rating, 30), 0.5)
    assert later.rating == pytest.approx(after.rating)  # equal ratings, a draw


def test_ratings_are_whole_numbers() -> None:
    """pbmserv kept whole ratings: 2000 beating 1600 gains 2.9, so 2003."""
    strong, weak = Standing(2000, 50), Standing(1600, 50)
    assert after_game(strong, weak, 1.0) == Standing(2003, 51)
    assert after_game(weak, strong, 0.0) == Standing(1597, 51)
    assert after_game(Standing(1700, 30), Standing(1500, 10), 1.0).rating == 1704  # +3.8


def test_the_pull_towards_1720_is_the_players_own_rating() -> None:
    """pbmserv's (1720 - R) / 5, R the player's own rating before the game:
    a provisional rating above 1720 is pulled down, one below pulled up."""
    assert pull_of(1600) == 24
    assert pull_of(1820) == -20
    assert pull_of(1720) == 0
    # the 1824 winner beats a newcomer next: v = (1824 + 1600) / 2 + 200 = 1912,
    # (1824 * 1 + 1912) / 2 + (1720 - 1824) / 5 = 1868 - 20.8 = 1847.2
    after = after_game(Standing(1824, 1, 1800), NEW, 1.0)
    assert after == Standing(1847, 2, 1824 + 1912)
    # the 1424 loser draws with an established 1700: v = 1700,
    # (1424 + 1700) / 2 + (1720 - 1424) / 5 = 1562 + 59.2 = 1621.2
    assert after_game(Standing(1424, 1, 1400), Standing(1700, 25), 0.5).rating == 1621


@pytest.fixture
def server(engine: Engine) -> Server:
    from tests.server.test_commands import CheckedServer, Clock

    return CheckedServer(session_factory(engine), Clock())


def test_a_finished_board_is_rated_once_and_shows_in_standings_and_history(
    server: Server,
) -> None:
    from tests.server.test_commands import signup

    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob -size=12")
    for who, move in [("alice", "c0,0"), ("bob", "a1,-1"), ("alice", "f-1,-1")]:
        server.handle(f"{who}@example.org", f"vasco move 1 {who} pw-{who} {move}")
    [table] = server.handle("x@example.org", "vasco standings").mails
    lines = table.body.splitlines()
    assert "Provisional:" in lines
    assert any(
        line.startswith("  1. alice") and "1824" in line and "1-0-0" in line for line in lines
    )
    assert any(line.startswith("  2. bob") and "1424" in line for line in lines)
    [again] = server.handle("x@example.org", "VASCO RATINGS").mails
    assert again.body == table.body  # rated once, however often asked
    [past] = server.handle("x@example.org", "vasco history bob").mails
    assert "board     1" in past.body and "lost to alice, 1600 -> 1424" in past.body


def test_limit_and_seek(server: Server) -> None:
    from tests.server.test_commands import signup

    signup(server, "alice", "bob")
    [ok] = server.handle("alice@example.org", "trugo limit alice pw-alice 1").mails
    assert "at most 1 board at once" in ok.body
    server.handle("bob@example.org", "trugo seek bob pw-bob 3")
    [table] = server.handle("x@example.org", "trugo standings").mails
    assert "  0/1" in table.body and "bob" in table.body
    server.handle("alice@example.org", "trugo challenge alice bob")
    [refused] = server.handle("alice@example.org", "trugo challenge bob alice").mails
    assert "alice plays at most 1 Trugo board at once" in refused.body
    [table] = server.handle("x@example.org", "trugo standings").mails
    assert any("bob" in line and line.rstrip().endswith("2") for line in table.body.splitlines())
    [error] = server.handle("alice@example.org", "trugo limit alice pw-alice many").mails
    assert "none (no limit), accept or reject" in error.body


def test_rated_endings_at_once_all_count(engine: Engine) -> None:
    """Bob resigns twenty boards at the same moment, from twenty threads with
    connections of their own: bob's row counts twenty games,
    each board is rated once, and the ratings replay to the same figures."""
    import itertools
    import threading

    from sqlalchemy import func, select

    from pbem.games import get_game
    from pbem.store import Rating, RatingEvent
    from tests.server.test_commands import Clock, signup

    server = Server(session_factory(engine), Clock())
    names = [f"opp{n}" for n in range(20)]
    signup(server, "bob", *names)
    vasco = get_game("vasco")
    first = vasco.new_state(vasco.parse_options([])).play_text("a0,0")
    reply = first.move_text(first.legal_moves()[0])
    for board, name in enumerate(names, start=1):  # both move: the challenge is accepted
        server.handle("bob@example.org", f"vasco challenge bob {name}")
        server.handle("bob@example.org", f"vasco move {board} bob pw-bob a0,0")
        server.handle(f"{name}@example.org", f"vasco move {board} {name} pw-{name} {reply}")
    start = threading.Barrier(len(names))
    failures: list[str] = []

    def resign(board: int, name: str) -> None:
        start.wait(30)
        replies = server.handle("bob@example.org", f"vasco resign {board} bob pw-bob")
        if any("error" in reply.subject for reply in replies.mails):
            failures.append(replies.mails[0].body)

    threads = [
        threading.Thread(target=resign, args=(board, name))
        for board, name in enumerate(names, start=1)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == []
    with server.sessions() as session:
        bob = session.scalars(select(Rating).join(Rating.user).where(Rating.game == "vasco"))
        rows = {row.user.userid: row for row in bob}
        assert (rows["bob"].games, rows["bob"].wins, rows["bob"].losses) == (20, 0, 20)
        assert all(rows[name].games == 1 for name in names)
        events = session.scalar(select(func.count()).select_from(RatingEvent))
        assert events == 40
        chain = session.scalars(
            select(RatingEvent)
            .where(RatingEvent.user_id == rows["bob"].user_id)
            .order_by(RatingEvent.id)
        ).all()
        # each event starts where the one before ended: no update was lost
        assert all(a.after == b.before for a, b in itertools.pairwise(chain))
        assert chain[-1].after == rows["bob"].rating


def test_looking_for_boards_to_rate_costs_the_same_among_many_finished_boards(
    engine: Engine, clock: Clock, query_work: QueryWork
) -> None:
    """Every game's end, and the periodic job, look for finished boards not
    rated yet: a few pages of the index on (rated, status), however many
    boards were rated long ago. (On the bench's database of 100,000 boards,
    whose rows carry real positions, PostgreSQL read every board in id order
    for it, 18 ms, until migration 0024 told it how the two columns go
    together; these small rows do not tempt it so.)"""
    server = Server(session_factory(engine), clock)
    work, made = [], 0
    for count in (100, 40_000):
        rows = [
            {
                "game": "vasco",
                "options": {},
                "status": "active" if number % 5 == 0 else "finished",
                "version": 0,
                "snapshot": {},
                "rated": number % 5 != 0,  # four in five are over and rated
                "created_at": clock(),
                "updated_at": clock(),
            }
            for number in range(made, count)
        ]
        made = count
        with engine.begin() as connection:
            connection.execute(insert(Board.__table__), rows)
        query_work.statistics_as_autovacuum_keeps_them(engine)
        with query_work.reads_of(engine) as reads, server.sessions.begin() as session:
            rate_finished_boards(session, clock())
        work.append(query_work.work_of(engine, reads))
    assert work[1] < 2 * work[0] + 10, work
