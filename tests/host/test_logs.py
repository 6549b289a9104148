"""The log holds back a flood of one kind of line, and says how many."""

from __future__ import annotations

import logging

from pbem.host.logs import RateLimit


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
