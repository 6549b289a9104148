"""The web door in several processes, so pages and moves use every core.

One Python process runs one thread of Python at a time, and a page or a move
is mostly Python (the rules, the drawings, the JSON). So `pbem serve` binds
the web port itself and hands the listening socket to `web_workers` child
processes, each running the web door on its own engine. They take its
connections by load (web_accept.py): the process holding the fewest takes
the next, and one holding more than its share lets a kept-alive connection
go, so none answers its clients slower for holding more of them.
The SMTP listener, the outbox delivery and the tick stay in the main
process. Nothing a worker keeps in memory needs to be shared: every cache
is keyed by what it shows (a board's version, a stored password hash), so
any process may answer any request.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
from dataclasses import dataclass, field
from typing import Any

import uvicorn

from ..settings import Settings
from .processes import ChildProcesses, name_this_process, quieter_collector
from .web_accept import NOT_TAKING, FairAcceptor, Loads, shared_loads
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


BACKLOG = 2048  # connections the socket's queue holds before the kernel refuses more


def listening_socket(host: str, port: int) -> socket.socket:
    """The web port's one socket, which every worker accepts from."""
    try:
        return socket.create_server((host, port), backlog=BACKLOG)
    except OSError as error:
        reason = "in use" if error.errno == errno.EADDRINUSE else error.strerror
        raise OSError(
            f"The web door could not listen on {host}:{port} ({reason}): "
            "set PBEM_WEB_PORT to a free port."
        ) from None


class SharedDoor(StoppingServer):
    """uvicorn taking its connections from a socket it shares with the
    other web processes, by load (web_accept.py), instead of all it finds."""

    def __init__(self, app: Any, listener: socket.socket, loads: Loads, index: int) -> None:
        super().__init__(web_config(app))
        self.listener, self.loads, self.index = listener, loads, index
        self.acceptor: FairAcceptor | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])  # the app's start-up; no socket of uvicorn's own
        if not self.started:
            return
        config, loop = self.config, asyncio.get_running_loop()

        def protocol() -> asyncio.Protocol:  # (as uvicorn makes one for its own sockets)
            made: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
                config=config,
                server_state=self.server_state,
                app_state=self.lifespan.state,
                _loop=loop,
            )
            if isinstance(made, CappedHttp):
                made.over_share = acceptor.over_share
            return made

        acceptor = self.acceptor = FairAcceptor(
            self.listener, self.loads, self.index, protocol, self.working
        )
        acceptor.start()

    def working(self) -> int:
        """The connections this process holds, live streams aside (idle)."""
        return sum(
            1 for held in self.server_state.connections if not getattr(held, "streaming", False)
        )

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.acceptor is not None:
            self.acceptor.stop()
        await super().shutdown(sockets)


def run_worker(
    settings: Settings, url: str, listener: socket.socket, loads: Loads, index: int
) -> None:
    """Web process `index`: the web door on its own engine, taking its share
    of `listener`'s connections, until SIGTERM or SIGINT (uvicorn finishes
    the requests in hand first)."""
    from ..server import Server
    from ..server.players.passwords import set_cost
    from ..store import make_engine, session_factory
    from ..web import create_app
    from .logs import configure

    name_this_process("pbem-web")
    configure()
    set_cost(*settings.argon2_cost)
    engine = make_engine(url)
    server = SharedDoor(
        create_app(Server(session_factory(engine)), settings), listener, loads, index
    )
    quieter_collector()
    try:
        server.run()
    finally:
        engine.dispose()


@dataclass
class WebWorkers:
    """The web processes, started, kept running and stopped by `pbem serve`."""

    settings: Settings
    url: str
    count: int
    listener: socket.socket = field(init=False)
    loads: Loads = field(init=False)
    children: ChildProcesses = field(init=False)

    def __post_init__(self) -> None:
        self.listener = listening_socket(self.settings.web_host, self.settings.web_port)
        self.loads = shared_loads(self.count)
        self.children = ChildProcesses(
            "pbem-web",
            self.count,
            run_worker,
            lambda index: (self.settings, self.url, self.listener, self.loads, index),
        )

    def start(self) -> None:
        self.children.start()
        log.info("the web door runs in %d processes", self.count)

    def keep_running(self) -> None:
        for index, process in enumerate(self.children.processes):
            if not process.is_alive():
                self.loads[index] = NOT_TAKING  # (the others need not wait for it)
        self.children.keep_running()

    def stop(self, timeout: float = 20.0) -> None:
        self.children.stop(timeout, terminate=True)  # SIGTERM: uvicorn's graceful shutdown
        self.listener.close()
