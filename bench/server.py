"""How long the server takes to answer: a mail command, a composed board
mail, and the web pages and API, on a SQLite database in a temporary folder.

`python -m bench.server` plays a few Trugo moves, then times each operation
many times and prints milliseconds per operation (the median of the
rounds). No network is involved: the web is timed through its ASGI app.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from pbem.mail.compose import compose
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine, session_factory, upgrade
from pbem.web import create_app

OPENING = ["a0,0", "a1,-1", "a2,0", "a0,1", "a1,0"]


def timed(operation: Callable[[], object], rounds: int) -> float:
    """Milliseconds per call, the median of `rounds` calls (after one warm-up)."""
    operation()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        operation()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        upgrade(engine)
        server = Server(session_factory(engine))
        for name in ("alice", "bob"):
            server.handle(f"{name}@example.org", f"signup {name} pw-{name}")
        server.handle("alice@example.org", "trugo challenge alice bob")
        for number, move in enumerate(OPENING, 1):
            who = "alice" if number % 2 else "bob"
            server.handle(f"{who}@example.org", f"trugo move 1 {who} pw-{who} {move}#{number}")
        settings = Settings(address="pbem@bench.test", web_url="http://bench.test")
        figures = {
            "mail command 'trugo show 1'": timed(
                lambda: server.handle("x@example.org", "trugo show 1"), rounds
            )
        }
        with server.sessions() as session:  # (a session holds SQLite's lock: no commands here)
            row = session.scalars(
                select(OutboxMessage).where(OutboxMessage.board_id.is_not(None))
            ).all()[-1]
            row.message_id = "<bench@bench.test>"
            figures["compose a board mail (PNG cached)"] = timed(
                lambda: compose(session, row, settings).as_bytes(), rounds
            )
        client = TestClient(create_app(server, Settings(secret_key="k" * 40)))
        for path in ("/", "/trugo", "/trugo/1", "/api/trugo/boards/1"):
            figures[f"GET {path}"] = timed(lambda path=path: client.get(path), rounds)
        engine.dispose()
    for what, ms in figures.items():
        print(f"{what:<40} {ms:7.1f} ms")


if __name__ == "__main__":
    main()
