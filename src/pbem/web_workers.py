"""The web door in several processes, so pages and moves use every core.

One Python process runs one thread of Python at a time, and a page or a move
is mostly Python (the rules, the drawings, the JSON). So `pbem serve` binds
the web port itself and hands it to `web_workers` child processes, each
running the web door on its own engine. Each process gets a listening socket
of its own on the one port (SO_REUSEPORT), and the kernel spreads the
connections among them: with one socket shared, the first process to wake
took every connection waiting (asyncio accepts all it finds), so a burst of
32 clients all landed on one process while the other idled. The SMTP
listener, the outbox delivery and the tick stay in the main process.
Nothing a worker keeps in memory needs to be shared: every cache is keyed
by what it shows (a board's version, a stored password hash), so any
process may answer any request.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
from dataclasses import dataclass, field
from typing import Any

import uvicorn

from .connections import CappedHttp
from .processes import ChildProcesses, name_this_process, quieter_collector
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


BACKLOG = 2048  # connections each socket's queue holds before the kernel refuses more


def listening_sockets(
    host: str, port: int, count: int
) -> tuple[socket.socket, list[socket.socket]]:
    """A socket on the web port for each of `count` workers, and the guard
    that keeps the port ours: SO_REUSEPORT lets any process of this user
    bind the port too, so a second `pbem serve` started by mistake would
    quietly take a share of the connections. The guard, a name in Linux's
    abstract socket namespace (gone when this process is), makes it fail
    as a port in use does."""
    guard = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sockets: list[socket.socket] = []
    try:
        guard.bind(f"\0pbem-web {host}:{port}" if port else "")
        for _ in range(count):
            sock = socket.create_server((host, port), backlog=BACKLOG, reuse_port=True)
            sockets.append(sock)
            port = port or sock.getsockname()[1]
    except OSError as error:
        for sock in [guard, *sockets]:
            sock.close()
        reason = "in use" if error.errno == errno.EADDRINUSE else error.strerror
        raise OSError(
            f"The web door could not listen on {host}:{port} ({reason}): "
            "set PBEM_WEB_PORT to a free port."
        ) from None
    return guard, sockets


def run_worker(settings: Settings, url: str, sock: socket.socket) -> None:
    """One web process: the web door on its own engine, on its own socket,
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


@dataclass
class WebWorkers:
    """The web processes, started, kept running and stopped by `pbem serve`."""

    settings: Settings
    url: str
    count: int
    guard: socket.socket = field(init=False)
    sockets: list[socket.socket] = field(init=False)
    children: ChildProcesses = field(init=False)

    def __post_init__(self) -> None:
        where = (self.settings.web_host, self.settings.web_port)
        self.guard, self.sockets = listening_sockets(*where, self.count)
        self.children = ChildProcesses(
            "pbem-web",
            self.count,
            run_worker,
            lambda index: (self.settings, self.url, self.sockets[index]),
        )

    def start(self) -> None:
        self.children.start()
        log.info("the web door runs in %d processes", self.count)

    def keep_running(self) -> None:
        self.children.keep_running()

    def stop(self, timeout: float = 20.0) -> None:
        self.children.stop(timeout, terminate=True)  # SIGTERM: uvicorn's graceful shutdown
        for sock in [*self.sockets, self.guard]:
            sock.close()
