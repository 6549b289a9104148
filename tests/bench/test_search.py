"""The search benchmark runs and prints positive figures for our search; its
OpenSpiel yardstick is optional (the `bench` extra), so its absence is
simulated and reported."""

from __future__ import annotations

import re
import sys

import pytest

from bench.search import main


def test_prints_our_iterations_and_says_when_openspiel_is_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import fails as if not installed
    assert main(["--seconds", "0.3", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    rates = [
        float(re.search(r"([\d.]+)/s", line).group(1))  # type: ignore[union-attr]
        for line in out.splitlines()
        if line.startswith("vacu (")
    ]
    assert len(rates) == 3 and all(rate > 0 for rate in rates), out  # compiled, Python, UCT
    assert "OpenSpiel is not installed" in out
