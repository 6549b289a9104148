"""The Vasco board as a standalone SVG document, good enough to play from.

Each tile is a warm triangle with its red and blue arcs drawn as Truchet arcs:
circular arcs of radius half a side, centred on the corner between the two
edges they join, so every arc meets its edges square at their midpoints and a
path runs on smoothly into the next tile. Both arcs end at the purple edge; the
part where their strokes overlap (exactly the half-lens where two discs of
radius `ARC_RADIUS + PATH_WIDTH / 2` around the purple edge's ends meet) is
filled purple, so purple edges read as both colours going on.

Layers, bottom to top: a caption, candidate cells (dashed, numbered as on the
text board), tiles (the hover and click targets: a `<g>` with a `<title>` and
`data-*` attributes each), gold outlines on the last move's tiles, then the
paths, drawn over the outlines so they run on unbroken, and ignoring the
pointer, so hovering an arc still finds its tile. The output depends only on
the state, so the same position always gives the same bytes.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from ..svg import Point, arc_to, midpoint, num, polygon, pt
from .geometry import BLUE, LETTERS, PURPLE, RED, SIDE_COLOURS, cell_of, points_up

if TYPE_CHECKING:
    from .state import VascoState


SIDE = 60.0  # a cell's side, in SVG units (= pixels at the natural size)
HEIGHT = SIDE * math.sqrt(3) / 2
ARC_RADIUS = SIDE / 2
PATH_WIDTH = 0.15 * SIDE
MARGIN = 0.4 * SIDE
CAPTION_FONT = 13.0
CAPTION_LINE = CAPTION_FONT * 1.4
MIN_WIDTH = 320.0  # room for a readable caption on a nearly empty board

COLOUR_WORDS = {RED: "red", BLUE: "blue"}
PATH_COLOURS = {RED: "#d1352b", BLUE: "#2a5db0", PURPLE: "#7d3c98"}
LOOP_TINTS = {RED: "#f7d4cf", BLUE: "#d3e0f5"}  # tile background on a closed loop
LOOP_HALO = "#ffd95e"
PAGE = "#fdfbf6"
TILE_FILL = "#f6ead2"
TILE_EDGE = "#c7b391"
CANDIDATE_FILL = "#f7f3ea"
CANDIDATE_EDGE = "#b8ae9c"
CANDIDATE_TEXT = "#6d6456"
AUTO_MARK = "#a8987c"
LAST_PLACED = "#e09c00"
LAST_AUTO = "#f0c24b"
CAPTION_TEXT = "#3b362e"


def corners(col: int, row: int) -> tuple[Point, Point, Point]:
    """The cell's corners opposite its left, right and horizontal sides, so
    side k runs between the two corners other than `corners[k]`."""
    left = col * SIDE / 2
    top = row * HEIGHT
    bottom = top + HEIGHT
    if points_up(col, row):
        return (left + SIDE, bottom), (left, bottom), (left + SIDE / 2, top)
    return (left + SIDE, top), (left, top), (left + SIDE / 2, bottom)


def _side_midpoint(cell_corners: tuple[Point, Point, Point], side: int) -> Point:
    a, b = (p for k, p in enumerate(cell_corners) if k != side)
    return midpoint(a, b)


def _centre(cell_corners: tuple[Point, Point, Point]) -> Point:
    xs, ys = zip(*cell_corners, strict=True)
    return sum(xs) / 3, sum(ys) / 3


def _inset(cell_corners: tuple[Point, Point, Point], distance: float) -> tuple[Point, ...]:
    """The triangle whose sides lie `distance` inside the cell's sides."""
    cx, cy = _centre(cell_corners)
    scale = 1 - distance / (HEIGHT / 3)
    return tuple((cx + (x - cx) * scale, cy + (y - cy) * scale) for x, y in cell_corners)


class TileShapes:
    """The path pieces of one tile: its red and blue arcs and the purple lens."""

    def __init__(self, col: int, row: int, orientation: int) -> None:
        self.corners = corners(col, row)
        colours = SIDE_COLOURS[orientation]
        self.red_side = colours.index(RED)
        self.blue_side = colours.index(BLUE)
        self.purple_side = colours.index(PURPLE)

    def arc(self, colour: int) -> str:
        """The arc from the `colour` edge to the purple edge, centred on the
        corner they share (the corner opposite the third edge)."""
        side = self.red_side if colour == RED else self.blue_side
        other = self.blue_side if colour == RED else self.red_side
        centre = self.corners[other]
        start = _side_midpoint(self.corners, side)
        end = _side_midpoint(self.corners, self.purple_side)
        return f"M{pt(start)} {arc_to(centre, start, end, ARC_RADIUS)}"

    def lens(self) -> str:
        """Where the red and blue strokes overlap: inside both discs of radius
        `ARC_RADIUS + PATH_WIDTH / 2` around the purple edge's two ends."""
        red_centre = self.corners[self.blue_side]  # the red arc's centre
        blue_centre = self.corners[self.red_side]
        outer = ARC_RADIUS + PATH_WIDTH / 2
        ux = (blue_centre[0] - red_centre[0]) / SIDE
        uy = (blue_centre[1] - red_centre[1]) / SIDE
        near_red = (red_centre[0] + ux * (SIDE - outer), red_centre[1] + uy * (SIDE - outer))
        near_blue = (red_centre[0] + ux * outer, red_centre[1] + uy * outer)
        middle = _side_midpoint(self.corners, self.purple_side)
        cx, cy = _centre(self.corners)
        inward = math.hypot(cx - middle[0], cy - middle[1])
        depth = math.sqrt(outer * outer - ARC_RADIUS * ARC_RADIUS)
        tip = (
            middle[0] + (cx - middle[0]) / inward * depth,
            middle[1] + (cy - middle[1]) / inward * depth,
        )
        return (
            f"M{pt(near_red)} {arc_to(blue_centre, near_red, tip, outer)} "
            f"{arc_to(red_centre, tip, near_blue, outer)}Z"
        )

    def auto_mark(self) -> Point:
        """A spot clear of both arcs: a third of the way from the red-blue
        corner towards the purple edge."""
        corner = self.corners[self.purple_side]
        middle = _side_midpoint(self.corners, self.purple_side)
        return (
            corner[0] + (middle[0] - corner[0]) * 0.3,
            corner[1] + (middle[1] - corner[1]) * 0.3,
        )


def loop_cells(state: VascoState) -> dict[int, set[tuple[int, int]]]:
    """For red and for blue, the cells of the closed loops that ended the game
    (a loop ends the game at once, so it runs through the last move's tiles)."""
    found: dict[int, set[tuple[int, int]]] = {RED: set(), BLUE: set()}
    if state.result is None:
        return found
    for colour, cells in found.items():
        for cid in state.last:
            if cell_of(cid) not in cells:
                closed, path = state.board.component(cid, colour)
                if closed:
                    cells.update(cell_of(cell) for cell in path)
    return found


def _caption_lines(state: VascoState, width: float) -> list[str]:
    """Whose turn or how it ended, then the pool and the last move, wrapped."""
    last_move = state.last_move_line()
    lines = [state.status_line(), *([last_move] if last_move else [])]
    lines.append(f"Tiles left in the pool: {state.pool}.")
    wrapped: list[str] = []
    for index, line in enumerate(lines):
        em = 0.62 if index == 0 else 0.56  # the first line is bold
        wrapped.extend(textwrap.wrap(line, max(30, int(width / (CAPTION_FONT * em)))))
    return wrapped


def render_svg(state: VascoState) -> str:
    """The whole board: tiles, numbered candidate cells, last move, caption."""
    tiles = state.tiles()
    positions = [cell_of(cid) for cid in state.positions]
    playable: dict[tuple[int, int], str] = {}
    for move in state.legal_moves():
        playable[move.cell] = playable.get(move.cell, "") + LETTERS[move.orientation]
    last = [cell_of(cid) for cid in state.last]
    loops = loop_cells(state)

    # (a board ended before its first tile, by a declined challenge, has
    # neither tiles nor places to play: it is drawn around the first cell)
    cells = [(col, row) for col, row, _, _ in tiles] + positions or [(0, 0)]
    xs = [x for cell in cells for x, _ in corners(*cell)]
    ys = [y for cell in cells for _, y in corners(*cell)]
    board_left, board_right = min(xs) - MARGIN, max(xs) + MARGIN
    board_width = board_right - board_left
    if board_width < MIN_WIDTH:
        board_left -= (MIN_WIDTH - board_width) / 2
        board_width = MIN_WIDTH
    caption = _caption_lines(state, board_width - 2 * MARGIN)
    caption_height = MARGIN / 2 + CAPTION_LINE * len(caption)
    top = min(ys) - MARGIN - caption_height
    height = max(ys) + MARGIN - top

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{round(board_width)}" height="{round(height)}" '
        f'viewBox="{num(board_left)} {num(top)} {num(board_width)} {num(height)}" '
        f'font-family="sans-serif" class="vasco-board">',
        f"<title>{escape('Vasco: ' + state.status_line())}</title>",
        f'<rect x="{num(board_left)}" y="{num(top)}" width="{num(board_width)}" '
        f'height="{num(height)}" fill="{PAGE}"/>',
    ]
    out += _caption(state, caption, board_left + MARGIN, top + MARGIN / 2)

    out.append('<g class="candidates">')
    for number, cell in enumerate(positions, start=1):
        out += _candidate(number, cell, playable[cell])
    out.append("</g>")

    out.append('<g class="tiles">')
    for col, row, orientation, auto in tiles:
        loop = next((colour for colour, cells in loops.items() if (col, row) in cells), None)
        out += _tile(col, row, orientation, auto, (col, row) in last, loop)
    out.append("</g>")

    out += _last_move(last)
    out += _paths(tiles, loops)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _caption(state: VascoState, lines: list[str], left: float, top: float) -> list[str]:
    """The caption text, led by a dot in the colour of the player to move or
    the winner (grey for a draw)."""
    player = state.to_move if state.result is None else state.result.winner
    # Player 0 (O) owns red and player 1 (X) blue, so a player index is a colour.
    dot = "#8c8579" if player is None else PATH_COLOURS[player]
    radius = CAPTION_FONT * 0.38
    first = top + CAPTION_LINE * 0.75
    out = [
        '<g class="caption">',
        f'<circle cx="{num(left + radius)}" cy="{num(first - CAPTION_FONT * 0.35)}" '
        f'r="{num(radius)}" fill="{dot}"/>',
    ]
    for index, line in enumerate(lines):
        x = left + (radius * 2 + 5 if index == 0 else 0)
        weight = ' font-weight="bold"' if index == 0 else ""
        out.append(
            f'<text x="{num(x)}" y="{num(first + index * CAPTION_LINE)}" '
            f'font-size="{num(CAPTION_FONT)}" fill="{CAPTION_TEXT}"{weight}>{escape(line)}</text>'
        )
    out.append("</g>")
    return out


def _candidate(number: int, cell: tuple[int, int], letters: str) -> list[str]:
    """An empty cell holding a legal move: faint, with its position number."""
    col, row = cell
    cell_corners = corners(col, row)
    cx, cy = _centre(cell_corners)
    where = f"{col},{row}"
    title = f"position {number}: cell {where} — playable as {', '.join(letters)}"
    font = SIDE * (0.3 if number < 100 else 0.24)
    return [
        f'<g class="candidate" data-cell="{where}" data-choices="{where}" '
        f'data-position="{number}" data-orientations="{letters}">',
        f"<title>{escape(title)}</title>",
        f'<polygon points="{polygon(_inset(cell_corners, 3))}" fill="{CANDIDATE_FILL}" '
        f'stroke="{CANDIDATE_EDGE}" stroke-width="1" stroke-dasharray="3 3"/>',
        f'<text x="{num(cx)}" y="{num(cy)}" font-size="{num(font)}" fill="{CANDIDATE_TEXT}" '
        f'text-anchor="middle" dominant-baseline="central">{number}</text>',
        "</g>",
    ]


def _tile(
    col: int, row: int, orientation: int, auto: bool, last: bool, loop: int | None
) -> list[str]:
    """A tile's hover and click target: its triangle and, if auto-placed, a dot."""
    letter = LETTERS[orientation]
    where = f"{col},{row}"
    classes = ["tile"]
    title = f"{letter}{where}{' (auto)' if auto else ''} — cell {where}, orientation {letter}"
    if auto:
        classes.append("auto")
    if last:
        classes.append("last")
        title += ", placed by the last move"
    if loop is not None:
        classes.append("loop")
        title += f", on the closed {COLOUR_WORDS[loop]} loop"
    shapes = TileShapes(col, row, orientation)
    fill = TILE_FILL if loop is None else LOOP_TINTS[loop]
    out = [
        f"<g class={quoteattr(' '.join(classes))} data-cell={quoteattr(where)} "
        f'data-tile="{letter}" data-played="{letter}{where}">',
        f"<title>{escape(title)}</title>",
        f'<polygon points="{polygon(shapes.corners)}" fill="{fill}" stroke="{TILE_EDGE}" '
        f'stroke-width="0.8" stroke-linejoin="round"/>',
    ]
    if auto:
        x, y = shapes.auto_mark()
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="2.5" fill="{AUTO_MARK}"/>')
    out.append("</g>")
    return out


def _paths(
    tiles: list[tuple[int, int, int, bool]], loops: dict[int, set[tuple[int, int]]]
) -> list[str]:
    """All arcs, one path per colour, over a halo along any closed loop."""
    red: list[str] = []
    blue: list[str] = []
    purple: list[str] = []
    halos: dict[int, list[str]] = {RED: [], BLUE: []}
    for col, row, orientation, _ in tiles:
        shapes = TileShapes(col, row, orientation)
        red.append(shapes.arc(RED))
        blue.append(shapes.arc(BLUE))
        purple.append(shapes.lens())
        for colour, cells in loops.items():
            if (col, row) in cells:
                halos[colour].append(shapes.arc(colour))
    out = ['<g class="paths" pointer-events="none" fill="none" stroke-linecap="butt">']
    for colour, arcs in halos.items():
        if arcs:
            out.append(
                f'<path class="loop-halo {COLOUR_WORDS[colour]}" d="{" ".join(arcs)}" '
                f'stroke="{LOOP_HALO}" stroke-width="{num(PATH_WIDTH * 2.2)}"/>'
            )
    width = num(PATH_WIDTH)
    if tiles:
        out += [
            f'<path class="red" d="{" ".join(red)}" stroke="{PATH_COLOURS[RED]}" '
            f'stroke-width="{width}"/>',
            f'<path class="blue" d="{" ".join(blue)}" stroke="{PATH_COLOURS[BLUE]}" '
            f'stroke-width="{width}"/>',
            f'<path class="purple" d="{" ".join(purple)}" fill="{PATH_COLOURS[PURPLE]}"/>',
        ]
    out.append("</g>")
    return out


def _last_move(last: list[tuple[int, int]]) -> list[str]:
    """Gold outlines: a strong one on the placed tile, lighter ones on its auto tiles."""
    out = ['<g class="last-move" pointer-events="none" fill="none" stroke-linejoin="round">']
    for index, (col, row) in enumerate(last):
        colour, width = (LAST_PLACED, 3.0) if index == 0 else (LAST_AUTO, 2.0)
        points = polygon(_inset(corners(col, row), width / 2 + 0.5))
        out.append(
            f'<polygon class="{"placed" if index == 0 else "auto"}" points="{points}" '
            f'stroke="{colour}" stroke-width="{num(width)}"/>'
        )
    out.append("</g>")
    return out
