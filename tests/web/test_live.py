"""The live pages' watch (web/live.py): however many pages wait on however
many boards, one read of all their marks a round; each waiter wakes when its
board's mark differs from the one it knows, or at its timeout; with nobody
waiting, nothing is read. And the stream itself, over HTTP: `changed` at
once for a page that is behind, then for a move made by mail."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Hashable, Sequence

from fastapi.testclient import TestClient

from pbem.server import Server
from pbem.web.live import BoardWatch
from tests.web.test_api import client, server  # noqa: F401 (fixtures)


def test_one_read_a_round_wakes_only_the_boards_that_moved() -> None:
    marks: dict[int, Hashable] = {1: (0, "active"), 2: (0, "active"), 3: (5, "finished")}
    reads: list[list[int]] = []

    def read(ids: Sequence[int]) -> dict[int, Hashable]:
        reads.append(list(ids))
        return {i: marks[i] for i in ids if i in marks}

    async def scene() -> None:
        watch = BoardWatch(read, every=0.02)
        waiting = [
            asyncio.create_task(watch.changed(1, (0, "active"), 2.0)),
            asyncio.create_task(watch.changed(1, (0, "active"), 2.0)),
            asyncio.create_task(watch.changed(2, (0, "active"), 0.2)),
        ]
        behind = await watch.changed(3, (4, "active"), 2.0)  # a page that is behind
        assert behind == (5, "finished")
        marks[1] = (1, "active")
        first, second, quiet = await asyncio.gather(*waiting)
        assert first == second == (1, "active") and quiet is None
        assert watch.watched == 0
        for _ in range(200):  # a round already started ends (bounded: 2 s)
            if not watch.looking:
                break
            await asyncio.sleep(0.01)
        assert not watch.looking
        rounds = len(reads)
        await asyncio.sleep(0.1)
        assert len(reads) == rounds  # nobody waits: nothing is read

    # In a thread of its own: the browser tests' Playwright keeps an event
    # loop running in this one.
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scene())
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if failed:
        raise failed[0]
    assert all(ids == sorted(set(ids)) for ids in reads)
    assert max(len(ids) for ids in reads) == 3  # the boards watched, read together


def test_the_stream_says_changed_for_a_page_behind_and_for_a_move_by_mail(
    client: TestClient,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    for name in ("alice", "bob"):
        server.handle(f"{name}@example.org", f"signup {name} pw-{name}")
    server.handle("alice@example.org", "vasco challenge alice bob", as_user="alice")
    view = server.views.get(1)
    assert view is not None
    with client.stream("GET", f"/vasco/1/events?revision={view.revision - 1}") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert next(lines) == "retry: 1000"
        assert next(lines) == ""
        assert next(lines) == "event: changed"
        assert next(lines) == f'data: {{"revision": {view.revision}, "status": "active"}}'
        mover = threading.Timer(
            0.3, server.handle, ("alice@example.org", "vasco move 1 alice pw-alice a0,0")
        )
        mover.start()
        seen = []
        for line in lines:
            seen.append(line)
            if line.startswith("data:"):
                break
        mover.join()
        assert "event: changed" in seen and '"revision": ' in seen[-1]
        after = server.views.get(1)
        assert after is not None and f'"revision": {after.revision}' in seen[-1]
