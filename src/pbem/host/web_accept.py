"""The web processes share one listening socket and take its connections
by load: the process holding the fewest open connections accepts the next.

The kernel's own ways spread connections by chance, not by load. With a
socket per process (SO_REUSEPORT) it picks the socket by a hash of the
client's address, and 32 long-lived clients split 20 to 12 as often as not.
Each process then gets the same share of the CPU, so the busier one
answers its clients about twice as slowly (docs/performance.md). With one
socket and asyncio's own accepting, the first
process to wake takes every connection waiting.

So each process publishes how many connections it holds (`Loads`, shared
memory) and, when the socket has a connection waiting, takes it only if no
other process holds fewer. If it does hold more, it looks again after
`GRACE` and then takes the connection anyway: a partner that is busy,
stuck or gone delays a new connection by that much at most, and never
stops the door taking connections.

Taking by load evens out the connections as they arrive, not as they last:
a proxy's kept-alive pool opened while one process was restarting stays on
the other. So a process holding at least two more than another lets one go
(`over_share`, and connections.CappedHttp answers that request with
`Connection: close`); the client opens a new one, which the lighter process
takes. One at a time, SHED_PAUSE apart, so the loads settle between them;
and none for KEEP_AFTER_GRACE after a lighter process left a connection
waiting GRACE, since it would leave the next one waiting too.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("pbem.web")

GRACE = 0.02  # seconds a connection waits for a less busy process before this one takes it
REFRESH = 0.05  # seconds between publications of this process's load (closed connections)
FILES_PAUSE = 1.0  # seconds without accepting after running out of file descriptors
SHED_PAUSE = 0.1  # seconds between connections a process lets go (twice REFRESH: loads settle)
KEEP_AFTER_GRACE = 1.0  # seconds none is let go after taking one a lighter process left waiting
NOT_TAKING = 2**31 - 1  # the load of a process not taking connections (not started, stopped)


class Loads(Protocol):
    """Each web process's open connections, by its index (shared memory:
    `multiprocessing`'s RawArray of C ints)."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> int: ...
    def __setitem__(self, index: int, value: int) -> None: ...


class FairAcceptor:
    """Takes connections from `listener` for this process (`index` in
    `loads`) and hands each to `protocol` on the running loop; `held()` is
    how many connections the process has open."""

    def __init__(
        self,
        listener: socket.socket,
        loads: Loads,
        index: int,
        protocol: Callable[[], asyncio.Protocol],
        held: Callable[[], int],
    ) -> None:
        self.listener = listener
        self.loads = loads
        self.index = index
        self.protocol = protocol
        self.held = held
        self.loop = asyncio.get_running_loop()
        self.arriving = 0  # accepted, not yet handed to a protocol
        self.waited = False  # a connection waited GRACE for a less busy process
        self.timer: asyncio.TimerHandle | None = None
        self.refresher: asyncio.TimerHandle | None = None
        self.stopped = False
        self.next_shed = 0.0  # (loop time) when this process may next let a connection go
        listener.setblocking(False)

    def start(self) -> None:
        self.loads[self.index] = self.load()
        self.loop.add_reader(self.listener.fileno(), self.readable)
        self.refresher = self.loop.call_later(REFRESH, self.refresh)

    def stop(self) -> None:
        """Take no more connections (the ones held stay open)."""
        self.stopped = True
        with contextlib.suppress(ValueError, OSError):  # (the socket may be closed)
            self.loop.remove_reader(self.listener.fileno())
        for handle in (self.timer, self.refresher):
            if handle is not None:
                handle.cancel()
        self.loads[self.index] = NOT_TAKING  # (nobody waits for it)

    def load(self) -> int:
        return self.held() + self.arriving

    def refresh(self) -> None:
        """Publish the load again: connections close without telling us."""
        self.loads[self.index] = self.load()
        self.refresher = self.loop.call_later(REFRESH, self.refresh)

    def lighter_elsewhere(self, mine: int) -> bool:
        return any(self.loads[i] < mine for i in range(len(self.loads)) if i != self.index)

    def over_share(self) -> bool:
        """Whether to let a kept-alive connection go after its answer: this
        process holds at least two more than another that takes connections,
        so the client's next connection, taken by load, evens them out.
        (Its load as last published: at most REFRESH old, and asked for at
        every request, where counting its connections costs as many.)"""
        now = self.loop.time()
        if self.stopped or now < self.next_shed:
            return False
        if not self.lighter_elsewhere(self.loads[self.index] - 1):
            return False
        self.next_shed = now + SHED_PAUSE
        return True

    def readable(self) -> None:
        """A connection waits: take it, and any after it, while no other
        process holds fewer; else give them GRACE to take it."""
        while not self.stopped:
            mine = self.load()
            self.loads[self.index] = mine
            lighter = self.lighter_elsewhere(mine)
            if lighter and not self.waited:
                self.pause(GRACE)
                return
            try:
                connection, _address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                self.waited = False  # (the next connection looks at the loads again)
                return  # none left (another process took it)
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise
                log.error(
                    "the web door stops accepting for a second: %s (this process may open %d"
                    " files; raise that hard limit with LimitNOFILE= in its systemd unit, or"
                    " nofile in /etc/security/limits.conf)",
                    error,
                    resource.getrlimit(resource.RLIMIT_NOFILE)[0],
                )
                self.pause(FILES_PAUSE)
                return
            self.waited = False
            if lighter:  # (it left the connection waiting: busy or stuck, it would again)
                self.next_shed = self.loop.time() + KEEP_AFTER_GRACE
            self.adopt(connection)

    def pause(self, seconds: float) -> None:
        """Stop watching the socket for `seconds`, then take what waits."""
        self.loop.remove_reader(self.listener.fileno())
        self.timer = self.loop.call_later(seconds, self.resume)

    def resume(self) -> None:
        self.timer = None
        if self.stopped:
            return
        self.waited = True
        self.loop.add_reader(self.listener.fileno(), self.readable)

    def adopt(self, connection: socket.socket) -> None:
        connection.setblocking(False)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.arriving += 1
        self.loads[self.index] = self.load()
        task = self.loop.create_task(self.loop.connect_accepted_socket(self.protocol, connection))
        task.add_done_callback(lambda done: self.adopted(done, connection))

    def adopted(self, done: asyncio.Task[Any], connection: socket.socket) -> None:
        self.arriving -= 1
        if done.cancelled() or done.exception() is not None:
            connection.close()


def shared_loads(count: int) -> Loads:
    """The loads of `count` processes, none taking connections yet, in
    memory the spawned web processes share with the one that made it."""
    from .processes import SPAWN

    loads: Loads = SPAWN.RawArray("i", [NOT_TAKING] * count)
    return loads
