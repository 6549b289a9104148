"""The Trugo board as a standalone SVG document, good enough to play from.

Each tile is the Palago tile: a flat-topped hexagon whose edges are split at
their midpoints, each half the colour of the corner it touches. The white
base is painted over with the blue half: the blue arch (the band from one
blue corner to the other, curving around the white tip and closed by a
straight line across the tile between the two edge midpoints where blue meets
white) and the small blue tip opposite. The tips are 120-degree sectors of
radius half an edge, so on the board a disc of that radius around every
vertex has the vertex's colour and the regions run on across tile edges.

Layers, bottom to top: the caption, numbered positions (Waxing phase: faint
dashed hexagons with their number and cell), tiles (the hover and click
targets: a `<g>` with a `<title>` and `data-*` attributes each, holding the
two halves and the cell label), all tile outlines in one path, the last
move's tile outline or the dashed ghost of a removed tile, the vertices
(partial junctions as faint dots, empty junctions as small rings, occupied
ones with their pieces; a stack of two shows its pinned bottom piece as a
wide ring with pin ticks around the top one), then the rest of the last move:
an arrow for a piece move, rings around new pieces, crossed ghosts for
captured pieces and for pieces that left with a removed tile. The output
depends only on the state, so the same position always gives the same bytes.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from ..svg import Point, arc_to, midpoint, num, polygon, pt
from .board import MOVE, ORIGIN, PLACE, REMOVE
from .geometry import (
    BLUE,
    COLOUR_NAMES,
    CORNER_NAMES,
    CORNER_OFFSETS,
    ROTATIONS,
    WHITE,
    cell_text,
    colour_of,
    point_of,
    vertex_name,
)

if TYPE_CHECKING:
    from .state import TrugoState


RADIUS = 40.0  # a hexagon's circumradius (= its edge), in SVG units
STEP_X = RADIUS / 2  # one fine-lattice step across
STEP_Y = RADIUS * math.sqrt(3) / 2  # one fine-lattice step down
TIP_RADIUS = RADIUS / 2
MARGIN = 0.6 * RADIUS
CAPTION_FONT = 13.0
CAPTION_LINE = CAPTION_FONT * 1.4
MIN_WIDTH = 500.0  # room for a readable caption on a nearly empty board

PIECE_RADIUS = 0.3 * RADIUS
PINNED_RADIUS = 0.42 * RADIUS  # the bottom of a stack: a wide ring around the top
TOP_RADIUS = 0.25 * RADIUS
EMPTY_RADIUS = 0.1 * RADIUS
PARTIAL_RADIUS = 0.06 * RADIUS

PAGE = "#ebe7de"
TILE_WHITE = "#fdfdfb"
TILE_BLUE = "#6f9fd8"
TILE_EDGE = "#4b5563"
LABEL = "#2b2f36"
EMPTY_MARK = {WHITE: "#98a2b0", BLUE: "#2f5e9e"}
PARTIAL_MARK = "#6b7280"
PIECE_FILL = {WHITE: "#ffffff", BLUE: "#173c86"}
PIECE_EDGE = {WHITE: "#1f2329", BLUE: "#0b1a3a"}
PIN_MARK = {WHITE: "#c0392b", BLUE: "#ff8a7a"}  # red ticks, bright on a dark ring
GAP = "#e6ecf5"  # between a stack's top piece and the pinned ring
POSITION_FILL = "#f4f1ea"
POSITION_EDGE = "#aaa498"
POSITION_TEXT = "#8a8478"
LAST = "#f08c00"
GHOST_CROSS = "#c0392b"
CAPTION_TEXT = "#2f2b25"
PLAYER_WORDS = ("White (O)", "Blue (X)")
PIECE_LETTERS = "OX"


def _at(pid: int) -> Point:
    """The page position of a cell centre or vertex id."""
    x, y = point_of(pid)
    return x * STEP_X, y * STEP_Y


def _corners(cid: int, inset: float = 0.0) -> list[Point]:
    """The cell's corners e, ne, nw, w, sw, se, `inset` units towards its centre."""
    cx, cy = _at(cid)
    scale = 1 - inset / RADIUS
    return [(cx + dx * STEP_X * scale, cy + dy * STEP_Y * scale) for dx, dy in CORNER_OFFSETS]


def blue_half(cid: int, rotation: int) -> str:
    """The path of the tile's blue half: the blue arch around the white tip,
    closed by the straight line between the edge midpoints where it meets the
    white arch, and the blue tip at the opposite corner."""
    corners = _corners(cid)
    tip = 2 * rotation  # the white tip; the blue tip is opposite

    def corner(k: int) -> Point:
        return corners[k % 6]

    def side_middle(k: int) -> Point:  # side k runs from corner k to corner k + 1
        return midpoint(corner(k), corner(k + 1))

    arch = (
        f"M{pt(side_middle(tip + 1))} L{pt(corner(tip + 1))} L{pt(side_middle(tip))} "
        f"{arc_to(corner(tip), side_middle(tip), side_middle(tip + 5), TIP_RADIUS)} "
        f"L{pt(corner(tip + 5))} L{pt(side_middle(tip + 4))}Z"
    )
    blue_tip = tip + 3
    start, end = side_middle(blue_tip + 5), side_middle(blue_tip)
    tip_sector = (
        f"M{pt(corner(blue_tip))} L{pt(start)} {arc_to(corner(blue_tip), start, end, TIP_RADIUS)}Z"
    )
    return f"{arch} {tip_sector}"


def _stack_text(stack: tuple[int, ...]) -> str:
    return "".join(PIECE_LETTERS[p] for p in stack)


def _caption_lines(state: TrugoState, width: float) -> list[tuple[str, int | None]]:
    """(line, player whose disc leads it): whose turn or how it ended, the last
    move, the phase and pool, then each player's pieces; wrapped."""
    board = state.board
    lines: list[tuple[str, int | None]] = [(state.status_line(), None)]
    last_move = state.last_move_line()
    if last_move:
        lines.append((last_move, None))
    if board.pool > 0:
        tiles = "tile" if board.pool == 1 else "tiles"
        lines.append((f"Waxing phase: {board.pool} {tiles} left in the pool.", None))
    else:
        lines.append(("Waning phase: the pool is empty; tiles are removed.", None))
    on_board = board.on_board()
    show_gone = board.pool == 0 or any(board.removed)
    for player in (WHITE, BLUE):
        line = (
            f"{PLAYER_WORDS[player]}: {board.hand[player]} in hand, "
            f"{on_board[player]} on board, {board.captured[player]} captured"
        )
        if show_gone:
            line += f", {board.removed[player]} gone with tiles"
        lines.append((line + ".", player))
    wrapped: list[tuple[str, int | None]] = []
    for index, (line, seat) in enumerate(lines):
        em = 0.56 if index == 0 else 0.5  # the first line is bold
        for part, text in enumerate(textwrap.wrap(line, max(30, int(width / (CAPTION_FONT * em))))):
            wrapped.append((text, seat if part == 0 else None))
    return wrapped


def render_svg(state: TrugoState) -> str:
    """The whole board: tiles, junctions and pieces, numbered positions, the
    last move, and a caption."""
    board = state.board
    last = state.last
    ghost_cell = last.move.raw[1] if last is not None and last.move.raw[0] == REMOVE else None

    cells = list(board.tiles) + list(state.positions)
    if ghost_cell is not None:
        cells.append(ghost_cell)
    points = [p for cid in cells for p in _corners(cid)] or _corners(ORIGIN)
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    left, right = min(xs) - MARGIN, max(xs) + MARGIN
    width = right - left
    if width < MIN_WIDTH:
        left -= (MIN_WIDTH - width) / 2
        width = MIN_WIDTH
    width = math.ceil(width)  # whole units, so the page fills the viewport exactly
    caption = _caption_lines(state, width - 2 * MARGIN)
    caption_height = MARGIN / 2 + CAPTION_LINE * len(caption)
    top = min(ys) - MARGIN - caption_height
    height = math.ceil(max(ys) + MARGIN - top)

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{round(width)}" height="{round(height)}" '
        f'viewBox="{num(left)} {num(top)} {num(width)} {num(height)}" '
        f'font-family="sans-serif" class="trugo-board" data-phase="{state.phase}">',
        f"<title>{escape('Trugo: ' + state.status_line())}</title>",
        f'<rect x="{num(left)}" y="{num(top)}" width="{num(width)}" '
        f'height="{num(height)}" fill="{PAGE}"/>',
    ]
    out += _caption(state, caption, left + MARGIN, top + MARGIN / 2)

    out.append('<g class="positions">')
    for number, cid in enumerate(state.positions, start=1):
        out += _position(number, cid)
    out.append("</g>")

    placed = last.move.raw[1] if last is not None and last.move.raw[0] == PLACE else None
    out.append('<g class="tiles">')
    for cid in board.order:
        can_remove = state.phase == "waning" and state.result is None and board.removable(cid)
        out += _tile(cid, board.tiles[cid], cid == placed, can_remove)
    out.append("</g>")
    if board.order:
        # All outlines in one layer over all fills, so shared edges look alike.
        edges = " ".join(f"M{polygon(_corners(cid))}Z" for cid in board.order)
        out.append(
            f'<path class="tile-edges" pointer-events="none" d="{edges}" fill="none" '
            f'stroke="{TILE_EDGE}" stroke-width="0.8" stroke-linejoin="round"/>'
        )

    out += _last_tile(state)

    out.append('<g class="junctions">')
    for vid in sorted(board.count):
        out += _junction(state, vid)
    out.append("</g>")

    out += _last_marks(state)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _caption(
    state: TrugoState, lines: list[tuple[str, int | None]], left: float, top: float
) -> list[str]:
    """The caption text; the first line is led by a disc in the colour of the
    player to move or the winner (grey for a draw), each player's line by a
    disc of their pieces."""
    mover = state.to_move if state.result is None else state.result.winner
    radius = CAPTION_FONT * 0.38
    first = top + CAPTION_LINE * 0.75
    out = ['<g class="caption">']
    for index, (line, player) in enumerate(lines):
        y = first + index * CAPTION_LINE
        disc = mover if index == 0 else player
        x = left
        if index == 0 or player is not None:
            fill = "#8c8579" if disc is None else PIECE_FILL[disc]
            edge = "#5c574e" if disc is None else PIECE_EDGE[disc]
            out.append(
                f'<circle cx="{num(left + radius)}" cy="{num(y - CAPTION_FONT * 0.35)}" '
                f'r="{num(radius)}" fill="{fill}" stroke="{edge}" stroke-width="1"/>'
            )
            x = left + radius * 2 + 5
        weight = ' font-weight="bold"' if index == 0 else ""
        out.append(
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(CAPTION_FONT)}" '
            f'fill="{CAPTION_TEXT}"{weight}>{escape(line)}</text>'
        )
    out.append("</g>")
    return out


def _position(number: int, cid: int) -> list[str]:
    """A cell where a tile may be placed: faint, with its number and cell."""
    where = cell_text(cid)
    cx, cy = _at(cid)
    by_number = ", ".join(f"{r}{number}" for r in ROTATIONS)
    by_cell = ", ".join(f"{r}{where}" for r in ROTATIONS)
    title = f"position {number}: cell {where} — place a tile here: {by_number} ({by_cell})"
    font = RADIUS * (0.42 if number < 100 else 0.34)
    return [
        f'<g class="position" data-position="{number}" data-cell="{where}" data-choices="{where}">',
        f"<title>{escape(title)}</title>",
        f'<polygon points="{polygon(_corners(cid, 3))}" fill="{POSITION_FILL}" '
        f'stroke="{POSITION_EDGE}" stroke-width="1" stroke-dasharray="4 3"/>',
        f'<text x="{num(cx)}" y="{num(cy - RADIUS * 0.05)}" font-size="{num(font)}" '
        f'fill="{POSITION_TEXT}" text-anchor="middle" font-weight="bold">{number}</text>',
        f'<text x="{num(cx)}" y="{num(cy + RADIUS * 0.38)}" font-size="{num(RADIUS * 0.24)}" '
        f'fill="{POSITION_TEXT}" text-anchor="middle">{where}</text>',
        "</g>",
    ]


def _tile(cid: int, rotation: int, last: bool, removable: bool) -> list[str]:
    """A tile's hover and click target: white base, blue half and cell label."""
    letter = ROTATIONS[rotation]
    where = cell_text(cid)
    white_tip = CORNER_NAMES[2 * rotation]
    blue_tip = CORNER_NAMES[(2 * rotation + 3) % 6]
    classes = ["tile"]
    title = (
        f"{letter}{where} — cell {where}, rotation {letter}: "
        f"white tip at {white_tip}, blue tip at {blue_tip}"
    )
    extra = ""
    if last:
        classes.append("last")
        title += "; placed by the last move"
    if removable:
        classes.append("removable")
        title += f"; removable (x{where})"
        extra = f' data-move="x{where}"'
    cx, cy = _at(cid)
    return [
        f"<g class={quoteattr(' '.join(classes))} data-cell={quoteattr(where)} "
        f'data-rotation="{letter}"{extra}>',
        f"<title>{escape(title)}</title>",
        f'<polygon points="{polygon(_corners(cid))}" fill="{TILE_WHITE}"/>',
        f'<path class="blue-half" d="{blue_half(cid, rotation)}" fill="{TILE_BLUE}"/>',
        f'<text x="{num(cx)}" y="{num(cy)}" font-size="{num(RADIUS * 0.22)}" fill="{LABEL}" '
        f'text-anchor="middle" dominant-baseline="central">{where}</text>',
        "</g>",
    ]


def _last_tile(state: TrugoState) -> list[str]:
    """An orange outline on the tile just placed, or the dashed ghost of the
    tile just removed."""
    out = ['<g class="last-move-tile" pointer-events="none" fill="none" stroke-linejoin="round">']
    last = state.last
    if last is not None:
        kind, cid, _ = last.move.raw
        if kind == PLACE:
            out.append(
                f'<polygon class="placed" points="{polygon(_corners(cid, 2))}" '
                f'stroke="{LAST}" stroke-width="3"/>'
            )
        elif kind == REMOVE:
            where = cell_text(cid)
            out += [
                f'<g class="removed" data-cell="{where}">',
                f"<title>{escape(f'x{where} — the tile removed by the last move')}</title>",
                f'<polygon points="{polygon(_corners(cid, 2))}" fill="{LAST}" '
                f'fill-opacity="0.08" stroke="{LAST}" stroke-width="2.5" '
                f'stroke-dasharray="7 5"/>',
                "</g>",
            ]
    out.append("</g>")
    return out


def _junction(state: TrugoState, vid: int) -> list[str]:
    """One vertex: a faint dot when partial, a small ring when an empty
    junction, else its piece or stack."""
    board = state.board
    name = vertex_name(vid)
    colour = colour_of(vid)
    tiles = board.count[vid]
    x, y = _at(vid)
    stack = board.stacks.get(vid, ())
    attrs = (
        f'data-junction="{name}" data-place="{name}" data-colour="{COLOUR_NAMES[colour]}" '
        f'data-tiles="{tiles}"'
    )
    if tiles < 3:
        title = (
            f"{name} — partial {COLOUR_NAMES[colour]} junction ({tiles} of 3 tiles): "
            "pieces pass through it but never stop there"
        )
        return [
            f'<g class="junction partial" {attrs}>',
            f"<title>{escape(title)}</title>",
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(PARTIAL_RADIUS)}" '
            f'fill="{PARTIAL_MARK}" fill-opacity="0.45"/>',
            "</g>",
        ]
    if not stack:
        title = f"{name} — empty {COLOUR_NAMES[colour]} junction"
        return [
            f'<g class="junction empty" {attrs}>',
            f"<title>{escape(title)}</title>",
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(EMPTY_RADIUS)}" fill="none" '
            f'stroke="{EMPTY_MARK[colour]}" stroke-width="1.2"/>',
            "</g>",
        ]
    if len(stack) == 1:
        title = f"{name} — {PLAYER_WORDS[stack[0]]} piece on a {COLOUR_NAMES[colour]} junction"
    else:
        title = (
            f"{name} — stack: {PLAYER_WORDS[stack[1]]} on top, pinning "
            f"{PLAYER_WORDS[stack[0]]} below, on a {COLOUR_NAMES[colour]} junction"
        )
    out = [
        f'<g class="junction occupied" {attrs} data-stack="{_stack_text(stack)}" '
        f'data-height="{len(stack)}">',
        f"<title>{escape(title)}</title>",
    ]
    if len(stack) == 1:
        out.append(_piece(x, y, PIECE_RADIUS, stack[0], 1, pinned=False))
    else:
        out.append(_piece(x, y, PINNED_RADIUS, stack[0], 1, pinned=True))
        out += _pin_ticks(x, y, stack[0])
        out.append(
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(TOP_RADIUS + 1.8)}" fill="{GAP}"/>'
        )
        out.append(_piece(x, y, TOP_RADIUS, stack[1], 2, pinned=False))
    out.append("</g>")
    return out


def _piece(x: float, y: float, radius: float, player: int, level: int, pinned: bool) -> str:
    classes = f"piece {COLOUR_NAMES[player]}{' pinned' if pinned else ''}"
    return (
        f'<circle class="{classes}" data-player="{player}" data-level="{level}" '
        f'cx="{num(x)}" cy="{num(y)}" r="{num(radius)}" fill="{PIECE_FILL[player]}" '
        f'stroke="{PIECE_EDGE[player]}" stroke-width="1.5"/>'
    )


def _pin_ticks(x: float, y: float, player: int) -> list[str]:
    """Four short radial strokes across the pinned piece's visible ring."""
    inner, outer = TOP_RADIUS + 1, PINNED_RADIUS - 1
    parts = []
    for angle in (45, 135, 225, 315):
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        parts.append(
            f"M{pt((x + dx * inner, y + dy * inner))} L{pt((x + dx * outer, y + dy * outer))}"
        )
    return [
        f'<path class="pin" d="{" ".join(parts)}" stroke="{PIN_MARK[player]}" stroke-width="2.2" '
        f'stroke-linecap="round" fill="none"/>'
    ]


def _ghost(vid: int, players: list[int], why: str, occupied: bool) -> list[str]:
    """A faint crossed piece (or stack) where pieces left the board; set off to
    the upper right when a piece still stands on the junction."""
    x, y = _at(vid)
    if occupied:
        x, y = x + RADIUS * 0.32, y - RADIUS * 0.32
    radius = PIECE_RADIUS
    name = vertex_name(vid)
    who = " and ".join(PLAYER_WORDS[p] for p in players)
    out = [
        f'<g class="ghost" data-junction="{name}" data-stack="{_stack_text(tuple(players))}">',
        f"<title>{escape(f'{name} — {who} {why} by the last move')}</title>",
    ]
    for index, player in enumerate(players):
        r = radius * (1.35 if len(players) > 1 and index == 0 else 1)
        out.append(
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{PIECE_FILL[player]}" '
            f'fill-opacity="0.45" stroke="{PIECE_EDGE[player]}" stroke-opacity="0.6" '
            f'stroke-width="1.2" stroke-dasharray="3 2"/>'
        )
    d = radius * 0.75
    out += [
        f'<path d="M{pt((x - d, y - d))} L{pt((x + d, y + d))} M{pt((x - d, y + d))} '
        f'L{pt((x + d, y - d))}" stroke="{GHOST_CROSS}" stroke-width="2" '
        f'stroke-linecap="round" fill="none"/>',
        "</g>",
    ]
    return out


def _arrow(start: Point, end: Point) -> list[str]:
    """An arrow from a piece's old junction to its new one, stopping short of both."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    a = (start[0] + ux * EMPTY_RADIUS * 1.6, start[1] + uy * EMPTY_RADIUS * 1.6)
    tip = (end[0] - ux * (PIECE_RADIUS + 4), end[1] - uy * (PIECE_RADIUS + 4))
    head = 9.0
    base = (tip[0] - ux * head, tip[1] - uy * head)
    wing = head * 0.55
    left = (base[0] - uy * wing, base[1] + ux * wing)
    right = (base[0] + uy * wing, base[1] - ux * wing)
    return [
        f'<path class="arrow" d="M{pt(a)} L{pt(base)}" stroke="{LAST}" stroke-width="3" '
        f'stroke-linecap="round" fill="none"/>',
        f'<polygon class="arrow-head" points="{polygon([tip, left, right])}" fill="{LAST}"/>',
    ]


def _last_marks(state: TrugoState) -> list[str]:
    """The last move over the pieces: a piece move's arrow and rings, rings
    around new pieces, ghosts of captured pieces and of pieces that left with
    a removed tile."""
    out = ['<g class="last-move" pointer-events="none">']
    last = state.last
    if last is not None:
        stacks = state.board.stacks
        kind, a, b = last.move.raw
        if kind == MOVE:
            x, y = _at(a)
            out.append(
                f'<circle class="from" data-junction="{vertex_name(a)}" cx="{num(x)}" '
                f'cy="{num(y)}" r="{num(PIECE_RADIUS)}" fill="none" stroke="{LAST}" '
                f'stroke-width="2" stroke-dasharray="4 3"/>'
            )
            x, y = _at(b)
            ring = (PINNED_RADIUS if len(stacks.get(b, ())) == 2 else PIECE_RADIUS) + 3
            out.append(
                f'<circle class="to" data-junction="{vertex_name(b)}" cx="{num(x)}" '
                f'cy="{num(y)}" r="{num(ring)}" fill="none" stroke="{LAST}" stroke-width="2.5"/>'
            )
            out += _arrow(_at(a), _at(b))
        for vid in last.filled:
            x, y = _at(vid)
            out.append(
                f'<circle class="new" data-junction="{vertex_name(vid)}" cx="{num(x)}" '
                f'cy="{num(y)}" r="{num(PIECE_RADIUS + 3)}" fill="none" stroke="{LAST}" '
                f'stroke-width="2.5"/>'
            )
        for vid, stack in last.gone:
            out += _ghost(vid, list(stack), "left the game with the tile", False)
        taken: dict[int, list[int]] = {}
        for vid, player in last.taken:
            taken.setdefault(vid, []).append(player)
        for vid in sorted(taken):
            out += _ghost(vid, taken[vid], "captured", vid in stacks)
    out.append("</g>")
    return out
