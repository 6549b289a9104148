"""A slow, literal reading of the Vacu rulings, to test the fast engine against.

The board is a dict from (col, row) to 'B' or 'W'; groups, liberties and
territory are found by flood fill every time they are asked for, and a stone
placement follows RULINGS.md sentence by sentence. Nothing is shared with
`board.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Point = tuple[int, int]  # (column from the left, row from the top), both from 0


@dataclass
class Reference:
    """Stones, the button, the score and the end, after each move."""

    size: int
    komi: int
    connection: bool = False
    stones: dict[Point, str] = field(default_factory=dict)
    to_move: str = "B"
    button: str | None = None
    passes: int = 0
    seen: dict[tuple[Any, ...], int] = field(default_factory=dict)
    over: bool = False
    winner: str | None = None  # 'B', 'W', or None for a draw

    def __post_init__(self) -> None:
        self.seen[self.key()] = 1

    def key(self) -> tuple[Any, ...]:
        return (frozenset(self.stones.items()), self.button is not None, self.to_move)

    def neighbours(self, p: Point) -> list[Point]:
        col, row = p
        around = [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]
        return [(c, r) for c, r in around if 0 <= c < self.size and 0 <= r < self.size]

    def group(self, p: Point) -> set[Point]:
        colour = self.stones[p]
        found = {p}
        todo = [p]
        while todo:
            for n in self.neighbours(todo.pop()):
                if self.stones.get(n) == colour and n not in found:
                    found.add(n)
                    todo.append(n)
        return found

    def liberties(self, group: set[Point]) -> set[Point]:
        return {n for p in group for n in self.neighbours(p) if n not in self.stones}

    def groups(self, colour: str) -> list[set[Point]]:
        seen: set[Point] = set()
        found = []
        for p, c in sorted(self.stones.items()):
            if c == colour and p not in seen:
                g = self.group(p)
                seen |= g
                found.append(g)
        return found

    def try_stone(self, p: Point, colour: str) -> dict[Point, str] | None:
        """The stones after `colour` plays at p, or None when illegal."""
        if p in self.stones:
            return None
        enemy = "W" if colour == "B" else "B"
        saved = self.stones
        self.stones = {**saved, p: colour}  # the questions below read self.stones
        try:
            mine = self.group(p)
            dead = [g for g in self.groups(enemy) if not self.liberties(g)]
            if self.liberties(mine):  # suppress every enemy group without liberties
                for g in dead:
                    for q in g:
                        del self.stones[q]
            elif dead:  # suppress my group, flip the enemy groups that had none
                for q in mine:
                    del self.stones[q]
                for g in dead:
                    for q in g:
                        self.stones[q] = colour
            else:
                return None  # a suicide that flips nothing
            return self.stones
        finally:
            self.stones = saved

    def legal(self) -> list[str]:
        if self.over:
            return []
        moves = [
            point_text(p, self.size)
            for p in self.points()
            if self.try_stone(p, self.to_move) is not None
        ]
        if self.button is None:
            moves.append("button")
        elif not self.connection or not moves:
            moves.append("pass")
        return moves

    def points(self) -> list[Point]:
        return [(c, r) for r in range(self.size) for c in range(self.size)]

    def play(self, text: str) -> None:
        mover = self.to_move
        enemy = "W" if mover == "B" else "B"
        hit = False
        board_play = False
        if text == "button":
            self.button = mover
            self.passes = 0
        elif text == "pass":
            self.passes += 1
        else:
            p = point_of(text, self.size)
            after = self.try_stone(p, mover)
            assert after is not None, text
            enemy_now = {q for q, c in after.items() if c == enemy}
            enemy_was = {q for q, c in self.stones.items() if c == enemy}
            hit = enemy_now != enemy_was
            self.stones = after
            self.passes = 0
            board_play = True
        self.to_move = enemy
        key = self.key()
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.connection:
            for colour in (mover, enemy):
                if self.joined(colour):
                    self.over, self.winner = True, colour
                    return
        enemy_left = any(c == enemy for c in self.stones.values())
        if self.passes >= 2 or (hit and not enemy_left):
            self.over = True
            black, white = self.score()
            self.winner = None if black == white else ("B" if black > white else "W")
        elif board_play and self.seen[key] >= 3:
            self.over, self.winner = True, None

    def joined(self, colour: str) -> bool:
        for g in self.groups(colour):
            if colour == "B":
                if {r for _, r in g} >= {0, self.size - 1}:
                    return True
            elif {c for c, _ in g} >= {0, self.size - 1}:
                return True
        return False

    def score(self) -> tuple[float, float]:
        """(Black, White): stones, territory, komi, the button's half point."""
        black = sum(1 for c in self.stones.values() if c == "B")
        white = sum(1 for c in self.stones.values() if c == "W") + self.komi
        seen: set[Point] = set()
        for p in self.points():
            if p in self.stones or p in seen:
                continue
            region = {p}
            todo = [p]
            touching = set()
            while todo:
                for n in self.neighbours(todo.pop()):
                    if n in self.stones:
                        touching.add(self.stones[n])
                    elif n not in region:
                        region.add(n)
                        todo.append(n)
            seen |= region
            if touching == {"B"}:
                black += len(region)
            elif touching == {"W"}:
                white += len(region)
        return (
            black + (0.5 if self.button == "B" else 0),
            white + (0.5 if self.button == "W" else 0),
        )

    def rows(self) -> list[str]:
        return [
            "".join(self.stones.get((c, r), ".") for c in range(self.size))
            for r in range(self.size)
        ]


COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def point_text(p: Point, size: int) -> str:
    return f"{COLUMNS[p[0]]}{size - p[1]}"


def point_of(text: str, size: int) -> Point:
    return COLUMNS.index(text[0]), size - int(text[1:])
