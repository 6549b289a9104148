"""The log holds back a flood of one kind of line, and says how many."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from pbem.host.logs import QUIET, RateLimit, configure
from tests.processes import Processes


def record(message: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("pbem.test", logging.INFO, __file__, 1, message, args, None)


def test_a_flood_is_cut_to_a_burst_and_then_summed_up(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    now = [100.0]
    monkeypatch.setattr("pbem.host.logs.time.monotonic", lambda: now[0])
    limit = RateLimit(burst=5, period=10)
    passed = [
        limit.filter(record("refused a connection from %s", f"10.0.0.{n}")) for n in range(1000)
    ]
    assert passed.count(True) == 5
    assert limit.filter(record("another kind of line"))  # other lines still pass
    now[0] += 11
    summary = record("refused a connection from %s", "10.0.0.1")
    assert limit.filter(summary) and "(and 995 more like it held back)" in summary.getMessage()


MAIL = (
    b"From: ann@example.org\r\nTo: pbem@games.test\r\nSubject: signup ann secret1\r\n"
    b"Message-ID: <quiet@example.org>\r\n\r\n"
)
DRAW = """
from pbem.host.logs import configure
from pbem.games import get_game
from pbem.server.views.pictures import svg_png

configure()
rules = get_game("vasco")
board = rules.new_state(rules.parse_options()).svg_board()
for _ in range(3):
    svg_png(board, 400)
print("drawn")
"""


def test_a_start_and_a_board_picture_log_no_library_chatter(
    processes: Processes, tmp_path: Path
) -> None:
    """A fresh database upgraded by `pbem receive` logs none of alembic's
    "setup plugin" lines, and a process drawing board pictures none of
    libvips's "threadpool completed" lines (one per picture before)."""
    env = processes.env(
        database_url=f"sqlite:///{tmp_path / 'pbem.sqlite3'}", address="pbem@games.test"
    )
    received = processes.run(
        [sys.executable, "-m", "pbem.cli", "receive"], input=MAIL, env=env, cwd=tmp_path
    )
    assert received.returncode == 0, received.stderr.decode()[-2000:]
    assert b"setup plugin" not in received.stderr, received.stderr.decode()[-2000:]
    drawn = processes.run([sys.executable, "-c", DRAW], env=env, cwd=tmp_path)
    assert drawn.returncode == 0 and drawn.stdout.strip() == b"drawn", drawn.stderr.decode()
    assert b"threadpool" not in drawn.stderr and b"pyvips" not in drawn.stderr, drawn.stderr


def test_the_quiet_libraries_still_say_what_goes_wrong() -> None:
    configure()
    try:
        for name in QUIET:
            quiet = logging.getLogger(name)
            assert not quiet.isEnabledFor(logging.INFO)
            assert quiet.isEnabledFor(logging.WARNING)
    finally:
        logging.basicConfig(force=True)
