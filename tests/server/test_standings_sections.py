"""The standings' sections, chosen in SQL a page at a time, against the rule
read off docs/ratings.md applied to every player in Python, on random players."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import Engine, select

from pbem.server import Server
from pbem.server.players.ratings import ESTABLISHED
from pbem.server.runners.standings import (
    INACTIVE_AFTER,
    SECTION_SIZE,
    SECTIONS,
    active_counts,
    section_query,
    standing_sections,
)
from pbem.settings import Settings
from pbem.store import Ending, Rating, User, session_factory
from pbem.store.boards import boards_of, create_board, finish_board
from pbem.web import create_app
from tests.store.query_work import QueryWork

NOW = datetime(2026, 11, 21, 9, 0)


def fill(engine: Engine, players: int, seed: int) -> None:
    """Players with random records, some with active boards of the game."""
    rng = random.Random(seed)
    sessions = session_factory(engine)
    with sessions.begin() as session:
        users = []
        for number in range(players):
            user = User(
                userid=f"p{number}",
                userid_key=f"p{number}",
                password_hash="x",
                mail_preference="every",
                vacation=False,
                signed_off=False,
                created_at=NOW,
            )
            session.add(user)
            users.append(user)
        session.flush()
        for user in users:
            games = rng.choice([0, 0, 1, 5, 19, 20, 21, 40])
            wins = rng.randint(0, games)
            played = rng.choice([NOW - timedelta(days=10), NOW - INACTIVE_AFTER * 2])
            session.add(
                Rating(
                    user_id=user.id,
                    game="vasco",
                    rating=rng.choice([1500.0, 1600.0, 1650.0]) + rng.randint(-300, 300),
                    games=games,
                    wins=wins,
                    losses=games - wins,
                    draws=0,
                    provisional_sum=0.0,
                    limit=rng.choice([None, None, 3]),
                    seeking=rng.choice([0, 0, 0, 2]),
                    last_played=played if games else None,
                )
            )
        for _ in range(players // 3):
            first, second = rng.sample(users, 2)
            board = create_board(session, "vasco", [], [first, second], NOW)
            if rng.random() < 0.3:
                finish_board(session, board, 0, "over", Ending.DECLINED, NOW)


def by_the_rule(engine: Engine) -> dict[str, list[str]]:
    """Every player's section worked out one by one, best first."""
    sessions = session_factory(engine)
    sections: dict[str, list[tuple[float, int, str]]] = {name: [] for name in SECTIONS}
    with sessions() as session:
        for rating in session.scalars(select(Rating).where(Rating.game == "vasco")):
            user = session.get_one(User, rating.user_id)
            active = sum(
                1
                for board in boards_of(session, user.id)
                if board.game == "vasco" and board.status == "active"
            )
            if rating.games == 0 and not rating.seeking and rating.limit is None:
                continue
            recent = rating.last_played is not None and NOW - rating.last_played <= INACTIVE_AFTER
            if not active and not recent and rating.games:
                section = "Inactive"
            else:
                section = "Established" if rating.games >= ESTABLISHED else "Provisional"
            sections[section].append((-rating.rating, rating.id, user.userid))
    return {name: [userid for *_, userid in sorted(rows)] for name, rows in sections.items()}


def in_pages(engine: Engine, size: int) -> dict[str, list[str]]:
    """Each section read a page of `size` at a time until it ends."""
    sessions = session_factory(engine)
    found: dict[str, list[str]] = {}
    with sessions() as session:
        for section in SECTIONS:
            names: list[str] = []
            while True:
                page = standing_sections(
                    session, "vasco", NOW, start={section: len(names)}, size=size
                )[section]
                names += [standing.userid for standing in page[:size]]
                if len(page) <= size:
                    break
            found[section] = names
    return found


def test_sections_in_sql_are_the_rule_applied_to_every_player(engine: Engine) -> None:
    fill(engine, 120, seed=7)
    expected = by_the_rule(engine)
    assert all(expected.values())  # every section has players
    assert in_pages(engine, size=17) == expected
    assert in_pages(engine, size=SECTION_SIZE) == expected


def test_the_page_and_the_api_go_through_a_section_a_hundred_at_a_time(engine: Engine) -> None:
    fill(engine, 700, seed=3)
    expected = by_the_rule(engine)
    longest = max(SECTIONS, key=lambda name: len(expected[name]))
    assert len(expected[longest]) > SECTION_SIZE
    client = TestClient(create_app(Server(session_factory(engine)), Settings(secret_key="k" * 40)))
    first = client.get("/vasco/standings").text
    assert f"/vasco/standings?section={longest}&amp;start={SECTION_SIZE}" in first
    page = client.get(f"/vasco/standings?section={longest}&start={SECTION_SIZE}").text
    assert f'<a href="/players/{expected[longest][SECTION_SIZE]}">' in page
    assert f"<td>{SECTION_SIZE + 1}</td>" in page
    assert "All sections" in page
    data = client.get("/api/vasco/standings").json()
    section = next(s for s in data["sections"] if s["name"] == longest)
    assert section["more"] and len(section["players"]) == SECTION_SIZE
    data = client.get(f"/api/vasco/standings?section={longest}&start={SECTION_SIZE}").json()
    [section] = data["sections"]
    assert section["players"][0]["rank"] == SECTION_SIZE + 1
    assert section["players"][0]["userid"] == expected[longest][SECTION_SIZE]


def test_each_line_counts_the_players_active_boards_of_the_game(engine: Engine) -> None:
    """The Active column: a player's active boards of this game, counted from
    their own seats (finished boards and other games' boards left out)."""
    fill(engine, 120, seed=11)
    sessions = session_factory(engine)
    with sessions.begin() as session:  # boards of another game do not count
        users = session.scalars(select(User).order_by(User.id).limit(2)).all()
        create_board(session, "trugo", [], list(users), NOW)
    with sessions() as session:
        lines = [
            line
            for lines in standing_sections(session, "vasco", NOW, size=1000).values()
            for line in lines
        ]
        assert lines and any(line.active for line in lines)
        for line in lines:
            user = session.scalars(select(User).where(User.userid == line.userid)).one()
            active = [
                board
                for board in boards_of(session, user.id)
                if board.game == "vasco" and board.status == "active"
            ]
            assert line.active == len(active), line.userid


def test_counting_the_listed_players_active_boards_costs_the_same_after_years_of_games(
    engine: Engine, query_work: QueryWork
) -> None:
    """The standings count each listed player's active boards through the
    active seats' index: 3,000 more boards the players finished long ago
    add nothing to it (it walked every board a player ever played: 10 ms on
    SQLite for 200 players at the bench's 100,000 boards)."""
    now = datetime(2026, 11, 27)
    sessions = session_factory(engine)
    with sessions.begin() as session:
        players = [
            User(userid=f"p{n}", userid_key=f"p{n}", password_hash="!", created_at=now)
            for n in range(40)
        ]
        session.add_all(players)
        session.flush()
        for number in range(80):  # two active boards each
            create_board(
                session, "trugo", [], [players[number % 40], players[(number + 1) % 40]], now
            )
        ids = [player.id for player in players]
    work, counts, made = [], [], 0
    for finished in (1000, 4000):
        with sessions.begin() as session:
            for number in range(made, finished):
                pair = [players[number % 40], players[(number * 7 + 3) % 40]]
                board = create_board(session, "trugo", [], pair, now)
                finish_board(session, board, 0, "resigned", Ending.RESIGNATION, now)
        made = finished
        query_work.statistics_as_autovacuum_keeps_them(engine)
        with query_work.reads_of(engine) as reads, sessions() as session:
            counts.append(active_counts(session, "trugo", ids))
        work.append(query_work.work_of(engine, reads))
    assert counts[0] == counts[1] == dict.fromkeys(ids, 4)
    # What it lists (40 players, 160 active seats) bounds what it reads, in
    # SQLite's steps or PostgreSQL's pages: the walk read every one of the
    # 8,160 seats and its board (more than ten times this).
    assert max(work) <= 5 * (40 + 160), work


def test_the_inactive_section_costs_the_same_with_ten_times_the_recent_players(
    engine: Engine, query_work: QueryWork
) -> None:
    """The Inactive section is read by the index of last play, from the
    stale players alone. It tested every rating of the game (3.9 ms on
    SQLite at the bench's 10,000 players, none of them inactive)."""
    now = datetime(2026, 11, 27)
    sessions = session_factory(engine)
    work, made = [], 0
    for players in (300, 3000):
        with sessions.begin() as session:
            for number in range(made, players):
                user = User(
                    userid=f"p{number}", userid_key=f"p{number}", password_hash="!", created_at=now
                )
                session.add(user)
                session.flush()
                stale = number in (0, 100, 200)  # three players, long gone
                session.add(
                    Rating(
                        user_id=user.id,
                        game="vasco",
                        rating=1000.0 + number,
                        games=30 if number % 2 else 5,
                        wins=3,
                        losses=2,
                        last_played=now - (INACTIVE_AFTER * 2 if stale else timedelta(days=3)),
                    )
                )
        made = players
        query_work.statistics_as_autovacuum_keeps_them(engine)
        with query_work.reads_of(engine) as reads, sessions() as session:
            found = session.execute(section_query("vasco", "Inactive", now, 0, SECTION_SIZE))
            assert [userid for _, userid, _ in found] == ["p200", "p100", "p0"]
        work.append(query_work.work_of(engine, reads))
        with sessions() as session:  # and the whole standings still sort everyone right
            sections = standing_sections(session, "vasco", now)
        assert [line.userid for line in sections["Inactive"]] == ["p200", "p100", "p0"]
        assert sections["Established"][0].userid == f"p{players - 1}"
        assert sections["Provisional"][0].userid == f"p{players - 2}"
    # The walk over every rating made the second ten times the first in
    # SQLite's steps; PostgreSQL read the whole table, 30 pages of ratings
    # and as many of users, where three players by index are 14.
    assert work[1] <= max(1.3 * work[0], 25), work
