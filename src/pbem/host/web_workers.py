"""The web door in several processes, so pages and moves use every core.

One Python process runs one thread of Python at a time, and a page or a move
is mostly Python (the rules, the drawings, the JSON). So `pbem serve` binds
the web port itself, one socket for each `web_workers` child process
(SO_REUSEPORT: the kernel spreads new connections among them), and each
process runs the web door on its own engine, uvicorn serving its socket
(`Server.run(sockets=...)`, as under gunicorn). Behind nginx, as
docs/operations.md sets it up, that served as well as the load-aware
acceptor it replaced (docs/performance.md).
The SMTP listener, the outbox delivery and the tick stay in the main
process. Nothing a worker keeps in memory needs to be shared: every cache
is keyed by what it shows (a board's version, a stored password hash), so
any process may answer any request.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
from dataclasses import dataclass, field
from typing import Any

import uvicorn

from ..settings import Settings
from .processes import ChildProcesses, name_this_process, quieter_collector
from .web_connections import CappedHttp

log = logging.getLogger("pbem.serve")
SHUTDOWN_GRACE_SECONDS = 10  # for requests in hand when the server stops


class StoppingServer(uvicorn.Server):
    """uvicorn, ending the web door's live streams (web/live.py) as it
    begins to stop, so a stop waits for the requests in hand and not for
    every open board page's stream to run out (up to 25 s). Whatever still
    runs after SHUTDOWN_GRACE_SECONDS is cancelled."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        from ..web.live import end_streams

        end_streams(self.config.app)
        await super().shutdown(sockets)


def web_server(app: Any, log_level: str = "warning", **where: Any) -> StoppingServer:
    """uvicorn as pbem runs it, for `app`, listening where `where` says
    (host and port)."""
    return StoppingServer(web_config(app, log_level, **where))


def web_config(app: Any, log_level: str = "warning", **where: Any) -> uvicorn.Config:
    """uvicorn's settings as pbem runs it."""
    return uvicorn.Config(
        app,
        **where,
        log_level=log_level,
        log_config=None,  # our logging (host/logs.py): one format, rate-limited
        http=CappedHttp,  # at most so many connections from one address
        access_log=False,  # form posts are logged by path only, never their fields
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )


def worker_count(setting: int) -> int:
    """How many web processes `web_workers` asks for: 0 means one per CPU
    this process may use (at most 8)."""
    if setting > 0:
        return setting
    return max(1, min(8, len(os.sched_getaffinity(0))))


BACKLOG = 2048  # connections each socket's queue holds before the kernel refuses more


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """The web port's sockets, one for each web process (SO_REUSEPORT: the
    kernel hands each new connection to one of them, by a hash of its
    addresses). The port is first bound alone, without SO_REUSEPORT, so a
    port another program or a second `pbem serve` holds is refused, as
    theirs refuse this one once it is held: only sockets that all ask for
    SO_REUSEPORT share a port, and no process took it meanwhile."""
    try:
        socket.create_server((host, port)).close()  # (free, and nobody's group)
        return [
            socket.create_server((host, port), backlog=BACKLOG, reuse_port=True)
            for _ in range(count)
        ]
    except OSError as error:
        reason = "in use" if error.errno == errno.EADDRINUSE else error.strerror
        raise OSError(
            f"The web door could not listen on {host}:{port} ({reason}): "
            "set PBEM_WEB_PORT to a free port."
        ) from None


def run_worker(settings: Settings, url: str, listener: socket.socket) -> None:
    """A web process: the web door on its own engine, taking the connections
    of `listener` (its own socket on the web port, made and kept by `pbem
    serve`, so one that replaces it takes what waits there), until SIGTERM
    or SIGINT (uvicorn finishes the requests in hand first)."""
    from ..server import Server, set_cost, set_limits
    from ..store import make_engine, session_factory
    from ..web import create_app
    from .logs import configure

    name_this_process("pbem-web")
    configure()
    set_cost(*settings.argon2_cost)
    set_limits(*settings.limits)
    engine = make_engine(url)
    server = StoppingServer(web_config(create_app(Server(session_factory(engine)), settings)))
    quieter_collector()
    try:
        server.run(sockets=[listener])
    finally:
        engine.dispose()


@dataclass
class WebWorkers:
    """The web processes, started, kept running and stopped by `pbem serve`."""

    settings: Settings
    url: str
    count: int
    listeners: list[socket.socket] = field(init=False)
    children: ChildProcesses = field(init=False)

    def __post_init__(self) -> None:
        host, port = self.settings.web_host, self.settings.web_port
        self.listeners = listening_sockets(host, port, self.count)
        self.children = ChildProcesses(
            "pbem-web",
            self.count,
            run_worker,
            lambda index: (self.settings, self.url, self.listeners[index]),
        )

    def start(self) -> None:
        self.children.start()
        log.info("the web door runs in %d processes", self.count)

    def keep_running(self) -> None:
        self.children.keep_running()

    def stop(self, timeout: float = 20.0) -> None:
        self.children.stop(timeout, terminate=True)  # SIGTERM: uvicorn's graceful shutdown
        for listener in self.listeners:
            listener.close()
