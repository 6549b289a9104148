"""The search benchmark runs and prints positive figures for our search; its
OpenSpiel yardstick is optional (the `bench` extra), so its absence is
simulated and reported."""

from __future__ import annotations

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
        float(line.split()[-1].removesuffix("/s"))
        for line in out.splitlines()
        if line.startswith("vacu (")
    ]
    assert len(rates) == 2 and all(rate > 0 for rate in rates), out
    assert "OpenSpiel is not installed" in out
