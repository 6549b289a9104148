"""How the real server holds up under load: requests per second and latencies
of the web pages and the JSON API over HTTP, a burst of mailed moves over
SMTP, and the periodic tick, on SQLite and on PostgreSQL.

`python -m bench.load [--db sqlite|postgresql|both] [--clients 32] [--seconds
10] [--large] [--game trugo]` fills a new database through the command layer
(users, API tokens, boards) and then a few hundred users and some thousands of
boards in bulk, so that every list page is full, starts `pbem serve` as a user
would (a subprocess; the PYTHONPATH passes through, so an older checkout can be
measured the same way) and drives it on 127.0.0.1 with a light keep-alive
HTTP/1.1 client (asyncio, one connection per client). A bare FastAPI app served
by uvicorn the way pbem serves its own is measured with the same client in the
same run: it is the ceiling to compare the pbem figures with. With `--large`,
10,000 users and 100,000 boards (most finished, none due for the tick) are then
added in bulk and the pages, moves and tick measured again, beside the small
figures, the moves and board pages on a second set of boards as fresh as the
first was (with the mean size of an answer, the same in both when a page's
length does not depend on the database's size; the bench's players are in
none of the 100,000, so their pages list the same boards). Requests per
second and latencies count the 2xx answers; anything else is an error, and
the first few are printed. Each phase also prints the CPU seconds each kind
of process used (web, delivery, database, the rest of the server, the
bench's clients, anything else on the machine: from /proc); the first
phase waits until the started server is idle (in a fresh checkout the bots
compile their search code once). PostgreSQL is a
throwaway server of the bench's own (Debian's binaries, default settings;
vacuumed and ANALYZEd after the bulk fill, as autovacuum soon would be).
Everything started is stopped and every temporary folder removed, also on
Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import hashlib
import json
import math
import os
import platform
import random
import re
import shutil
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, NoReturn

from sqlalchemy import Engine, MetaData, Table, create_engine, func, inspect, select, text

from pbem.games import get_game
from pbem.server import Server
from pbem.server.players.passwords import set_cost
from pbem.settings import load_settings
from pbem.store import ApiToken, User, make_engine, session_factory, upgrade

GAMES = ("vasco", "trugo", "vacu", "convacu")
PASSWORD = "benchpass1"
DOMAIN = "bench.test"
ADDRESS = f"pbem@{DOMAIN}"
BOARDS_PER_CLIENT = 20  # each API client cycles through boards of its own
MOST_MOVES = 300  # of a board's precomputed record
MOVER_BOARDS = 10  # at most this many burst moves per mover (the reply cap is 100 an hour)
RATED_PER_USER = 2  # finished boards per user, so the standings list every player
PAGE_CLIENTS = 8  # the heavier list pages run with at most this many clients
REQUEST_TIMEOUT = 30.0  # seconds one request may take before it counts as an error
START_TIMEOUT = 60.0  # for a server to answer GET /
DELIVERY_TIMEOUT = 120.0  # for the outbox to drain into the Maildir
SETTLE_TIMEOUT = 60.0  # for a started server to finish its start-up work
LARGE_USERS = 10_000
LARGE_BOARDS = 100_000
LARGE_EVENTS = 20_000  # rating events (two per finished board, for the first ones)
# Before the small figures, a few more users and boards in bulk, enough to
# fill every list page (its standings sections, its 200 boards, a player's
# boards and history): the large figures then differ from the small ones by
# the database's size alone, not by how much the pages show.
FULL_USERS = 400
FULL_BOARDS = 4_000
FULL_EVENTS = 2_000
BULK_FINISHED = 0.8  # the share of the bulk boards that are over
BULK_RATED_USERS = 0.9  # the share of users with a rating in the game
CHUNK = 5_000  # rows per bulk insert
YARDSTICK = """
import sys

import uvicorn
from fastapi import FastAPI

app = FastAPI()


@app.get("/")
def root() -> dict[str, str]:
    return {"hello": "world"}


config = uvicorn.Config(
    app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False
)
uvicorn.Server(config).run()
"""


class BenchError(RuntimeError):
    """Something the bench needs failed (a server that would not start)."""


def utc_now() -> datetime:
    """The server's clock: naive UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# ------------------------------------------------------------------ the figures


@dataclass
class Figures:
    """One phase's answers: latencies of the 2xx ones, and the errors."""

    name: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    samples: list[str] = field(default_factory=list)  # the first few errors, shortened
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by kind of process
    body_bytes: int = 0  # of the 2xx answers
    split: list[int] = field(default_factory=list)  # clients' connections per web process

    @property
    def mean_bytes(self) -> float:
        return self.body_bytes / len(self.latencies) if self.latencies else math.nan

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.samples) < 3:
            self.samples.append(" ".join(what.split())[:160])

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, share: float) -> float:
        """Milliseconds (nearest rank); NaN without answers."""
        if not self.latencies:
            return math.nan
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


ROW = "{:<26} | {:>10} | {:>8} | {:>8} | {:>6}"


def figure(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def print_row(figures: Figures) -> None:
    print(
        ROW.format(
            figures.name,
            figure(figures.rate),
            figure(figures.percentile(0.5)),
            figure(figures.percentile(0.99)),
            figures.errors,
        )
    )
    for sample in figures.samples:
        print(f"    error: {sample}")
    if figures.cpu:
        per = ""
        if figures.latencies:
            total = sum(figures.cpu.values()) - figures.cpu.get("other", 0.0)
            per = f"; {total / len(figures.latencies) * 1000:.1f} ms of CPU an answer"
        note(f"CPU seconds in {figures.seconds:.1f} s: {cpu_text(figures.cpu)}{per}")
    if len(figures.split) > 1:
        shares = ", ".join(str(count) for count in figures.split)
        note(f"connections per web process halfway: {shares}")
    sys.stdout.flush()


def note(line: str) -> None:
    print(f"    {line}", flush=True)


# ------------------------------------------------------------ where the CPU goes


def process_name(stat: str) -> str:
    """The name (comm) in a /proc/PID/stat line: what pbem sets with prctl."""
    return stat[stat.index("(") + 1 : stat.rindex(")")]


CPU_KINDS = {"pbem-web": "web", "pbem-delivery": "delivery"}  # by the names pbem gives them
# The sessions of the PostgreSQL servers this bench started (postgres_database):
# their processes are the "database"; another PostgreSQL on the machine is "other".
DATABASE_SESSIONS: set[int] = set()
# The sessions of the web proxies a bench started (bench/nginx.py): "proxy".
PROXY_SESSIONS: set[int] = set()


def processes_seen() -> Iterator[tuple[int, int, str, str]]:
    """Each process on this machine, from /proc: its pid, its session, its
    name (comm: what pbem sets with prctl) and the rest of its stat line."""
    for path in glob.glob("/proc/[0-9]*/stat"):
        try:
            data = Path(path).read_text()
        except OSError:
            continue  # it exited meanwhile
        fields = data[data.rindex(")") + 2 :]
        yield int(path.split("/")[2]), int(fields.split()[3]), process_name(data), fields


def cpu_by_kind(server_session: int | None) -> dict[str, float]:
    """CPU seconds used so far by each kind of process on this machine, from
    /proc: the server under test (its session: `pbem serve` started in one
    of its own, or the bare FastAPI) by its web and delivery processes and
    the rest (the SMTP listener, the tick, the bots), this bench's
    PostgreSQL, this bench (the clients) and everything else (other load on
    a shared machine, another pbem's processes among it, which makes a
    run's figures suspect). Empty without /proc."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    kinds: dict[str, float] = {}
    me = os.getpid()
    for pid, session, name, fields in processes_seen():
        counters = fields.split()
        used = (int(counters[11]) + int(counters[12])) / tick
        if server_session is not None and session == server_session:
            kind = CPU_KINDS.get(name, "server")
        elif session in DATABASE_SESSIONS or int(counters[1]) in DATABASE_SESSIONS:
            kind = "database"  # (the postmaster's session; each backend calls setsid)
        elif session in PROXY_SESSIONS:
            kind = "proxy"
        elif pid == me:
            kind = "bench"
        else:
            kind = "other"
        kinds[kind] = kinds.get(kind, 0.0) + used
    return kinds


def web_connections(port: int, server_session: int | None) -> list[int]:
    """How many connections to `port` each web process of the server under
    test holds now, busiest first, from /proc (empty without it). The
    processes take them from one socket (web_workers.py); if they split unevenly,
    the busier process answers slower, and a reader of the p99 should know."""
    wanted = f":{port:04X}"
    established: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[1].endswith(wanted) and fields[3] == "01":  # local port; ESTABLISHED
                    established.add(f"socket:[{fields[9]}]")
    counts = []
    for pid, session, name, _ in processes_seen():
        if session != server_session or name != "pbem-web":
            continue
        try:
            links = [os.readlink(fd) for fd in glob.glob(f"/proc/{pid}/fd/*")]
        except OSError:
            continue  # it exited meanwhile
        counts.append(sum(link in established for link in links))
    return sorted(counts, reverse=True)


def cpu_text(spent: dict[str, float]) -> str:
    return ", ".join(f"{kind} {seconds:.1f}" for kind, seconds in spent.items())


def settle(session: int, most: float = SETTLE_TIMEOUT) -> None:
    """Wait until the started server is idle, so no phase pays for its
    start-up: in a fresh checkout the bots' search processes compile their
    code once (numba, seconds of CPU) while the web already answers."""
    start = time.perf_counter()
    kinds = ("web", "delivery", "database", "server")
    before = cpu_by_kind(session)
    while time.perf_counter() - start < most:
        time.sleep(0.5)
        after = cpu_by_kind(session)
        busy = sum(cpu_spent(before, after).get(kind, 0.0) for kind in kinds)
        if busy < 0.05:  # (a tenth of a core)
            break
        before = after
    else:
        note(f"the server was still busy {most:.0f} s after it started (going on)")
        return
    waited = time.perf_counter() - start
    if waited > 1.5:
        note(f"waited {waited:.0f} s for the started server's own work to end (a first compile)")


def cpu_spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """What each kind used between two readings (a process that began or
    ended between them counts what it used while seen)."""
    order = ("web", "delivery", "database", "server", "proxy", "bench", "other")
    spent = {kind: after.get(kind, 0.0) - before.get(kind, 0.0) for kind in order}
    return {kind: max(0.0, seconds) for kind, seconds in spent.items() if kind in after}


# -------------------------------------------------------------- the HTTP client


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes = b""
    token: str = ""
    board: Board | None = None  # the board a move is for

    def encoded(self, port: int) -> bytes:
        lines = [f"{self.method} {self.path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
        if self.token:
            lines.append(f"Authorization: Bearer {self.token}")
        if self.body or self.method != "GET":
            lines += ["Content-Type: application/json", f"Content-Length: {len(self.body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + self.body


async def exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, data: bytes
) -> tuple[int, bytes, bool]:
    """Send one request, read its answer: the status, the body and whether
    the connection stays open."""
    writer.write(data)
    await writer.drain()
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split(" ", 2)[1])
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip().lower()
    keep = headers.get("connection") != "close"
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding") == "chunked":
        parts = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            parts.append((await reader.readexactly(size + 2))[:-2])
        while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
            pass
        body = b"".join(parts)
    elif status in (204, 304) or status < 200:
        body = b""
    else:
        body, keep = await reader.read(), False
    return status, body, keep


NextRequest = Callable[[], Request | None]  # None: this client has nothing more to do
Answered = Callable[[Request, int], None]  # the status; 0 for no answer


async def client(
    port: int, next_request: NextRequest, answered: Answered, deadline: float, figures: Figures
) -> None:
    """One keep-alive connection sending requests one after another until the deadline."""
    connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    try:
        while time.monotonic() < deadline:
            request = next_request()
            if request is None:
                return
            data = request.encoded(port)
            start = time.perf_counter()
            try:
                if connection is None:
                    connection = await asyncio.wait_for(
                        asyncio.open_connection("127.0.0.1", port), REQUEST_TIMEOUT
                    )
                status, body, keep = await asyncio.wait_for(
                    exchange(*connection, data), REQUEST_TIMEOUT
                )
            except (
                OSError,
                EOFError,
                TimeoutError,
                ValueError,
                IndexError,
                asyncio.LimitOverrunError,
            ) as error:
                figures.error(f"{request.method} {request.path}: {type(error).__name__} {error}")
                answered(request, 0)
                if connection is not None:
                    connection[1].close()
                connection = None
                continue
            elapsed = time.perf_counter() - start
            if 200 <= status < 300:
                figures.latencies.append(elapsed)
                figures.body_bytes += len(body)
            else:
                shown = body.decode("utf-8", "replace")
                figures.error(f"{status} {request.method} {request.path}: {shown}")
            answered(request, status)
            if not keep:
                connection[1].close()
                connection = None
    finally:
        if connection is not None:
            connection[1].close()


def load(
    name: str,
    port: int,
    drivers: Sequence[tuple[NextRequest, Answered]],
    seconds: float,
    server_session: int | None = None,
    server_port: int | None = None,
) -> Figures:
    """Run one client per driver for `seconds`; the figures of them all,
    with the CPU each kind of process used meanwhile. The clients talk to
    `port`; the server's web processes listen on `server_port` (another
    when a proxy stands between: bench/nginx.py), by default the same."""
    figures = Figures(name)

    async def everyone() -> None:
        deadline = time.monotonic() + seconds
        tasks = [client(port, ask, answered, deadline, figures) for ask, answered in drivers]
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), seconds + REQUEST_TIMEOUT + 10)
        except TimeoutError:
            figures.error("the phase overran its time and was cut short")

    start, cpu = time.perf_counter(), cpu_by_kind(server_session)
    halfway = threading.Timer(
        seconds / 2,
        lambda: figures.split.extend(web_connections(server_port or port, server_session)),
    )
    halfway.start()
    try:
        asyncio.run(everyone())
    finally:
        halfway.cancel()
    figures.seconds = time.perf_counter() - start
    figures.cpu = cpu_spent(cpu, cpu_by_kind(server_session))
    return figures


def ignore(_request: Request, _status: int) -> None:
    """For requests whose answer changes nothing."""


def pages(paths: Callable[[], str], clients: int) -> list[tuple[NextRequest, Answered]]:
    """Clients that GET a path `paths` picks, one after another."""
    return [(lambda: Request("GET", paths()), ignore) for _ in range(clients)]


# ------------------------------------------------------------------ the fill


@dataclass
class Board:
    """A board the bench plays on: its players (seat order) and a random
    record of (move text, seat to play it) that stops before the game ends."""

    id: int
    players: tuple[str, str]
    record: list[tuple[str, int]]
    played: int = 0
    dead: bool = False  # a move was refused: the record no longer fits

    @property
    def live(self) -> bool:
        return not self.dead and self.played < len(self.record)


@dataclass
class Plan:
    """What the fill made: the users, their tokens, and the boards."""

    game: str
    options: list[str]
    users: list[str]
    tokens: dict[str, str]
    api_boards: list[list[Board]]  # one list per client
    mail_boards: list[Board]
    fresh: list[list[list[Board]]] = field(default_factory=list)  # api_boards for later runs

    def next_boards(self) -> None:
        """The API's moves and the board pages go on to a fresh set of boards
        (the large run's): the boards moved before would have more moves, and
        a board's answers grow with its moves, not with the database."""
        self.api_boards = self.fresh.pop(0)

    def boards_with_moves(self) -> list[Board]:
        boards = [board for group in self.api_boards for board in group]
        return [board for board in boards if board.played] or boards


def random_record(game: str, options: list[str], rng: random.Random) -> list[tuple[str, int]]:
    """Random legal moves from the start, stopping before the game would end."""
    state = get_game(game).start(options)
    record: list[tuple[str, int]] = []
    while len(record) < MOST_MOVES and state.to_move is not None:
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        after = state.play(move)
        if after.result is not None:
            break
        record.append((state.move_text(move), state.to_move))
        state = after
    return record


def fill(
    engine: Engine, game: str, clients: int, mails: int, rng: random.Random, sets: int = 1
) -> Plan:
    """Users, tokens and boards through the command layer (so older code fills
    the same way); the challenges' mails are marked sent (setup, not load).
    `sets` of boards for the API's clients: one for each run."""
    options = ["-komi=5"] if game in ("vacu", "convacu") else []
    server = Server(session_factory(engine))
    count = max(clients, math.ceil(mails / MOVER_BOARDS), 4)
    users = [f"u{number}" for number in range(count)]
    start = time.perf_counter()
    for userid in users:
        refused(server.handle(f"{userid}@{DOMAIN}", f"signup {userid} {PASSWORD}"))
    signups = time.perf_counter() - start
    now = utc_now()
    tokens = {userid: f"pbem_bench_{number}" for number, userid in enumerate(users)}
    with server.sessions.begin() as session:
        ids = dict(session.execute(select(User.userid, User.id)).all())
        for userid, token in tokens.items():
            session.add(
                ApiToken(
                    user_id=ids[userid],
                    label="bench",
                    token_hash=hashlib.sha256(token.encode()).hexdigest(),
                    created_at=now,
                )
            )
    words = " ".join(options)
    made, recording = 0, 0.0

    def challenge() -> Board:
        nonlocal made, recording
        first, second = users[made % count], users[(made + 1 + made // count) % count]
        if first == second:
            second = users[(made + 1) % count]
        made += 1
        line = f"{game} challenge {first} {second} {words}".strip()
        sent = refused(server.handle(f"{first}@{DOMAIN}", line))
        begun = time.perf_counter()
        record = random_record(game, options, rng)
        recording += time.perf_counter() - begun
        return Board(board_of(sent), (first, second), record)

    start = time.perf_counter()
    api_sets = [
        [[challenge() for _ in range(BOARDS_PER_CLIENT)] for _ in range(clients)]
        for _ in range(sets)
    ]
    mail_boards = [challenge() for _ in range(mails)]
    challenges = time.perf_counter() - start - recording
    start = time.perf_counter()
    finished = sum(finish(server, game, challenge()) for _ in range(RATED_PER_USER * count))
    finishing = time.perf_counter() - start
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE outbox SET sent_at = :now WHERE sent_at IS NULL"), {"now": now}
        )
    note(
        f"filled: {count} users in {signups:.1f} s (argon2), "
        f"{made} challenges in {challenges:.1f} s, their random records in {recording:.1f} s, "
        f"{finished} of them played two moves and resigned (rated) in {finishing:.1f} s"
    )
    return Plan(game, options, users, tokens, api_sets[0], mail_boards, api_sets[1:])


def finish(server: Server, game: str, board: Board) -> int:
    """Two moves, then the player to move resigns: a finished, rated board
    (a resignation before one's first move would decline it, unrated).
    1 when done; 0 for a record too short to do it."""
    if len(board.record) < 3:
        return 0
    for move, seat in board.record[:2]:
        player = board.players[seat]
        line = f"{game} move {board.id} {player} {PASSWORD} {move}"
        refused(server.handle(f"{player}@{DOMAIN}", line))
    loser = board.players[board.record[2][1]]
    line = f"{game} resign {board.id} {loser} {PASSWORD}"
    refused(server.handle(f"{loser}@{DOMAIN}", line))
    return 1


def board_of(sent: Sequence[Any]) -> int:
    """The new board's number, from the challenge's mails."""
    for outgoing in sent:
        view = getattr(outgoing, "board", None)
        if view is not None:
            return int(view.board_id)
        found = re.search(r"Board (\d+)", outgoing.subject)
        if found:
            return int(found[1])
    raise BenchError(f"no board number in the challenge's mails: {sent!r:.300}")


def refused(sent: Any) -> Sequence[Any]:
    """The command's mails (what `Server.handle` answers, or its `mails`); a
    refusal stops the bench (the fill must work)."""
    sent = getattr(sent, "mails", sent)
    errors = [o for o in sent if getattr(o, "error", None)]
    if errors:
        raise BenchError(f"a fill command was refused: {errors[0].subject}: {errors[0].body[:300]}")
    return sent


def bulk_fill(
    engine: Engine,
    plan: Plan,
    rng: random.Random,
    more_users: int,
    more_boards: int,
    most_events: int,
    with_bench_users: bool = True,
) -> None:
    """More users and boards (most finished, none due for the tick, none old
    enough to archive), between them and, `with_bench_users`, the bench's
    users, with ratings and up to `most_events` rating events, by Core
    inserts of only the columns the schema has. The large fill leaves the
    bench's users out, so that their player pages list the same boards in
    both runs, on a database 25 times the size."""
    meta = MetaData()
    names = set(inspect(engine).get_table_names())
    tables = {
        name: Table(name, meta, autoload_with=engine)
        for name in ("users", "addresses", "boards", "board_players", "ratings", "rating_events")
        if name in names
    }
    game = get_game(plan.game)
    now = utc_now()
    with engine.begin() as connection:
        users, boards = tables["users"], tables["boards"]
        password_hash = connection.execute(
            select(users.c.password_hash).where(users.c.userid_key == plan.users[0])
        ).scalar_one()
        first_user = connection.execute(select(func.max(users.c.id))).scalar_one() + 1
        first_board = connection.execute(select(func.max(boards.c.id))).scalar_one() + 1
        bench_ids = list(
            connection.execute(
                select(users.c.id).where(users.c.userid_key.in_(plan.users))
            ).scalars()
        )
        rated: set[int] = set()
        if "ratings" in tables:
            ratings = tables["ratings"]
            rated = set(
                connection.execute(
                    select(ratings.c.user_id).where(ratings.c.game == plan.game)
                ).scalars()
            )
    new_ids = list(range(first_user, first_user + more_users))
    everyone = new_ids + bench_ids if with_bench_users else new_ids
    user_rows, address_rows, rating_rows = [], [], []
    for user_id in new_ids:
        userid = f"bulk{user_id}"
        user_rows.append(
            {
                "id": user_id,
                "userid": userid,
                "userid_key": userid,
                "password_hash": password_hash,
                "mail_preference": "every",
                "vacation": False,
                "signed_off": False,
                "created_at": now - timedelta(days=rng.uniform(30, 900)),
            }
        )
        address = f"{userid}@{DOMAIN}"
        address_rows.append({"user_id": user_id, "address": address, "address_key": address})
    for user_id in everyone:
        if user_id in rated or rng.random() > BULK_RATED_USERS:
            continue
        games = rng.randint(1, 80)
        wins = rng.randint(0, games)
        draws = rng.randint(0, games - wins) // 4
        rating_rows.append(
            {
                "user_id": user_id,
                "game": plan.game,
                "rating": rng.gauss(1600, 200),
                "games": games,
                "wins": wins,
                "losses": games - wins - draws,
                "draws": draws,
                "provisional_sum": 0.0,
                "seeking": 0,
                "last_played": now - timedelta(days=rng.uniform(0, 60)),
            }
        )
    options = game.parse_options(plan.options).to_json()
    state = game.start(plan.options)
    try:
        snapshot = state.to_json(legal_moves=False)
    except TypeError:  # an older game contract
        snapshot = state.to_json()
    board_rows, player_rows, event_rows = [], [], []
    for board_id in range(first_board, first_board + more_boards):
        finished = rng.random() < BULK_FINISHED
        # Finished within 13 days (nothing to archive), active ones moved within
        # 6 days (nothing to nag): the tick finds nothing due.
        updated = now - timedelta(days=rng.uniform(0.1, 13 if finished else 6))
        winner = rng.randint(0, 1) if finished else None
        first, second = rng.sample(everyone, 2)
        board_rows.append(
            {
                "id": board_id,
                "game": plan.game,
                "options": options,
                "status": "finished" if finished else "active",
                "version": 0,
                "snapshot": snapshot,
                "winner": winner,
                "result": f"seat {1 - winner} resigned" if finished else None,
                "nag_days": 7,
                "forfeit_days": 21,
                "rated": finished,  # a finished board not rated would be rated by any command
                "to_move": None if finished else 0,
                "due_at": None if finished else updated + timedelta(days=7),
                "created_at": updated - timedelta(days=rng.uniform(0, 30)),
                "updated_at": updated,
            }
        )
        for seat, user_id in enumerate((first, second)):
            player_rows.append(
                {
                    "board_id": board_id,
                    "seat": seat,
                    "user_id": user_id,
                    "accepted": True,
                    "active": not finished,
                }
            )
        if finished and len(event_rows) < most_events:
            for seat, (user_id, opponent) in enumerate(((first, second), (second, first))):
                before = rng.gauss(1600, 200)
                won = seat == winner
                event_rows.append(
                    {
                        "board_id": board_id,
                        "user_id": user_id,
                        "opponent_id": opponent,
                        "game": plan.game,
                        "outcome": 1.0 if won else 0.0,
                        "before": before,
                        "after": before + (16 if won else -16),
                        "created_at": updated,
                    }
                )
    with engine.begin() as connection:
        for name, rows in (
            ("users", user_rows),
            ("addresses", address_rows),
            ("boards", board_rows),
            ("board_players", player_rows),
            ("ratings", rating_rows),
            ("rating_events", event_rows),
        ):
            if name not in tables:
                note(f"no {name} table in this schema: skipped")
                continue
            table = tables[name]
            columns = set(table.c.keys())
            for start in range(0, len(rows), CHUNK):
                chunk = [
                    {key: value for key, value in row.items() if key in columns}
                    for row in rows[start : start + CHUNK]
                ]
                connection.execute(table.insert(), chunk)
        if engine.dialect.name == "postgresql":  # ids were given: move the sequences past them
            for name in ("users", "boards"):
                sequence = f"pg_get_serial_sequence('{name}', 'id')"
                connection.execute(text(f"SELECT setval({sequence}, max(id)) FROM {name}"))
    if engine.dialect.name == "postgresql":
        # What autovacuum would soon do after so many new rows (PostgreSQL 13
        # and later vacuum after inserts too): plans for the new sizes, and
        # no first vacuum of 100,000 boards in the middle of a measured phase.
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("VACUUM (ANALYZE)"))


# ---------------------------------------------------------------- the servers


@dataclass
class Running:
    """A started pbem server: where it listens and where its mail lands."""

    web_port: int
    smtp_port: int
    maildir: Path
    session: int | None = None  # the process session of `pbem serve` (its pid)


def wait_for_http(port: int, process: subprocess.Popen[bytes], log: Path, what: str) -> None:
    """Until GET / answers 200; fail with the log's tail if it dies or stays silent."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            fail(f"{what} exited with status {process.returncode}", log)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    fail(f"{what} did not answer GET / on port {port} within {START_TIMEOUT:.0f} s", log)


def fail(message: str, log: Path) -> NoReturn:
    tail = log.read_text(errors="replace").splitlines()[-30:] if log.exists() else []
    raise BenchError("\n".join([message + "; the end of its output:", *tail]))


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, a wait, then SIGKILL if it would not go."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextlib.contextmanager
def subprocess_server(
    args: list[str], cwd: Path, env: dict[str, str], log: Path, port: int, what: str
) -> Iterator[int]:
    """A server subprocess (its own session, so Ctrl-C reaches only the bench,
    which stops it), answering HTTP on `port`; its pid (and session id)."""
    with log.open("ab") as output:
        process = subprocess.Popen(
            args, cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_for_http(port, process, log, what)
        yield process.pid
    finally:
        stop(process)


@contextlib.contextmanager
def pbem_server(url: str, home: Path, **settings: str) -> Iterator[Running]:
    """`pbem serve` on the database, with free ports and a Maildir in `home`
    (and environment variables `settings`: PYTHONPATH, PBEM_...)."""
    running = Running(free_port(), free_port(), home / "mail")
    env = {
        **os.environ,
        "PBEM_DATABASE_URL": url,
        "PBEM_WEB_PORT": str(running.web_port),
        "PBEM_SMTP_PORT": str(running.smtp_port),
        "PBEM_MAILDIR": str(running.maildir),
        "PBEM_TICK_SECONDS": "86400",
        "PBEM_DELIVERY_SECONDS": "0.5",
        "PBEM_SECRET_KEY": "bench-secret-key-" + "k" * 23,
        "PBEM_ADDRESS": ADDRESS,
        **settings,
    }
    command = [sys.executable, "-m", "pbem.cli", "serve"]
    log = home / "serve.log"
    with subprocess_server(command, home, env, log, running.web_port, "pbem serve") as session:
        running.session = session
        settle(session)
        yield running


def yardstick(clients: int, seconds: float, home: Path) -> Figures:
    """A bare FastAPI app under uvicorn (configured as pbem's), in its own process."""
    port = free_port()
    command = [sys.executable, "-c", YARDSTICK, str(port)]
    with subprocess_server(
        command, home, dict(os.environ), home / "yardstick.log", port, "uvicorn"
    ) as session:
        return load("bare FastAPI GET /", port, pages(lambda: "/", clients), seconds, session)


@contextlib.contextmanager
def sqlite_database() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="pbem-bench-sqlite-") as folder:
        yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"


def as_postgres(args: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A throwaway PostgreSQL server of Debian's (default settings but
    listening on 127.0.0.1 only) with a `bench` database."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise BenchError("PostgreSQL's server programs are missing (apt-get install postgresql)")
    bindir = Path(found[-1]).parent
    home = Path(tempfile.mkdtemp(prefix="pbem-bench-postgres-"))
    data = home / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
        shutil.chown(data, "postgres")
    port = free_port()
    run: dict[str, Any] = {"check": True, "capture_output": True, "start_new_session": True}
    pg_ctl = str(bindir / "pg_ctl")
    started, session = False, 0
    try:
        initdb = [str(bindir / "initdb"), "-D", str(data), "-U", "pbem", "-A", "trust", "-N"]
        subprocess.run(as_postgres(initdb), **run)
        options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
        log = str(data / "server.log")
        started = True
        subprocess.run(
            as_postgres([pg_ctl, "-D", str(data), "-o", options, "-l", log, "-w", "start"]), **run
        )
        session = os.getsid(int((data / "postmaster.pid").read_text().split()[0]))
        DATABASE_SESSIONS.add(session)
        server = f"postgresql+psycopg://pbem@127.0.0.1:{port}"
        admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text("CREATE DATABASE bench"))
        admin.dispose()
        yield f"{server}/bench"
    finally:
        if started:
            stop_command = as_postgres([pg_ctl, "-D", str(data), "-w", "stop"])
            subprocess.run(stop_command, capture_output=True, start_new_session=True, check=False)
        DATABASE_SESSIONS.discard(session)
        shutil.rmtree(home, ignore_errors=True)


# ---------------------------------------------------------------- the phases


def move_drivers(plan: Plan) -> list[tuple[NextRequest, Answered]]:
    """One client per board group: a move on each live board in turn, so the
    opponent's move follows on the next round."""

    def driver(boards: list[Board]) -> tuple[NextRequest, Answered]:
        turn = 0

        def ask() -> Request | None:
            nonlocal turn
            for _ in range(len(boards)):
                board = boards[turn % len(boards)]
                turn += 1
                if board.live:
                    move, seat = board.record[board.played]
                    body = json.dumps({"move": move, "number": board.played + 1}).encode()
                    token = plan.tokens[board.players[seat]]
                    path = f"/api/{plan.game}/boards/{board.id}/move"
                    return Request("POST", path, body, token, board)
            return None

        def answered(request: Request, status: int) -> None:
            assert request.board is not None
            if status == 200:
                request.board.played += 1
            else:
                request.board.dead = True  # reported; its record may no longer fit

        return ask, answered

    return [driver(boards) for boards in plan.api_boards]


def unsent(url: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    text("SELECT count(*) FROM outbox WHERE sent_at IS NULL")
                ).scalar_one()
            )
    finally:
        engine.dispose()


def drain(url: str) -> None:
    """Wait until the outbox is delivered (the moves' board mails), and say how long."""
    start = time.perf_counter()
    waiting = unsent(url)
    while waiting and time.perf_counter() - start < DELIVERY_TIMEOUT:
        time.sleep(0.25)
        waiting = unsent(url)
    took = time.perf_counter() - start
    if waiting:
        note(f"outbox: {waiting} mails still undelivered after {took:.0f} s (going on)")
    else:
        note(f"outbox delivered {took:.1f} s after the phase ended")


def api_move(plan: Plan, running: Running, seconds: float) -> Figures:
    figures = load("API move", running.web_port, move_drivers(plan), seconds, running.session)
    boards = [board for group in plan.api_boards for board in group]
    spent = sum(1 for board in boards if not board.dead and not board.live)
    if spent:
        note(f"{spent} boards ran out of their record and were skipped")
    return figures


def page_phases(plan: Plan, running: Running, clients: int, seconds: float) -> list[Figures]:
    """The board page and JSON on boards with moves, the game list, the
    standings and player pages (the heavier lists with fewer clients)."""
    rng = random.Random(2)
    boards = plan.boards_with_moves()
    game = plan.game
    few, short = min(clients, PAGE_CLIENTS), max(1.0, seconds / 2)
    phases = [
        ("board page", lambda: f"/{game}/{rng.choice(boards).id}", clients, seconds),
        ("board JSON", lambda: f"/api/{game}/boards/{rng.choice(boards).id}", clients, seconds),
        ("game list", lambda: f"/{game}", few, short),
        ("standings", lambda: f"/{game}/standings", few, short),
        ("player page", lambda: f"/players/{rng.choice(plan.users)}", few, short),
    ]
    results = []
    for name, paths, count, duration in phases:
        results.append(load(name, running.web_port, pages(paths, count), duration, running.session))
        print_row(results[-1])
    return results


def count_mail(maildir: Path) -> int:
    try:
        return len(os.listdir(maildir / "new"))
    except FileNotFoundError:
        return 0


def wait_for_mail(maildir: Path, target: int, timeout: float) -> float | None:
    """Seconds until `target` mails are in the Maildir, None on time out."""
    start = time.perf_counter()
    while count_mail(maildir) < target:
        if time.perf_counter() - start > timeout:
            return None
        time.sleep(0.02)
    return time.perf_counter() - start


def mail(sender: str, subject: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ADDRESS
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=DOMAIN)
    message.set_content("Sent by bench.load.\n")
    return message.as_bytes()


def mail_burst(plan: Plan, running: Running) -> Figures:
    """Each burst board's first move, mailed all at once; the time from the
    burst's start to each 250, and then until every board mail arrived."""
    boards = [board for board in plan.mail_boards if board.live]
    movers = sorted({board.players[board.record[0][1]] for board in boards})
    before = count_mail(running.maildir)
    start = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", running.smtp_port, timeout=REQUEST_TIMEOUT) as smtp:
        for userid in movers:
            sender = f"{userid}@{DOMAIN}"
            smtp.sendmail(sender, [ADDRESS], mail(sender, f"mail {userid} {PASSWORD} every"))
    warm = time.perf_counter() - start
    note(
        f"warm-up: {len(movers)} mails, one per mover, in {warm:.1f} s (a first-ever "
        "password costs an argon2 check; the burst meets remembered ones)"
    )
    if wait_for_mail(running.maildir, before + len(movers), DELIVERY_TIMEOUT) is None:
        note("the warm-up's replies did not all arrive")
    time.sleep(1.0)  # anything else in flight lands before the count
    before = count_mail(running.maildir)
    figures = Figures(f"mail burst ({len(boards)} mails)")
    results: list[tuple[float, str] | None] = [None] * len(boards)
    began: list[float] = []
    barrier = threading.Barrier(len(boards), action=lambda: began.append(time.perf_counter()))

    def send(index: int, board: Board) -> None:
        move, seat = board.record[0]
        userid = board.players[seat]
        sender = f"{userid}@{DOMAIN}"
        subject = f"{plan.game} move {board.id} {userid} {PASSWORD} {move}#1"
        data = mail(sender, subject)
        try:
            barrier.wait(timeout=60)
            with smtplib.SMTP("127.0.0.1", running.smtp_port, timeout=DELIVERY_TIMEOUT) as smtp:
                smtp.sendmail(sender, [ADDRESS], data)
            outcome = ""
        except smtplib.SMTPResponseException as error:
            outcome = f"{error.smtp_code} {error.smtp_error.decode(errors='replace')}"
        except smtplib.SMTPRecipientsRefused as error:
            outcome = f"refused: {error.recipients}"
        except (OSError, smtplib.SMTPException, threading.BrokenBarrierError) as error:
            outcome = f"{type(error).__name__} {error}"
        results[index] = (time.perf_counter(), outcome)

    threads = [threading.Thread(target=send, args=pair, daemon=True) for pair in enumerate(boards)]
    cpu = cpu_by_kind(running.session)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=DELIVERY_TIMEOUT + 60)
    if not began:
        figures.error("the burst never started (the barrier broke)")
        return figures
    acknowledged = []
    for board, result in zip(boards, results, strict=True):
        if result is None:
            figures.error(f"board {board.id}: no answer in time")
        elif result[1]:
            figures.error(f"board {board.id}: {result[1]}")
        else:
            acknowledged.append(result[0])
            figures.latencies.append(result[0] - began[0])
            board.played = 1
    last = max(acknowledged, default=began[0])
    figures.seconds = last - began[0]
    print_row(figures)
    expected = before + 2 * len(boards)
    arrived = wait_for_mail(running.maildir, expected, DELIVERY_TIMEOUT)
    slowest = max(figures.latencies, default=math.nan) * 1000
    after = time.perf_counter() - last  # the Maildir is watched every 20 ms
    if arrived is None:
        got = count_mail(running.maildir) - before
        note(
            f"{len(acknowledged)} acknowledged, the last after {figure(slowest)} ms; only "
            f"{got} of {2 * len(boards)} board mails arrived within {DELIVERY_TIMEOUT:.0f} s"
        )
    else:
        note(
            f"{len(acknowledged)} acknowledged, the last after {figure(slowest)} ms; all "
            f"{2 * len(boards)} board mails in the Maildir {after:.1f} s after the last 250"
        )
    spent = cpu_text(cpu_spent(cpu, cpu_by_kind(running.session)))
    note(f"CPU seconds from the burst's start until its mails arrived: {spent}")
    return figures


def tick_twice(url: str) -> list[float]:
    """Milliseconds of two runs of the periodic job, from the bench's process."""
    engine = make_engine(url)
    try:
        server = Server(session_factory(engine))
        times, mailed = [], 0
        for _ in range(2):
            start = time.perf_counter()
            mailed += len(server.tick())
            times.append((time.perf_counter() - start) * 1000)
    finally:
        engine.dispose()
    print(f"{'tick, nothing due':<26} | {times[0]:.1f} ms, then {times[1]:.1f} ms ({mailed} mails)")
    sys.stdout.flush()
    return times


# --------------------------------------------------------------- the run


@dataclass
class Measured:
    """One database size's figures by phase, and its ticks."""

    phases: dict[str, Figures] = field(default_factory=dict)
    ticks: list[float] = field(default_factory=list)

    def add(self, figures: Figures) -> None:
        self.phases[figures.name] = figures


def measure_small(url: str, plan: Plan, home: Path, clients: int, seconds: float) -> Measured:
    measured = Measured()
    measured.add(yardstick(clients, seconds, home))
    print_row(measured.phases["bare FastAPI GET /"])
    with pbem_server(url, home) as running:
        measured.add(api_move(plan, running, seconds))
        print_row(measured.phases["API move"])
        drain(url)
        for figures in page_phases(plan, running, clients, seconds):
            measured.add(figures)
        measured.add(mail_burst(plan, running))
        measured.ticks = tick_twice(url)
    return measured


def measure_large(url: str, plan: Plan, home: Path, clients: int, seconds: float) -> Measured:
    """The same phases in the same order as `measure_small`: the pages come
    after the moves, so they meet boards the server has just moved, as in the
    small run (right after a start, each board's first page costs twice as
    much: its position is not in the process's memory yet). The moves and the
    board pages are on boards of their own, fresh as the small run's were,
    so that the pages and answers are the same size. The moves run as
    long as the small run's: a shorter phase weighs a fresh server's first
    second more, which is not the database's size."""
    measured = Measured()
    plan.next_boards()
    with pbem_server(url, home) as running:
        measured.add(api_move(plan, running, seconds))
        print_row(measured.phases["API move"])
        drain(url)
        for figures in page_phases(plan, running, clients, seconds):
            measured.add(figures)
        measured.ticks = tick_twice(url)
    return measured


def ratio(numerator: float, denominator: float) -> str:
    if math.isnan(numerator) or math.isnan(denominator) or not denominator:
        return "-"
    return f"{numerator / denominator:.2f}x"


def compare(small: Measured, large: Measured) -> None:
    """The large figures beside the small ones: how many times slower."""
    line = "{:<26} | {:>21} | {:>23} | {:>23} | {:>6} | {:>15}"
    print()
    print("large vs small database (x: small/large for requests/s, large/small for latency)")
    print(line.format("phase", "requests/s", "p50 ms", "p99 ms", "errors", "KB an answer"))
    for name, big in large.phases.items():
        was = small.phases.get(name)
        if was is None:
            continue
        cells = [f"{figure(was.rate)} > {figure(big.rate)} {ratio(was.rate, big.rate)}"]
        for share in (0.5, 0.99):
            before, after = was.percentile(share), big.percentile(share)
            cells.append(f"{figure(before)} > {figure(after)} {ratio(after, before)}")
        size = f"{figure(was.mean_bytes / 1000)} > {figure(big.mean_bytes / 1000)}"
        print(line.format(name, *cells, big.errors, size))
    if small.ticks and large.ticks:
        ticks = ", ".join(
            f"{before:.1f} > {after:.1f} ms {ratio(after, before)}"
            for before, after in zip(small.ticks, large.ticks, strict=True)
        )
        print(f"{'tick, nothing due':<26} | {ticks}")
    sys.stdout.flush()


def bench_database(kind: str, url: str, args: argparse.Namespace) -> None:
    rng = random.Random(1)
    print()
    print(f"== {kind}", flush=True)
    start = time.perf_counter()
    engine = make_engine(url)
    try:
        upgrade(engine)
        plan = fill(engine, args.game, args.clients, args.mails, rng, 2 if args.large else 1)
        bulk_fill(engine, plan, rng, FULL_USERS, FULL_BOARDS, FULL_EVENTS)
    finally:
        engine.dispose()
    note(
        f"fill took {time.perf_counter() - start:.1f} s, with {FULL_USERS} more users and "
        f"{FULL_BOARDS:,} more boards in bulk (so every list page is full)"
    )
    print(ROW.format("phase", "requests/s", "p50 ms", "p99 ms", "errors"), flush=True)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-home-") as folder:
        home = Path(folder)
        small = measure_small(url, plan, home, args.clients, args.seconds)
        if not args.large:
            return
        print()
        start = time.perf_counter()
        engine = make_engine(url)
        try:
            bulk_fill(engine, plan, rng, LARGE_USERS, LARGE_BOARDS, LARGE_EVENTS, False)
        finally:
            engine.dispose()
        print(
            f"== {kind}, large: {LARGE_USERS:,} more users, {LARGE_BOARDS:,} more boards "
            f"(bulk fill took {time.perf_counter() - start:.1f} s)"
        )
        print(ROW.format("phase", "requests/s", "p50 ms", "p99 ms", "errors"), flush=True)
        large = measure_large(url, plan, home, args.clients, args.seconds)
    compare(small, large)


def on_sigterm(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt  # so every `finally` stops what it started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--clients", type=int, default=32, help="concurrent HTTP connections")
    parser.add_argument("--seconds", type=float, default=10.0, help="of each HTTP phase")
    parser.add_argument("--large", action="store_true", help="again with 100,000 more boards")
    parser.add_argument("--game", choices=GAMES, default="trugo")
    parser.add_argument("--mails", type=int, default=200, help="moves in the mail burst")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.seconds <= 0 or args.mails < 1:
        parser.error("--clients, --seconds and --mails must be positive")
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, on_sigterm)
    set_cost(*load_settings().argon2_cost)  # the users it signs up, as the server it starts
    print(
        f"bench.load: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"game {args.game}, {args.clients} clients, {args.seconds:g} s a phase "
        f"(lists: {min(args.clients, PAGE_CLIENTS)} clients, {max(1.0, args.seconds / 2):g} s)"
    )
    print("requests/s and latencies count 2xx answers; p50/p99 in milliseconds", flush=True)
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    started = time.perf_counter()
    try:
        for kind in kinds:
            opened = sqlite_database() if kind == "sqlite" else postgres_database()
            with opened as url:
                bench_database(kind, url, args)
    except BenchError as error:
        print(f"bench.load failed: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; everything started was stopped", file=sys.stderr)
        return 130
    print(f"\nthe whole run took {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
