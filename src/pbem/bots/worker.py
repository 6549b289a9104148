"""The bot worker: finds boards waiting for a bot, thinks in a separate
process, and plays through the command layer like any player.

Each pass asks the server which boards wait for a bot (`bot_turns.waiting`),
takes a lease on each (`claim`: no other worker, on this machine or another,
thinks about it meanwhile), runs the search in a pool of processes started
with `spawn` (never in a thread of the web or mail doors: a search is
seconds of pure Python), and plays the result as the bot's command with the
`#N` guard. A worker that crashes or is stopped mid-thought leaves a lease
that runs out, and the board is picked up again; a board that moved
meanwhile refuses the stale move, so nothing is played twice.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import socket
import threading
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import Any

from ..ai.decide import DRAW_LOOK, HINT_LOOK, Decision, analyse, choose_move, takes_draw
from ..ai.levels import level_named
from ..ai.mcts import Analysis
from ..server import Server, Suggestion, bot_turns

log = logging.getLogger("pbem.bots")
SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads or locks forked
SLACK = 30.0  # seconds a search process may take beyond its budget (start-up, replay)
WARM_UP_SECONDS = 300.0  # for a search process's start: a first compile on a slow machine
# A search takes a whole core for its budget (6 s at the hard level). At this
# niceness a page or a move that wants the core gets it first, and the search
# thinks with what is left, still ending on time; the outbox's delivery
# (niceness 19) yields to both.
SEARCH_NICENESS = 10


def _ready() -> None:
    """Lower the search process's priority, and import the rules and load
    the compiled playouts when it starts, not in its first search (the first
    start on a new installation compiles them, for some seconds, and caches
    that)."""
    from ..ai.decide import prepare_process

    with contextlib.suppress(OSError):
        os.nice(SEARCH_NICENESS)
    prepare_process()


def _started() -> bool:
    """Nothing: a search process is ready once `_ready` has run in it."""
    return True


def holder_name() -> str:
    """Who holds a lease, for people reading the table: machine and process."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class BotWorker:
    """Plays the bots' turns on `server`'s database, `processes` searches at
    a time."""

    server: Server
    processes: int = 1
    holder: str = field(default_factory=holder_name)
    # How the search processes start: `pbem serve` gives its own spawn
    # context, whose processes die with it (host/processes.py).
    context: BaseContext = SPAWN
    _pool: ProcessPoolExecutor | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def run(self, stop: threading.Event, seconds: float = 1.0) -> None:
        """Play turns until `stop` is set, looking again every `seconds`
        when nothing was waiting."""
        try:  # start a search process, so the first turn does not wait for it
            self._think(WARM_UP_SECONDS, _started)
        except Exception:
            log.exception("the bot search process did not start; trying again with each turn")
        with ThreadPoolExecutor(self.processes, thread_name_prefix="bot") as threads:
            while not stop.is_set():
                try:
                    done = self.step(threads)
                except Exception:
                    log.exception("the bot worker failed; trying again shortly")
                    done = 0
                if not done:
                    stop.wait(seconds)
        self.close()

    def step(self, threads: ThreadPoolExecutor | None = None) -> int:
        """One pass: at most one turn and one hint per search process, the
        people served in turn (`bot_turns.waiting`'s order); how many turns
        were played or answered. A pass takes no more, so a board that comes
        to wait meanwhile is looked at after one search, however many boards
        someone else has waiting (issue 50); the few turns beyond are spares,
        for boards another worker claimed first."""
        turns = bot_turns.waiting(self.server, limit=2 * self.processes + 2)
        questions = bot_turns.open_hints(self.server, limit=self.processes)
        pending = iter(turns)
        lock = threading.Lock()

        def one_turn() -> int:
            while True:
                with lock:
                    turn = next(pending, None)
                if turn is None:
                    return 0
                if self.take(turn):
                    return 1

        if threads is None or self.processes == 1:
            done = sum(one_turn() for _ in range(self.processes))
            return done + sum(self.hint(question) for question in questions)
        futures = [threads.submit(one_turn) for _ in range(self.processes)]
        futures += [threads.submit(self.hint, question) for question in questions]
        return sum(future.result() for future in futures)

    def hint(self, question: bot_turns.HintTurn) -> int:
        """Answer one player's question about a board; 1 when answered."""
        lease = (HINT_LOOK.seconds or 0.0) + SLACK
        if not bot_turns.claim_hint(self.server, question, lease):
            return 0
        try:
            analysis = self._think(
                lease, analyse, question.game, question.options, question.moves, question.id
            )
        except Exception:
            log.exception("the hint on board %d failed", question.board)
            return 0
        assert isinstance(analysis, Analysis)
        suggestions = [
            Suggestion(c.move, c.win_rate, c.visits, c.proven) for c in analysis.candidates
        ]
        bot_turns.answer_hint(self.server, question, suggestions, analysis.iterations)
        return 1

    def take(self, turn: bot_turns.BotTurn) -> int:
        """Claim one board, do its turn and let it go; 1 when something was done."""
        lease = self._budget_of(turn) + SLACK
        if not bot_turns.claim(self.server, turn, self.holder, lease):
            return 0
        try:
            return self._do(turn, lease)
        except Exception:
            log.exception("bot %s on board %d failed", turn.bot, turn.board)
            return 0
        finally:
            bot_turns.release(self.server, turn, self.holder)

    def _do(self, turn: bot_turns.BotTurn, timeout: float) -> int:
        seed = turn.board * 1_000_003 + turn.version
        if turn.task == bot_turns.UNDO:
            refused = bot_turns.answer(self.server, turn, yes=False)
        elif turn.task == bot_turns.DRAW:
            yes = self._think(
                timeout, takes_draw, turn.game, turn.options, turn.moves, turn.seat, seed
            )
            refused = bot_turns.answer(self.server, turn, yes=bool(yes))
        else:
            decision = self._think(
                timeout, choose_move, turn.game, turn.options, turn.moves, turn.level, seed
            )
            assert isinstance(decision, Decision)
            if decision.resign:
                refused = bot_turns.resign(self.server, turn)
            else:
                assert decision.move is not None
                refused = bot_turns.play(self.server, turn, decision.move)
                log.info(
                    "bot %s played %s on board %d (%d playouts, %.1f s, %.0f%% to win)",
                    turn.bot,
                    decision.move,
                    turn.board,
                    decision.iterations,
                    decision.seconds,
                    100 * decision.share,
                )
        return 0 if refused else 1

    def _budget_of(self, turn: bot_turns.BotTurn) -> float:
        if turn.task == bot_turns.DRAW:
            return DRAW_LOOK.seconds or 0.0
        if turn.task == bot_turns.UNDO:
            return 0.0
        return level_named(turn.level).budget.seconds or 0.0

    def _think(self, timeout: float, function: Any, *args: Any) -> Any:
        """Run `function(*args)` in a search process; a process that dies or
        overruns is replaced (and the turn tried again at a later pass)."""
        pool = self._search_pool()
        future: Future[Any] = pool.submit(function, *args)
        try:
            return future.result(timeout=timeout)
        except (BrokenProcessPool, FutureTimeout):
            self._replace_pool(pool)
            raise

    def _search_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=self.context, initializer=_ready
                )
            return self._pool

    def _replace_pool(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
        for process in list(getattr(broken, "_processes", {}).values()):
            process.kill()  # a hung search: nothing else stops it
        broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the search processes."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
