"""Live board pages: server-sent events instead of every open page asking
every few seconds whether its board changed.

A page opens `GET /GAME/BOARD/events` (an EventSource). The stream says
`changed` as soon as the board's revision or status moves on (a move, an
ending, an undo, a chat line), by mail or on the web, and the page then asks
for what changed once (its poll: a reload, or the record swapped in). While
nothing happens the stream costs no statement of its own: one task per web
process reads the marks of every board some page is watching, in one
statement a second, and wakes the streams whose board moved; with no page
open it does not run. A stream ends after `LIFETIME` seconds (the browser
opens the next at once). A server that stops ends every stream at once
(`end_streams`, called by uvicorn's shutdown), so Ctrl-C never waits for an
open page.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Hashable, Sequence

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from .actions import server_of
from .found import BoardId, page_view

router = APIRouter(include_in_schema=False)
log = logging.getLogger(__name__)

EVERY = 1.0  # seconds between two looks at the watched boards
KEEP_ALIVE = 10.0  # seconds between two comments on a quiet stream
LIFETIME = 25.0  # seconds a stream lasts; the browser opens the next
RETRY_MS = 1000  # how soon the browser opens the next


Marks = Callable[[Sequence[int]], dict[int, Hashable]]
CLOSED = ("closed",)  # the mark a waiter gets when the web process stops


class BoardWatch:
    """The boards some open page is watching, looked at together: a waiter
    names the mark it knows, and is woken with the new one when the board's
    mark differs (or None when its time is up)."""

    def __init__(self, marks: Marks, every: float = EVERY) -> None:
        self._marks = marks
        self._every = every
        self._waiters: dict[int, list[tuple[Hashable, asyncio.Future[Hashable]]]] = {}
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    async def changed(self, board_id: int, seen: Hashable, timeout: float) -> Hashable | None:
        """The board's new mark once it is no longer `seen`; None after
        `timeout`; CLOSED once the process is stopping."""
        if self.closed:
            return CLOSED
        future: asyncio.Future[Hashable] = asyncio.get_running_loop().create_future()
        waiting = (seen, future)
        self._waiters.setdefault(board_id, []).append(waiting)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._look())
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            return None
        finally:
            left = self._waiters.get(board_id, [])
            if waiting in left:
                left.remove(waiting)
            if not left:
                self._waiters.pop(board_id, None)

    @property
    def watched(self) -> int:
        return len(self._waiters)

    @property
    def looking(self) -> bool:
        """Whether the reading task still runs (it ends after the round in
        which it finds nobody waiting)."""
        return self._task is not None and not self._task.done()

    def close(self) -> None:
        """Wake every waiter with CLOSED, and any later one at once (in the
        event loop's thread)."""
        self.closed = True
        for waiting in self._waiters.values():
            for _seen, future in waiting:
                if not future.done():
                    future.set_result(CLOSED)

    async def _look(self) -> None:
        """While anyone waits: read every watched board's mark in one
        statement (in a thread: the read blocks), wake those that moved. A
        failed read (the database restarting) is logged and tried again."""
        while self._waiters:
            ids = sorted(self._waiters)
            try:
                marks = await to_thread.run_sync(self._marks, ids)
            except Exception:
                log.exception("could not read the watched boards; trying again")
                await asyncio.sleep(self._every * 5)
                continue
            for board_id in ids:
                mark = marks.get(board_id)
                for seen, future in self._waiters.get(board_id, []):
                    if mark != seen and not future.done():
                        future.set_result(mark)
            await asyncio.sleep(self._every)


def end_streams(app: object) -> None:
    """End the app's open streams now (the server is stopping): each
    returns, so its connection closes instead of holding the shutdown for
    up to LIFETIME seconds. Any stream opened after this ends at once."""
    state = getattr(app, "state", None)
    watch = getattr(state, "board_watch", None)
    if isinstance(watch, BoardWatch):
        watch.close()
    elif state is not None:
        state.board_watch = closed = BoardWatch(lambda _ids: {})
        closed.close()


def watch_of(request: Request) -> BoardWatch:
    """The web process's one BoardWatch (made on first use)."""
    state = request.app.state
    watch = getattr(state, "board_watch", None)
    if watch is None:
        watch = state.board_watch = BoardWatch(server_of(request).views.marks)
    return watch


def event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


@router.get("/{game_name}/{board_id}/events")
async def events(
    request: Request, game_name: str, board_id: BoardId, revision: int
) -> StreamingResponse:
    """The board page's stream: `changed` (with the board's revision and
    whether it is still played) whenever the board moves on from
    `revision`, the page's; comments keep a quiet stream open."""
    server = server_of(request)
    view = await to_thread.run_sync(page_view, server, game_name, board_id)
    watch = watch_of(request)
    loop = asyncio.get_running_loop()

    async def stream() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        seen: Hashable = (revision, view.status.value)
        current = (view.revision, view.status.value)
        if current != seen:
            seen = current
            yield event("changed", {"revision": current[0], "status": current[1]})
        ends = loop.time() + LIFETIME
        while (left := ends - loop.time()) > 0:
            mark = await watch.changed(board_id, seen, min(KEEP_ALIVE, left))
            if mark is CLOSED:
                return  # the server is stopping (the browser comes back after it)
            if mark is None:
                yield ": quiet\n\n"
                continue
            seen = mark
            new_revision, status = mark if isinstance(mark, tuple) else (None, None)
            yield event("changed", {"revision": new_revision, "status": status})

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
