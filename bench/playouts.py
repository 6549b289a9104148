"""Random-playout speed of our games, with OpenSpiel's Go 9x9 as a yardstick.

`python -m bench.playouts vasco --seconds 20` plays uniformly random legal games
for that long, in one process and one thread, and prints playouts, player moves and
pieces placed (tiles, or stones) per second, next to the target (Vasco's, Vacu's and
Convacu's count playouts per second, Trugo's moves per second). `--size` is the pool
of tiles for Vasco and Trugo and the side of the board for Vacu and Convacu
(`python -m bench.playouts vacu --size 9`). A game whose playouts stop at a cap of
turns (Trugo: 1,000; Vacu and Convacu: 10 per point) also reports how many playouts
hit it. Go 9x9 from OpenSpiel (the `bench` extra) is timed the same way in the same
run, so figures from different machines can be compared: divide by the Go figure.
Each game registers one entry in `GAMES`: its opening as a search position (the
protocol the AI searches over, `pbem.games.base.SearchPosition`), whose
`play_out` is timed on a copy per playout, as a search runs it.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from pbem.games import get_game
from pbem.games.base import SearchPosition
from pbem.games.trugo.search import CAP as TRUGO_CAP
from pbem.games.vacu.search import default_cap as vacu_cap

INSTALL_HINT = (
    "OpenSpiel is not installed, so there is no Go 9x9 yardstick: "
    "install it with `pip install -e '.[bench]'` or `make bench`."
)
GO_SIZE = 9
GO_KOMI = 7.5

Rate = Literal["playouts", "moves"]


@dataclass(frozen=True)
class Target:
    """At least `rate` playouts (or player moves, as `per` says) per second at
    `size` (a pool of pieces, or the side of a board)."""

    size: int
    rate: float
    per: Rate = "playouts"


@dataclass(frozen=True)
class Game:
    """How to time a game: `start(size)` is its opening as a search position
    (`SearchPosition`, the one protocol the AI searches over), and each
    playout is `play_out` on a copy of it, as a search plays them.

    `label` names a run, from the size: `{size} tiles`, `{size}x{size}`. With a
    `cap` (a number of turns, or one for each size), a playout stops undecided
    after that many turns and says so; the benchmark reports how many did."""

    start: Callable[[int], SearchPosition]
    default_size: int
    label: str
    moves_are: str
    placed_are: str
    target: Target | None = None
    cap: int | Callable[[int], int] | None = None
    against_go: float | None = None  # the target: this many times Go's playouts/s

    def cap_at(self, size: int) -> int | None:
        """The cap of turns at this size, or None."""
        return self.cap(size) if callable(self.cap) else self.cap


def _vasco(size: int) -> SearchPosition:
    return get_game("vasco").start([f"-size={size}"]).search_position()


def _trugo(size: int) -> SearchPosition:
    state = get_game("trugo").start([f"-size={size}"])
    return state.search_position(cutoff=None)  # whole random games, to the cap


def _vacu(connection: bool) -> Game:
    """Vacu's or Convacu's entry: the same engine, board and target, with the
    komi set (play starts at once, as in Go)."""
    name = "convacu" if connection else "vacu"

    def start(size: int) -> SearchPosition:
        return get_game(name).start([f"-size={size}", "-komi=6"]).search_position()

    return Game(
        start=start,
        default_size=9,
        label="{size}x{size}",
        moves_are="turns: a stone, the button or a pass",
        placed_are="stones placed, suicides included",
        target=Target(size=9, rate=1000.0),
        cap=vacu_cap,
        against_go=2.0,
    )


# One entry per game.
GAMES: dict[str, Game] = {
    "vasco": Game(
        start=_vasco,
        default_size=54,
        label="{size} tiles",
        moves_are="player moves",
        placed_are="tiles placed, auto moves included",
        target=Target(size=54, rate=500.0),
        against_go=1.0,
    ),
    "trugo": Game(
        start=_trugo,
        default_size=36,
        label="{size} tiles",
        moves_are="turns: a tile placed or removed, a piece moved, or a pass",
        placed_are="tiles placed",
        target=Target(size=36, rate=5000.0, per="moves"),
        cap=TRUGO_CAP,
        against_go=0.3,
    ),
    "vacu": _vacu(connection=False),
    "convacu": _vacu(connection=True),
}


@dataclass(frozen=True)
class Result:
    """Totals of one timed run; the rates are derived from them."""

    name: str
    size: int | None
    playouts: int
    moves: int
    placed: int
    seconds: float
    moves_are: str
    placed_are: str
    target: Target | None = None
    cap: int | None = None  # turns after which a playout stops undecided
    capped: int | None = None  # playouts that hit the cap; None without a cap

    @property
    def playouts_per_s(self) -> float:
        return self.playouts / self.seconds

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def placed_per_s(self) -> float:
        return self.placed / self.seconds

    @property
    def target_met(self) -> bool | None:
        """Whether the target is met; None without a target or at another size."""
        if self.target is None or self.target.size != self.size:
            return None
        return self.rate(self.target.per) >= self.target.rate

    def rate(self, per: Rate) -> float:
        """Playouts or player moves per second."""
        return self.playouts_per_s if per == "playouts" else self.moves_per_s


@dataclass(frozen=True)
class Totals:
    """What `measure` counted: playouts, their moves, pieces placed and capped
    playouts, and the time they took."""

    playouts: int
    moves: int
    placed: int
    capped: int
    seconds: float


def measure(play: Callable[[], tuple[int, int, bool]], seconds: float) -> Totals:
    """Run `play` (one playout -> moves, placed, capped) for `seconds` after a
    short warm-up.

    The clock is read after each playout, so the run ends at most one playout
    late and is timed exactly.
    """
    clock = time.perf_counter
    warm_until = clock() + min(0.5, seconds / 10)
    while clock() < warm_until:
        play()
    playouts = moves = placed = capped = 0
    start = clock()
    end = start + seconds
    now = start
    while now < end:
        m, p, c = play()
        playouts += 1
        moves += m
        placed += p
        capped += c
        now = clock()
    return Totals(playouts, moves, placed, capped, now - start)


def bench_game(name: str, size: int, seconds: float, seed: int) -> Result:
    """Time random playouts of a registered game at `size` (pool or board side)."""
    game = GAMES[name]
    rng = random.Random(seed)
    cap = game.cap_at(size)
    opening = game.start(size)

    def play() -> tuple[int, int, bool]:
        outcome = opening.copy().play_out(rng)
        return outcome.turns, outcome.placed, outcome.capped

    totals = measure(play, seconds)
    return Result(
        name=f"{name} {game.label.format(size=size)}",
        size=size,
        playouts=totals.playouts,
        moves=totals.moves,
        placed=totals.placed,
        seconds=totals.seconds,
        moves_are=game.moves_are,
        placed_are=game.placed_are,
        target=game.target,
        cap=cap,
        capped=None if cap is None else totals.capped,
    )


def load_go() -> Any:
    """OpenSpiel's Go 9x9 (komi 7.5), or None when OpenSpiel is not installed."""
    try:
        import pyspiel  # optional: the `bench` extra
    except ImportError:
        return None
    return pyspiel.load_game("go", {"board_size": GO_SIZE, "komi": GO_KOMI})


def go_playout(game: Any, rng: random.Random) -> tuple[int, int]:
    """One uniformly random Go game: actions (passes included) and stones placed.

    OpenSpiel ends a game after two passes in a row or at its move cap (2 x 81).
    """
    pass_action = game.num_distinct_actions() - 1  # OpenSpiel's Go: the last action
    state = game.new_initial_state()
    moves = stones = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        state.apply_action(action)
        moves += 1
        stones += action != pass_action
    return moves, stones


def bench_go(game: Any, seconds: float, seed: int) -> Result:
    """Time random Go playouts driven from Python, as ours are."""
    rng = random.Random(seed)
    totals = measure(lambda: (*go_playout(game, rng), False), seconds)
    return Result(
        name=f"go {GO_SIZE}x{GO_SIZE} (OpenSpiel)",
        size=None,
        playouts=totals.playouts,
        moves=totals.moves,
        placed=totals.placed,
        seconds=totals.seconds,
        moves_are="actions, passes included",
        placed_are="stones placed (actions other than pass)",
    )


def _target_text(result: Result) -> str:
    if result.target is None:
        return ""
    rate = f"{result.target.per} >= {result.target.rate:g}/s"
    if result.target_met is None:
        return f"{rate} at {result.target.size} only"
    return f"{rate}: {'met' if result.target_met else 'NOT met'}"


def format_table(results: Sequence[Result], header: str) -> str:
    """The human-readable report: a header line, an aligned table and a legend."""
    rows = [("game", "playouts", "playouts/s", "moves/s", "placed/s", "capped", "target")]
    rows += [
        (
            r.name,
            str(r.playouts),
            f"{r.playouts_per_s:.1f}",
            f"{r.moves_per_s:.0f}",
            f"{r.placed_per_s:.0f}",
            "-" if r.capped is None else str(r.capped),
            _target_text(r),
        )
        for r in results
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [header, ""]
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:-1], widths[1:-1], strict=True)]
        cells.append(row[-1])
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    for r in results:
        lines.append(f"{r.name}: moves = {r.moves_are}; placed = {r.placed_are}")
        if r.cap is not None:
            lines.append(f"{r.name}: capped = playouts stopped undecided at {r.cap} turns")
    return "\n".join(lines)


def to_json(results: Sequence[Result], info: dict[str, Any]) -> str:
    """The machine-readable report: totals, rates and targets of every game."""
    entries = []
    for r in results:
        entry = asdict(r)
        entry |= {
            "playouts_per_s": r.playouts_per_s,
            "moves_per_s": r.moves_per_s,
            "placed_per_s": r.placed_per_s,
            "target_met": r.target_met,
        }
        entries.append(entry)
    return json.dumps(info | {"results": entries}, indent=2)


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.playouts",
        description="Time uniformly random playouts, with OpenSpiel's Go 9x9 as a yardstick.",
    )
    parser.add_argument("game", help=f"the game to time: {', '.join(sorted(GAMES))}")
    parser.add_argument(
        "--size",
        type=_positive_int,
        help=(
            "pool of tiles (Vasco: default 54; Trugo: default 36) or side of the board "
            "(Vacu, Convacu: default 9)"
        ),
    )
    parser.add_argument(
        "--seconds",
        type=_positive_float,
        default=20.0,
        help="time measured per game, after a short warm-up (default 20)",
    )
    parser.add_argument("--seed", type=int, help="random seed (default: drawn and printed)")
    parser.add_argument(
        "--no-yardstick", action="store_true", help="skip the OpenSpiel Go 9x9 yardstick"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exits 2 (through argparse) on an unknown game or bad option."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.game not in GAMES:
        parser.error(f"unknown game {args.game!r}; known games: {', '.join(sorted(GAMES))}")
    size = args.size or GAMES[args.game].default_size
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)

    go = None
    if not args.no_yardstick:
        go = load_go()
        if go is None:
            print(INSTALL_HINT, file=sys.stderr)

    results = [bench_game(args.game, size, args.seconds, seed)]
    if go is not None:
        results.append(bench_go(go, args.seconds, seed))

    info = {
        "seconds": args.seconds,
        "seed": seed,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
    }
    if args.json:
        print(to_json(results, info))
    else:
        header = (
            f"Random playouts, one process, one thread: {args.seconds:g} s per game, "
            f"seed {seed}, Python {info['python']} on {info['machine']}"
        )
        print(format_table(results, header))
        if go is not None:
            print(against_go(args.game, size, results[0], results[1]))
    return 0


def against_go(name: str, size: int, ours: Result, go: Result) -> str:
    """Our playouts per second as a multiple of Go's, measured in the same
    run, beside the target multiple (at the game's default size only)."""
    times = ours.playouts_per_s / go.playouts_per_s
    line = f"{ours.name}: {times:.2f}x OpenSpiel's Go 9x9 playouts/s"
    game = GAMES[name]
    if game.against_go is None:
        return line
    if size != game.default_size:
        return f"{line} (target {game.against_go:g}x at {game.default_size} only)"
    met = "met" if times >= game.against_go else "NOT met"
    return f"{line} (target at least {game.against_go:g}x: {met})"


if __name__ == "__main__":
    sys.exit(main())
