"""A list of boards reads its players' users by key, in a statement of
their own, whatever the number of users the server has."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine, select

from pbem.server.views import listings
from pbem.store import Board, User, session_factory
from pbem.store.boards import create_board
from tests.store.query_work import reads_of

NOW = datetime(2026, 11, 29)


def test_a_list_of_boards_reads_its_players_users_on_their_own(engine: Engine) -> None:
    """The game list, a player's page and `games` load each listed board's
    seats with their users. With the users joined to the seats in one
    statement, PostgreSQL chose to read the whole users table and hash it
    once a list was long (4.2 ms of a 7 ms statement at the bench's 10,000
    users; the game list, player page and standings took 1.5 times as long
    as with 400 users). Read by their ids, the users cost what is listed."""
    sessions = session_factory(engine)
    with sessions.begin() as session:
        players = [
            User(userid=f"p{n}", userid_key=f"p{n}", password_hash="!", created_at=NOW)
            for n in range(20)
        ]
        session.add_all(players)
        session.flush()
        for number in range(60):
            pair = [players[number % 20], players[(number * 7 + 3) % 20]]
            create_board(session, "trugo", [], pair, NOW)
    with reads_of(engine) as reads, sessions() as session:
        lines = listings.boards(session, "trugo", "active", None)
    assert len(lines) == 60
    assert all(len(set(line.players)) == 2 for line in lines)
    assert {name for line in lines for name in line.players} == {f"p{n}" for n in range(20)}
    seats = [statement for statement, _ in reads if "FROM board_players" in statement]
    users = [statement for statement, _ in reads if "FROM users" in statement]
    assert len(reads) == 3 and len(seats) == 1 and len(users) == 1, reads
    assert "JOIN users" not in seats[0] and "users.id IN" in " ".join(users[0].split())
    with sessions() as session:  # the players' names are the seats' users, in seat order
        assert [line.players for line in lines] == [
            [seat.user.userid for seat in board.players]
            for board in session.scalars(
                select(Board).order_by(Board.updated_at.desc(), Board.id.desc())
            )
        ]
