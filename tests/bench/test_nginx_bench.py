"""The nginx benchmark runs end to end, as a host runs it: Debian's nginx in
front of `pbem serve`, both proxy settings, a row for every phase, a
summary, and nothing left running."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bench.nginx import KEEPALIVE, KEEPALIVE_UPSTREAM, NGINX, PHASE_ORDER, PROXIES, nginx_conf
from tests.processes import Processes

ROOT = Path(__file__).resolve().parents[2]


def nginx_processes() -> list[str]:
    """The command lines of the nginx processes a bench started (its
    prefix is a temporary folder named so)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if args and b"nginx" in args[0] and any(b"pbem-bench-nginx-" in arg for arg in args):
            found.append(b" ".join(args).decode(errors="replace"))
    return found


def test_the_nginx_benchmark_runs_every_phase_through_both_proxies(
    processes: Processes,
) -> None:
    if not os.access(NGINX, os.X_OK):
        pytest.fail(f"the nginx benchmark needs Debian's nginx ({NGINX}): apt-get install nginx")
    # (the fewest clients and seconds that still run every phase)
    command = [sys.executable, "-m", "bench.nginx", "--db", "sqlite", "--rounds", "1"]
    command += ["--clients", "2", "--seconds", "1"]
    run = processes.run(command, cwd=ROOT, text=True, timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "Traceback" not in output, output
    lines = run.stdout.splitlines()
    for proxy in PROXIES:
        assert f"== round 1, {proxy} proxy, this" in run.stdout, output
        for phase in PHASE_ORDER:
            rows = [line for line in lines if line.startswith(f"{proxy:<10} | {phase:<12} |")]
            assert len(rows) == 1, f"no summary row for {proxy} {phase}:\n{output}"
            assert rows[0].split("|")[6].strip() == "0", rows[0]  # no errors
    spent = [line for line in lines if "CPU seconds in" in line]
    assert len(spent) == 2 * len(PHASE_ORDER) and all("proxy " in s for s in spent), output
    assert nginx_processes() == []  # the bench stopped what it started


def directives(text: str) -> list[str]:
    """An nginx configuration's lines, stripped, without blanks and comments."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def test_the_keepalive_proxy_is_what_operations_md_shows() -> None:
    """What bench.nginx measures as `keepalive` is docs/operations.md's
    nginx configuration, line for line."""
    operations = (ROOT / "docs" / "operations.md").read_text()
    shown = operations.split("With nginx:\n\n```\n")[1].split("```")[0]
    measured = KEEPALIVE_UPSTREAM.format(upstream=8000) + KEEPALIVE.format()
    assert directives(shown) == directives(measured)
    plain = nginx_conf(Path("/tmp/x"), 1, 2, "plain")
    assert "upstream" not in plain and "proxy_pass http://127.0.0.1:2;" in plain


def test_a_missing_nginx_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import nginx as bench_nginx
    from bench.load import BenchError

    monkeypatch.setattr(bench_nginx, "NGINX", str(tmp_path / "nginx"))
    with (
        pytest.raises(BenchError, match="apt-get install nginx"),
        bench_nginx.nginx(tmp_path / "home", 1, "plain"),
    ):
        pass
