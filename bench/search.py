"""Tree-search speed: MCTS iterations per second on Vacu 9x9 from the empty
board, beside OpenSpiel's C++ `MCTSBot` on Go 9x9 with one random rollout
per iteration, in the same run.

`python -m bench.search [--game vacu] [--seconds 5] [--rounds 3]` times our
search (`pbem.ai.mcts.search`, one process, one thread) with the hard bot's
settings (solver, wins in one looked for; compiled in Vacu and Convacu,
`pbem.ai.vacu_tree`), the same settings in the Python tree it is tested
against (`mcts.tree_search`), and as plain UCT, and OpenSpiel's
bot (`pyspiel.MCTSBot`, UCT constant 1.4, no solver) for about as long,
round after round, so a noisy machine hits both alike; it prints the median
of the rounds and our figures as a multiple of OpenSpiel's. The issue's
target: the hard settings at least 0.5x OpenSpiel's. OpenSpiel is the
`bench` extra (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from pbem.ai.levels import knowledge
from pbem.ai.mcts import Analysis, Budget, SearchSettings, search, tree_search
from pbem.games import get_game
from pbem.games.base import SearchPosition

TARGET = 0.5  # the hard settings' iterations/s as a multiple of OpenSpiel's
GO_SIZE, GO_KOMI = 9, 7.5
OPENINGS: dict[str, list[str]] = {
    "vacu": ["-size=9", "-komi=6"],
    "convacu": ["-size=9", "-komi=6"],
    "vasco": ["-size=54"],
    "trugo": ["-size=36"],
}


Search = Callable[[SearchPosition, Budget, random.Random, SearchSettings], Analysis]


def ours(
    game: str, settings: SearchSettings, seconds: float, seed: int, find: Search = search
) -> float:
    """Our iterations per second from the game's opening."""
    position: SearchPosition = get_game(game).start(OPENINGS[game]).search_position()
    analysis = find(position, Budget(seconds=seconds), random.Random(seed), settings)
    return analysis.iterations / analysis.seconds


def openspiel(seconds: float, seed: int) -> float | None:
    """OpenSpiel's C++ MCTSBot on Go 9x9: simulations per second (None
    without OpenSpiel). Simulations are sized from a short first step so
    the timed step lasts about `seconds`."""
    try:
        import pyspiel  # optional: the `bench` extra
    except ImportError:
        return None
    game = pyspiel.load_game("go", {"board_size": GO_SIZE, "komi": GO_KOMI})

    def rate(simulations: int) -> tuple[float, float]:
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, 1.4, simulations, 1000, False, seed, False)
        start = time.perf_counter()
        bot.step(game.new_initial_state())
        took = time.perf_counter() - start
        return simulations / took, took

    first, _ = rate(500)
    return rate(max(500, int(first * seconds)))[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__)
    parser.add_argument("--game", choices=sorted(OPENINGS), default="vacu")
    parser.add_argument("--seconds", type=float, default=5.0, help="per search (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    args = parser.parse_args(argv)
    hard = knowledge(args.game)
    plain = SearchSettings(solver=False, decisive=False)
    figures: dict[str, list[float]] = {"hard": [], "python": [], "uct": [], "openspiel": []}
    missing = False
    for index in range(args.rounds):  # interleaved: the machine's moods hit all three alike
        figures["hard"].append(ours(args.game, hard, args.seconds, index))
        figures["python"].append(ours(args.game, hard, args.seconds, index, tree_search))
        figures["uct"].append(ours(args.game, plain, args.seconds, index))
        found: Any = openspiel(args.seconds, index + 1)
        if found is None:
            missing = True
        else:
            figures["openspiel"].append(found)
    print(
        f"MCTS iterations per second from the opening, one thread, median of {args.rounds} "
        f"rounds of {args.seconds:g} s; Python {sys.version.split()[0]}"
    )
    hard_rate = statistics.median(figures["hard"])
    uct_rate = statistics.median(figures["uct"])
    python_rate = statistics.median(figures["python"])
    print(f"{args.game} ({' '.join(OPENINGS[args.game])}), hard settings  {hard_rate:9.0f}/s")
    print(
        f"{args.game} ({' '.join(OPENINGS[args.game])}), hard settings, Python tree  "
        f"{python_rate:9.0f}/s (the search is {hard_rate / python_rate:.2f}x it)"
    )
    print(f"{args.game} ({' '.join(OPENINGS[args.game])}), plain UCT      {uct_rate:9.0f}/s")
    if missing:
        print("OpenSpiel is not installed: `pip install -e '.[bench]'` for the yardstick")
        return 0
    theirs = statistics.median(figures["openspiel"])
    print(f"go 9x9, OpenSpiel C++ MCTSBot, 1 random rollout  {theirs:9.0f}/s")
    times = hard_rate / theirs
    line = f"hard settings: {times:.2f}x OpenSpiel's; plain UCT: {uct_rate / theirs:.2f}x"
    if args.game == "vacu":
        verdict = "met" if times >= TARGET else "NOT met"
        line += f" (target for Vacu 9x9: at least {TARGET:g}x, {verdict})"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
