"""Bots against each other: win rates with 95% intervals, games per second
and time per move.

`python -m bench.arena vacu --a hard --b random --games 100` plays 100 games
of Vacu between the hard level and uniformly random play, the seats taken
in turn (the first player alternates), from a fixed `--seed`, and prints
how `a` fared. Players are a level's name (`easy`, `medium`, `hard`, from
`pbem.ai.levels`), `random`, or `uct`: plain UCT (random playouts to the end,
no solver, no game knowledge) given the hard level's budget, the yardstick
the strongest level must beat. `--scale 0.1` multiplies every budget (time
and playouts) to run a quick look; the figures in docs/ai.md say which
scale they were run at. The game's options come one per `--option`
(`--option=-size=5 --option=-komi=3`).

Each move goes through the game's clean API (the search's move text read
back with `play_text`), so a search move the rules refuse stops the run.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pbem.ai.decide import prepare_process
from pbem.ai.levels import LEVELS, knowledge
from pbem.ai.mcts import Budget, SearchSettings, search
from pbem.games import GAMES, get_game
from pbem.games.base import SearchPosition, State

PLAIN_UCT = SearchSettings(solver=False)


def plain_position(state: State[Any]) -> SearchPosition:
    """The search position with no game knowledge: Trugo's random games
    played to the end (or the playout cap), not cut off and scored by the
    material left, which is knowledge; the other games' random games are
    whole games already (Vacu's cap scores the board by the rules)."""
    if state.game.name == "trugo":
        return state.search_position(cutoff=None)  # type: ignore[call-arg]
    return state.search_position()


@dataclass(frozen=True)
class Player:
    """One side of a match: a name, and how it picks a move (no budget: at
    random); a level searches each game as the bots do (`knowledge`), any
    other with `settings`; `plain` searches with no game knowledge
    (`plain_position`)."""

    name: str
    budget: Budget | None
    settings: SearchSettings | None = None
    plain: bool = False

    def move(self, state: State[Any], rng: random.Random) -> str:
        if self.budget is None:
            moves = state.legal_moves()
            return state.move_text(moves[int(rng.random() * len(moves))])
        position = plain_position(state) if self.plain else state.search_position()
        how = self.settings or knowledge(state.game.name)
        return search(position, self.budget, rng, how).best


def player_named(name: str, scale: float) -> Player:
    """A level, `random` or `uct`, with its budget scaled."""
    if name == "random":
        return Player(name, None)
    if name == "uct":
        hard = LEVELS["hard"]
        return Player(name, scaled(hard.budget, scale), PLAIN_UCT, plain=True)
    if name not in LEVELS:
        raise SystemExit(f"unknown player {name!r}: random, uct, or one of {', '.join(LEVELS)}")
    level = LEVELS[name]
    return Player(name, scaled(level.budget, scale))


def scaled(budget: Budget, scale: float) -> Budget:
    return Budget(
        seconds=None if budget.seconds is None else budget.seconds * scale,
        iterations=None if budget.iterations is None else max(1, round(budget.iterations * scale)),
    )


@dataclass
class Tally:
    """How a match went for player `a`."""

    wins: float = 0.0
    games: int = 0
    draws: int = 0
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of `a`'s score (a draw counts half)."""
        if not self.games:
            return (0.0, 1.0)
        n, p, z = self.games, self.wins / self.games, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(
    game: str, options: Sequence[str], seats: Sequence[Player], rng: random.Random, tally: Tally
) -> int | None:
    """One game from the start, `seats[i]` moving for player i; the winner."""
    state = get_game(game).start(options)
    while state.to_move is not None:
        player = seats[state.to_move]
        started = time.perf_counter()
        text = player.move(state, rng)
        tally.seconds.setdefault(player.name, []).append(time.perf_counter() - started)
        state = state.play_text(text)
    assert state.result is not None
    return state.result.winner


def match(
    game: str, options: Sequence[str], a: Player, b: Player, games: int, seed: int
) -> tuple[Tally, float]:
    """`games` games, `a` taking the first seat in the even ones; the tally
    for `a` and the wall time."""
    if a.name == b.name:
        b = replace(b, name=f"{b.name}'")
    tally = Tally()
    started = time.perf_counter()
    for number in range(games):
        rng = random.Random(seed * 100_003 + number)
        seats = (a, b) if number % 2 == 0 else (b, a)
        winner = play_game(game, options, seats, rng, tally)
        tally.games += 1
        if winner is None:
            tally.draws += 1
            tally.wins += 0.5
        elif seats[winner] is a:
            tally.wins += 1
    return tally, time.perf_counter() - started


def report(game: str, a: Player, b: Player, tally: Tally, wall: float) -> str:
    low, high = tally.interval()
    lines = [
        f"{game}: {a.name} against {b.name}, {tally.games} games, seats alternating",
        f"  {a.name} scored {tally.wins:g} of {tally.games} "
        f"({100 * tally.wins / tally.games:.0f}%, "
        f"95% interval {100 * low:.0f}% to {100 * high:.0f}%), {tally.draws} draws",
        f"  {tally.games / wall:.3f} games/s",
    ]
    for name, times in tally.seconds.items():
        budget = next((p.budget for p in (a, b) if p.name == name), None)
        limit = ""
        if budget is not None and budget.seconds is not None:
            over = sum(1 for t in times if t > budget.seconds)
            limit = f", budget {budget.seconds:g} s, {over} over it"
        lines.append(
            f"  {name}: {len(times)} moves, {sum(times) / len(times):.3f} s a move on average, "
            f"longest {max(times):.4f} s{limit}"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena", description=__doc__.split("\n")[0]
    )
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--a", default="hard", help="the player reported on")
    parser.add_argument("--b", default="random", help="its opponent")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every budget")
    parser.add_argument(
        "--option", action="append", default=[], help="a game option: --option=-size=5"
    )
    args = parser.parse_args(argv)
    a = player_named(args.a, args.scale)
    b = player_named(args.b, args.scale)
    prepare_process()  # as each bot search process does at start: no first move pays for it
    tally, wall = match(args.game, args.option, a, b, args.games, args.seed)
    sys.stdout.write(report(args.game, a, b, tally, wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
