"""The web door as docs/operations.md deploys it: Debian's nginx in front of
`pbem serve`, driven by bench.load's clients, one or more versions of pbem
side by side.

`python -m bench.nginx [--tree LABEL=PATH ...] [--proxy plain|keepalive|both]
[--db postgresql|sqlite] [--rounds 3] [--clients 32] [--seconds 8]` fills one
database as bench.load does, then, round after round, starts for each proxy
setting and each tree (a checkout: its `src/` goes first on PYTHONPATH, so
an older pbem runs with this virtualenv) `pbem serve` with two web
processes and no bots, and a throwaway nginx in front of it (a prefix,
configuration, pid and logs of its own in a temporary folder, on 127.0.0.1
at a free port), and runs bench.load's phases through nginx: moves through
the JSON API, the board page, the board's JSON, the game list. The trees
take turns, in the opposite order each round, so a machine that gets busier
(or boards that grow) weigh on each the same; the last table gives each
tree's median over the rounds and, when there are two trees, the second's
figures over the first's.

The proxy settings, each Debian's nginx.conf (worker_processes auto, access
log, gzip) with a `location /` block: `keepalive`, the one
docs/operations.md shows (an upstream pool of kept-alive connections:
HTTP/1.1, `keepalive 32`, idle ones dropped before uvicorn's own 5 s
would); `plain`, the one it showed before (nginx then speaks HTTP/1.0 to
pbem, a new connection for each request). Each phase also says how the proxy's connections to pbem
fell among the web processes halfway, and the CPU each kind of process used
(nginx is "proxy").

Everything runs on 127.0.0.1; every server started is stopped and every
temporary folder removed, also on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import text

from bench import load as bench
from pbem.server.players.passwords import set_cost
from pbem.settings import load_settings
from pbem.store import make_engine, upgrade

NGINX = "/usr/sbin/nginx"
ROOT = Path(__file__).resolve().parents[1]
PROXIES = ("plain", "keepalive")
NGINX_TIMEOUT = 10.0  # for nginx to answer
# Debian's /etc/nginx/nginx.conf, its own paths moved into the bench's folder.
MAIN = """\
worker_processes auto;
pid {home}/nginx.pid;
error_log {home}/error.log;
events {{
    worker_connections 768;
}}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {home}/access.log;
    gzip on;
    client_body_temp_path {home}/temp/body;
    proxy_temp_path {home}/temp/proxy;
    fastcgi_temp_path {home}/temp/fastcgi;
    uwsgi_temp_path {home}/temp/uwsgi;
    scgi_temp_path {home}/temp/scgi;
{upstream}
    server {{
        listen 127.0.0.1:{port};
{location}
    }}
}}
"""
# docs/operations.md's block until 2026-12-07: HTTP/1.0, a connection a request.
PLAIN = """\
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
"""
# docs/operations.md's blocks (tests/bench/test_nginx_bench.py holds them
# equal): a pool of kept-alive connections to pbem, HTTP/1.1, no Connection
# header passed on, and idle connections dropped after 4 s, before uvicorn
# drops them (5 s) and a request could meet one closing.
KEEPALIVE_UPSTREAM = """\
    upstream pbem {{
        server 127.0.0.1:{upstream};
        keepalive 32;
        keepalive_timeout 4s;
    }}
"""
KEEPALIVE = """\
        location / {{
            proxy_pass http://pbem;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
"""


def nginx_conf(home: Path, port: int, upstream: int, proxy: str) -> str:
    if proxy == "plain":
        pool, location = "", PLAIN.format(upstream=upstream)
    else:
        pool, location = KEEPALIVE_UPSTREAM.format(upstream=upstream), KEEPALIVE.format()
    return MAIN.format(home=home, port=port, upstream=pool, location=location)


@contextlib.contextmanager
def nginx(home: Path, upstream: int, proxy: str) -> Iterator[int]:
    """Debian's nginx in front of 127.0.0.1:`upstream`, in the foreground in
    a session of its own (its pid is the session's id, recorded as the
    proxy's for the CPU figures); the port it listens on."""
    if not os.access(NGINX, os.X_OK):
        raise bench.BenchError(f"nginx is missing ({NGINX}; Debian: apt-get install nginx)")
    home.mkdir()
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (home / "temp" / name).mkdir(parents=True)
        (home / "temp" / name).chmod(0o777)  # (its workers run as nobody under root)
    port = bench.free_port()
    conf = home / "nginx.conf"
    conf.write_text(nginx_conf(home, port, upstream, proxy))
    command = [NGINX, "-p", str(home), "-c", str(conf), "-g", "daemon off;"]
    log = home / "nginx.out"
    with log.open("ab") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    bench.PROXY_SESSIONS.add(process.pid)
    try:
        bench.wait_for_http(port, process, home / "error.log", "nginx")
        yield port
    finally:
        bench.stop(process)  # (SIGTERM: nginx's fast shutdown, workers and all)
        bench.PROXY_SESSIONS.discard(process.pid)


# ---------------------------------------------------------------- the phases


def phases(
    url: str, plan: bench.Plan, port: int, running: bench.Running, clients: int, seconds: float
) -> list[bench.Figures]:
    """bench.load's moves (then their mails marked sent), board page, board
    JSON and game list, through the proxy on `port`."""
    where = {"server_session": running.session, "server_port": running.web_port}
    results = [bench.load("API move", port, bench.move_drivers(plan), seconds, **where)]
    bench.print_row(results[-1])
    sent(url)
    rng = random.Random(2)
    boards = plan.boards_with_moves()
    game = plan.game
    few = min(clients, bench.PAGE_CLIENTS)
    pages = [
        ("board page", lambda: f"/{game}/{rng.choice(boards).id}", clients, seconds),
        ("board JSON", lambda: f"/api/{game}/boards/{rng.choice(boards).id}", clients, seconds),
        ("game list", lambda: f"/{game}", few, max(1.0, seconds / 2)),
    ]
    for name, paths, count, duration in pages:
        results.append(bench.load(name, port, bench.pages(paths, count), duration, **where))
        bench.print_row(results[-1])
    return results


def sent(url: str) -> None:
    """The moves' mails marked sent, as the fill's are: delivering them is
    bench.load's to measure, and on a busy machine it took the next phases'
    CPU, or a minute of waiting for it, without telling the trees apart."""
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("UPDATE outbox SET sent_at = :now WHERE sent_at IS NULL"),
                {"now": bench.utc_now()},
            )
    finally:
        engine.dispose()


# ---------------------------------------------------------------- the run


@dataclass
class Runs:
    """Each (proxy, tree)'s figures by phase, one per round."""

    figures: dict[tuple[str, str, str], list[bench.Figures]] = field(default_factory=dict)

    def add(self, proxy: str, tree: str, measured: list[bench.Figures]) -> None:
        for figures in measured:
            self.figures.setdefault((proxy, tree, figures.name), []).append(figures)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def summary(runs: Runs, proxies: Sequence[str], trees: Sequence[str]) -> None:
    """Per proxy and phase: each tree's median over the rounds (requests a
    second, p50, p99, errors, the split halfway) and, with two trees, the
    second's over the first's, round by round."""
    line = "{:<10} | {:<12} | {:<17} | {:>8} | {:>7} | {:>7} | {:>6} | {}"
    print()
    print("medians over the rounds (requests/s; p50 and p99 in ms; errors in all rounds)")
    print(line.format("proxy", "phase", "tree", "req/s", "p50", "p99", "errors", "split"))
    names = sorted({name for (_, _, name) in runs.figures}, key=PHASE_ORDER.index)
    for proxy in proxies:
        for name in names:
            for tree in trees:
                rounds = runs.figures.get((proxy, tree, name), [])
                splits = " ".join("/".join(map(str, f.split)) for f in rounds if f.split)
                print(
                    line.format(
                        proxy,
                        name,
                        tree,
                        bench.figure(median([f.rate for f in rounds])),
                        bench.figure(median([f.percentile(0.5) for f in rounds])),
                        bench.figure(median([f.percentile(0.99) for f in rounds])),
                        sum(f.errors for f in rounds),
                        splits,
                    )
                )
            if len(trees) == 2:
                first = runs.figures.get((proxy, trees[0], name), [])
                second = runs.figures.get((proxy, trees[1], name), [])
                pairs = list(zip(first, second, strict=False))
                rate = [b.rate / a.rate for a, b in pairs if a.rate]
                p50 = [b.percentile(0.5) / a.percentile(0.5) for a, b in pairs if a.latencies]
                p99 = [b.percentile(0.99) / a.percentile(0.99) for a, b in pairs if a.latencies]
                print(
                    f"{'':<10} | {'':<12} | {trees[1] + '/' + trees[0]:<17} | "
                    f"req/s {ratios(rate)}; p50 {ratios(p50)}; p99 {ratios(p99)}"
                )
    sys.stdout.flush()


PHASE_ORDER = ["API move", "board page", "board JSON", "game list"]


def ratios(values: Sequence[float]) -> str:
    if not values:
        return "-"
    shown = " ".join(f"{value:.2f}" for value in values)
    return f"{median(values):.2f}x ({shown})"


def tree_argument(text: str) -> tuple[str, Path]:
    label, _, path = text.rpartition("=")
    source = Path(path).resolve() / "src"
    if not label or not (source / "pbem" / "__init__.py").exists():
        raise argparse.ArgumentTypeError(f"{text!r}: want LABEL=CHECKOUT (with src/pbem in it)")
    return label, source


def run(args: argparse.Namespace, url: str) -> Runs:
    rng = random.Random(1)
    engine = make_engine(url)
    try:
        upgrade(engine)
        plan = bench.fill(engine, args.game, args.clients, 1, rng)
        bench.bulk_fill(engine, plan, rng, bench.FULL_USERS, bench.FULL_BOARDS, bench.FULL_EVENTS)
    finally:
        engine.dispose()
    proxies = PROXIES if args.proxy == "both" else (args.proxy,)
    runs = Runs()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-nginx-") as folder:
        home = Path(folder)
        made = 0
        for number in range(args.rounds):
            trees = args.trees if number % 2 == 0 else args.trees[::-1]
            for proxy in proxies:
                for label, source in trees:
                    print(f"\n== round {number + 1}, {proxy} proxy, {label}", flush=True)
                    print(bench.ROW.format("phase", "requests/s", "p50 ms", "p99 ms", "errors"))
                    made += 1
                    (home / f"serve-{made}").mkdir()
                    settings = {
                        "PYTHONPATH": os.pathsep.join([str(source), str(ROOT)]),
                        "PBEM_WEB_WORKERS": str(args.web_processes),
                        "PBEM_BOT_PROCESSES": "0",
                    }
                    with (
                        bench.pbem_server(url, home / f"serve-{made}", **settings) as running,
                        nginx(home / f"nginx-{made}", running.web_port, proxy) as port,
                    ):
                        runs.add(
                            proxy,
                            label,
                            phases(url, plan, port, running, args.clients, args.seconds),
                        )
    summary(runs, proxies, [label for label, _ in args.trees])
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree",
        dest="trees",
        action="append",
        type=tree_argument,
        help="LABEL=CHECKOUT, once per version of pbem (default: this checkout)",
    )
    parser.add_argument("--proxy", choices=[*PROXIES, "both"], default="both")
    parser.add_argument("--db", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=32, help="connections to nginx")
    parser.add_argument("--seconds", type=float, default=8.0, help="of each phase")
    parser.add_argument("--web-processes", type=int, default=2, help="PBEM_WEB_WORKERS")
    parser.add_argument("--game", choices=bench.GAMES, default="trugo")
    args = parser.parse_args(argv)
    args.trees = args.trees or [("this", ROOT / "src")]
    if args.rounds < 1 or args.clients < 1 or args.seconds <= 0 or args.web_processes < 1:
        parser.error("--rounds, --clients, --seconds and --web-processes must be positive")
    if len({label for label, _ in args.trees}) != len(args.trees):
        parser.error("each --tree needs a label of its own")
    if threading.current_thread() is threading.main_thread():
        import signal

        signal.signal(signal.SIGTERM, bench.on_sigterm)
    set_cost(*load_settings().argon2_cost)
    print(
        f"bench.nginx: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{shutil.which('nginx') or NGINX}, {args.db}, {args.clients} clients, "
        f"{args.seconds:g} s a phase, {args.rounds} rounds, trees "
        + ", ".join(f"{label}={source.parent}" for label, source in args.trees),
        flush=True,
    )
    started = time.perf_counter()
    try:
        if not os.access(NGINX, os.X_OK):
            raise bench.BenchError(f"nginx is missing ({NGINX}; Debian: apt-get install nginx)")
        opened = bench.sqlite_database() if args.db == "sqlite" else bench.postgres_database()
        with opened as url:
            run(args, url)
    except bench.BenchError as error:
        print(f"bench.nginx failed: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; everything started was stopped", file=sys.stderr)
        return 130
    print(f"\nthe whole run took {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
