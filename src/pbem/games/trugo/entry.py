"""Entering a Trugo move by clicking: in the Waxing a position
(`data-choices`) offers the rotations legal there, pictured; in the Waning a
removable tile is its move (`data-move`); a piece on a junction
(`data-place`) shows where it can go. A pass is a button, offered only when
it is the only move."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..base import Choice, MoveButton, MoveSyntaxError, read_cell
from ..svg import FADED, Point, picture, polygon
from . import svg_board as drawing
from .board import MOVE, PASS, PLACE
from .geometry import (
    CELL_PATTERN,
    CORNER_DELTAS,
    CORNER_NAMES,
    CORNER_OFFSETS,
    CORNER_PATTERN,
    ROTATIONS,
    SIDE_DELTAS,
    cell_id,
    cell_of,
    in_reach,
    point_of,
    vertex_name,
)

if TYPE_CHECKING:
    from .move import TrugoMove
    from .state import TrugoState

_JUNCTION = re.compile(rf"\s*{CELL_PATTERN}{CORNER_PATTERN}\s*", re.IGNORECASE)


def parse_junction(text: str) -> int:
    """A junction's vertex id from any of its names (`1,0e`, `1,-1sw`)."""
    match = _JUNCTION.fullmatch(text)
    if not match:
        raise MoveSyntaxError(text, "a junction is a cell and a corner, like 1,0e or 0,-1sw")
    col, row = int(match.group(1)), int(match.group(2))
    if not in_reach(col, row):
        raise MoveSyntaxError(text, f"cell {col},{row} is far beyond any tile")
    return cell_id(col, row) + CORNER_DELTAS[CORNER_NAMES.index(match.group(3).lower())]


def buttons(state: TrugoState) -> list[MoveButton]:
    """A pass, which is legal only when nothing else is."""
    if state.result is not None or state.to_move is None:
        return []
    moves = state.legal_moves()
    if len(moves) == 1 and moves[0].raw[0] == PASS:
        hint = "You have no tile to place or remove and no piece that can move, so you pass."
        return [MoveButton("Pass", "pass", hint)]
    return []


def choices(state: TrugoState, place: str) -> list[Choice]:
    """The rotations legal at cell `place`, pictured."""
    cell = read_cell(place)
    return [
        choice(state, move)
        for move in state.legal_moves()
        if move.raw[0] == PLACE and cell_of(move.raw[1]) == cell
    ]


def movable(state: TrugoState) -> list[str]:
    """The junctions (canonical names) whose top piece can move now."""
    starts = (vertex_name(move.raw[1]) for move in state.legal_moves() if move.raw[0] == MOVE)
    return list(dict.fromkeys(starts))


def destinations(state: TrugoState, start: str) -> dict[str, list[str]]:
    """Where the piece on junction `start` can go: each junction's name and
    the moves that end there."""
    vid = parse_junction(start)
    found: dict[str, list[str]] = {}
    for move in state.legal_moves():
        if move.raw[0] == MOVE and move.raw[1] == vid:
            found.setdefault(vertex_name(move.raw[2]), []).append(move.text)
    return found


def _hexagon(cid: int) -> list[Point]:
    """A cell's corners as the board draws them."""
    x, y = point_of(cid)
    cx, cy = x * drawing.STEP_X, y * drawing.STEP_Y
    return [(cx + dx * drawing.STEP_X, cy + dy * drawing.STEP_Y) for dx, dy in CORNER_OFFSETS]


def choice(state: TrugoState, move: TrugoMove) -> Choice:
    """Rotation `move` at its cell: the tile with its neighbours faded and
    the new tile outlined."""
    _, cid, rotation = move.raw
    letter = ROTATIONS[rotation]
    col, row = cell_of(cid)
    white_tip = CORNER_NAMES[2 * rotation]
    blue_tip = CORNER_NAMES[(2 * rotation + 3) % 6]
    description = (
        f"Rotation {letter} at {col},{row}: white tip at {white_tip}, blue tip at {blue_tip}"
    )
    tiles = state.board.tiles
    body: list[str] = []
    for other, other_rotation, faded in [
        *((cid + d, tiles[cid + d], True) for d in SIDE_DELTAS if cid + d in tiles),
        (cid, rotation, False),
    ]:
        opacity = FADED if faded else ""
        body.append(
            f'<g{opacity}><polygon points="{polygon(_hexagon(other))}" '
            f'fill="{drawing.TILE_WHITE}" stroke="{drawing.TILE_EDGE}" stroke-width="0.8"/>'
            f'<path d="{drawing.blue_half(other, other_rotation)}" '
            f'fill="{drawing.TILE_BLUE}"/></g>'
        )
    body.append(
        f'<polygon points="{polygon(_hexagon(cid))}" fill="none" stroke="{drawing.LAST}" '
        f'stroke-width="3" stroke-linejoin="round"/>'
    )
    x, y = point_of(cid)
    centre = (x * drawing.STEP_X, y * drawing.STEP_Y)
    return Choice(move.text, move.text, description, picture(centre, drawing.RADIUS * 2.5, body))
