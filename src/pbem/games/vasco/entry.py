"""Entering a Vasco move by clicking: a candidate cell (`data-choices`) offers
the orientations legal there, each pictured among its neighbours, with the
auto tiles it brings and whether it ends the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Choice, read_cell
from ..svg import FADED, num, picture, polygon
from . import geometry
from . import svg_board as drawing

if TYPE_CHECKING:
    from .move import VascoMove
    from .state import VascoState


def choices(state: VascoState, place: str) -> list[Choice]:
    """The orientations legal at cell `place`, pictured."""
    cell = read_cell(place)
    return [choice(state, move) for move in state.legal_moves() if move.cell == cell]


def choice(state: VascoState, move: VascoMove) -> Choice:
    """Orientation `move` at its cell: the tile after the move with the
    tiles around it faded, the new tile outlined; the label tells about
    auto tiles and a game-ending loop."""
    after = state.play(move)
    col, row = move.cell
    near = {
        (c, r): orientation
        for c, r, orientation, _ in after.tiles()
        if abs(c - col) <= 3 and abs(r - row) <= 2
    }
    autos = max(0, len(after.last) - 1)
    letter = geometry.LETTERS[move.orientation]
    sides = ", ".join(
        f"{geometry.SIDE_NAMES[k]} edge {('red', 'blue', 'purple')[colour]}"
        for k, colour in enumerate(geometry.SIDE_COLOURS[move.orientation])
    )
    label = move.text + (f" +{autos} auto" if autos else "")
    description = f"Orientation {letter} at {col},{row}: {sides}"
    if autos:
        description += f"; {autos} auto tile{'s' if autos > 1 else ''} follow"
    if after.result is not None:
        label += " (ends)"
        description += "; this ends the game"
    placed = {geometry.cell_of(cid) for cid in after.last}  # the tile and its auto tiles
    body = [
        tile(c, r, orientation, faded=(c, r) not in placed)
        for (c, r), orientation in sorted(near.items(), key=lambda item: item[0] in placed)
    ]
    here = drawing.corners(col, row)
    body.append(
        f'<polygon points="{polygon(here)}" fill="none" stroke="{drawing.LAST_PLACED}" '
        f'stroke-width="3" stroke-linejoin="round"/>'
    )
    xs = [x for x, _ in here]
    ys = [y for _, y in here]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    return Choice(move.text, label, description, picture(centre, drawing.SIDE * 1.3, body))


def tile(col: int, row: int, orientation: int, faded: bool) -> str:
    """One tile as the board draws it: triangle, red and blue arcs, purple lens."""
    shapes = drawing.TileShapes(col, row, orientation)
    colours = drawing.PATH_COLOURS
    red, blue = geometry.RED, geometry.BLUE
    width = num(drawing.PATH_WIDTH)
    opacity = FADED if faded else ""
    return (
        f"<g{opacity}>"
        f'<polygon points="{polygon(shapes.corners)}" fill="{drawing.TILE_FILL}" '
        f'stroke="{drawing.TILE_EDGE}" stroke-width="0.8"/>'
        f'<path d="{shapes.arc(red)}" fill="none" stroke="{colours[red]}" stroke-width="{width}"/>'
        f'<path d="{shapes.arc(blue)}" fill="none" stroke="{colours[blue]}" '
        f'stroke-width="{width}"/>'
        f'<path d="{shapes.lens()}" fill="{colours[geometry.PURPLE]}"/></g>'
    )
