"""First password checks (argon2) in threads of their own, not the request
threads.

A web process runs THREADS_PER_PROCESS requests at once in its threads
(web/app.py). A password met for the first time costs argon2: a tenth of a
second to a second of one core, and 64 MiB, by design. Done in a request
thread, four log-ins at once would hold a process's every thread that long,
and every page behind them would wait. So the forms that carry a password
(sign up, log in, the account page's; and the API's /api/command, whose
`change password` and the like still ask for it) are handled by
`password_lane`: their handler runs in a request thread with its argon2
work handed out (server/players/passwords.py), which comes back here as
PasswordWork; it is done in the lane, PASSWORD_THREADS threads of the
process's own with no request thread held, and the handler runs again and
finds the verdict remembered.
The lane also bounds argon2's memory: PASSWORD_THREADS checks at once.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from anyio import CapacityLimiter, to_thread
from fastapi import Request

from ..server import PASSWORD_ROUNDS, PasswordWork, handed_out

PASSWORD_THREADS = 2  # argon2 checks a web process runs at once (each 64 MiB, a core)

P = ParamSpec("P")
R = TypeVar("R")


def lane_of(request: Request) -> CapacityLimiter:
    """This process's password lane (made on first use, on the app's loop)."""
    state = request.app.state
    lane: CapacityLimiter | None = getattr(state, "password_lane", None)
    if lane is None:
        lane = state.password_lane = CapacityLimiter(PASSWORD_THREADS)
    return lane


def password_lane(handler: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`handler`, a route handler that takes the `request`, run in a request
    thread with its argon2 work done in the lane. It runs again from the
    start after that work, so every password it checks must come before
    any change it makes (a command's own checks do: they come before its
    transaction commits)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with handed_out():
            return handler(*args, **kwargs)

    @functools.wraps(handler)
    async def endpoint(*args: P.args, **kwargs: P.kwargs) -> R:
        request = kwargs["request"]
        assert isinstance(request, Request)
        for _ in range(PASSWORD_ROUNDS):
            try:
                return await to_thread.run_sync(functools.partial(run, *args, **kwargs))
            except PasswordWork as work:
                await to_thread.run_sync(work.do, limiter=lane_of(request))
        raise RuntimeError(f"a form needed more than {PASSWORD_ROUNDS} password checks")

    return endpoint
