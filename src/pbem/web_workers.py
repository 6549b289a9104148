"""The web door in several processes, so pages and moves use every core.

One Python process runs one thread of Python at a time, and a page or a move
is mostly Python (the rules, the drawings, the JSON). So `pbem serve` binds
the web port itself and hands the listening socket to `web_workers` child
processes, each running the web door on its own engine; the kernel spreads
the connections among them. The SMTP listener, the outbox delivery and the
tick stay in the main process. Nothing a worker keeps in memory needs to be
shared: every cache is keyed by what it shows (a board's version, a stored
password hash), so any process may answer any request.
"""

from __future__ import annotations

import gc
import logging
import os
import socket
from dataclasses import dataclass, field
from typing import Any

import uvicorn

from .connections import CappedHttp
from .processes import ChildProcesses, name_this_process
from .settings import Settings

log = logging.getLogger("pbem.serve")
SHUTDOWN_GRACE_SECONDS = 10  # for requests in hand when the server stops


class StoppingServer(uvicorn.Server):
    """uvicorn, ending the web door's live streams (web/live.py) as it
    begins to stop, so a stop waits for the requests in hand and not for
    every open board page's stream to run out (up to 25 s). Whatever still
    runs after SHUTDOWN_GRACE_SECONDS is cancelled."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        from .web.live import end_streams

        end_streams(self.config.app)
        await super().shutdown(sockets)


def web_server(app: Any, log_level: str = "warning", **where: Any) -> StoppingServer:
    """uvicorn as pbem runs it, for `app`, listening where `where` says
    (host and port; or none, for the sockets given to `run`)."""
    config = uvicorn.Config(
        app,
        **where,
        log_level=log_level,
        log_config=None,  # our logging (pbem.logs): one format, rate-limited
        http=CappedHttp,  # at most so many connections from one address
        access_log=False,  # form posts are logged by path only, never their fields
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )
    return StoppingServer(config)


def worker_count(setting: int) -> int:
    """How many web processes `web_workers` asks for: 0 means one per CPU
    this process may use (at most 8)."""
    if setting > 0:
        return setting
    return max(1, min(8, len(os.sched_getaffinity(0))))


def listening_socket(host: str, port: int) -> socket.socket:
    """The web port, bound once here and shared by every worker."""
    try:
        return socket.create_server((host, port), backlog=2048)
    except OSError as error:
        raise OSError(
            f"The web door could not listen on {host}:{port} ({error.strerror}): "
            "set PBEM_WEB_PORT to a free port."
        ) from None


def run_worker(settings: Settings, url: str, sock: socket.socket) -> None:
    """One web process: the web door on its own engine, on the shared socket,
    until SIGTERM or SIGINT (uvicorn finishes the requests in hand first)."""
    from .logs import configure
    from .server import Server
    from .store import make_engine, session_factory
    from .web import create_app

    name_this_process("pbem-web")
    configure()
    engine = make_engine(url)
    server = web_server(create_app(Server(session_factory(engine)), settings))
    quieter_collector()
    try:
        server.run(sockets=[sock])
    finally:
        engine.dispose()


def quieter_collector() -> None:
    """Fewer, cheaper pauses of the garbage collector in a web process:
    what start-up made (modules, routes, the games' tables) is set aside
    for good (gc.freeze), and the youngest objects are collected after
    20,000 allocations instead of 700, so a request is rarely paused by a
    collection, and an old-generation collection walks the caches less
    often. Measured with bench.load's moves (SQLite, interleaved runs):
    p99 about 210 ms against 265 ms before."""
    gc.freeze()
    gc.set_threshold(20_000, 50, 1_000)


@dataclass
class WebWorkers:
    """The web processes, started, kept running and stopped by `pbem serve`."""

    settings: Settings
    url: str
    count: int
    sock: socket.socket = field(init=False)
    children: ChildProcesses = field(init=False)

    def __post_init__(self) -> None:
        self.sock = listening_socket(self.settings.web_host, self.settings.web_port)
        self.children = ChildProcesses(
            "pbem-web", self.count, run_worker, lambda _index: (self.settings, self.url, self.sock)
        )

    def start(self) -> None:
        self.children.start()
        log.info("the web door runs in %d processes", self.count)

    def keep_running(self) -> None:
        self.children.keep_running()

    def stop(self, timeout: float = 20.0) -> None:
        self.children.stop(timeout, terminate=True)  # SIGTERM: uvicorn's graceful shutdown
        self.sock.close()
