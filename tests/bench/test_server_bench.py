"""The server benchmark runs and prints a figure for each operation."""

from __future__ import annotations

import re
import sys

import pytest

from bench import server


def test_the_server_benchmark_prints_its_figures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["bench.server", "--rounds", "2"])
    server.main()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6
    assert all(re.search(r"\d+\.\d ms$", line) for line in lines), lines
    assert lines[0].startswith("mail command") and lines[-1].startswith("GET /api/")
