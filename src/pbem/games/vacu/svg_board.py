"""The Vacu and Convacu board as a standalone SVG document, good enough to play from.

A Go board: a wood-toned square with grain, grid lines, star points and
coordinates (columns A.. without I along the top and bottom, rows from 1 at
the bottom along both sides), shaded black and white stones. Convacu frames
the wood with the edges each colour must join: thick black bars along the
top and bottom, light bars along the left and right.

Layers, bottom to top: the caption, the wood, grid and coordinates, the
stones' soft shadows, then one `<g class="point">` per point (the hover and
click target: a transparent square with a `<title>` and `data-point`, and
`data-move` on an empty point the player to move may play; it holds the
point's stone, or at the end of the game its territory mark, a small square
of the owner's colour), then the last move, ignoring the pointer so hovering
still finds the point: an orange ring on the stone just played, a ring in
the old colour inside each stone it flipped, and a faint crossed ghost of
each stone it suppressed (a suicide's own stone among them, still ringed).
The output depends only on the state, so the same position always gives the
same bytes.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from ..svg import num, polygon
from .board import BLACK, EMPTY, NEEDS, WHITE, star_points
from .notation import COLUMNS, STONE, STONE_LETTERS

if TYPE_CHECKING:
    from .state import VacuState

CAPTION_FONT = 13.0
CAPTION_LINE = CAPTION_FONT * 1.4
DISC_ROOM = CAPTION_FONT * 0.8 + 5  # a caption disc and the gap after it
MARGIN = 16.0  # page around the board and the caption
MIN_WIDTH = 440.0  # room for a readable caption on a small board

PAGE = "#f3efe6"
WOOD_LIGHT = "#e8c684"
WOOD_DARK = "#d6a956"
WOOD_EDGE = "#9c7434"
GRAIN = "#a9782f"
LINE = "#3b2a12"
LABEL = "#5a4220"
STONE_EDGE = {BLACK: "#000000", WHITE: "#77715f"}
STONE_FLAT = {BLACK: "#1b1b1b", WHITE: "#f7f6f1"}  # ghosts, caption discs, rings
TERRITORY_EDGE = {BLACK: "#f2ead8", WHITE: "#3b3324"}
LAST = "#f08c00"
HALO = "#ffd95e"
GHOST_CROSS = "#c0392b"
BAR = {BLACK: "#1b1b1b", WHITE: "#fbfaf6"}
BAR_EDGE = {BLACK: "#000000", WHITE: "#8a8273"}
CAPTION_TEXT = "#2f2b25"
COLOUR_WORDS = {BLACK: "Black", WHITE: "White"}


class Layout:
    """Where things go: the grid's first point at (0, 0), one `cell` apart."""

    def __init__(self, size: int, connection: bool) -> None:
        self.size = size
        self.cell = cell = min(40.0, 720.0 / (size - 1))
        self.span = (size - 1) * cell
        self.pad = cell * 1.15  # wood beyond the outer lines: room for coordinates
        self.bar = cell * 0.4 if connection else 0.0  # Convacu's edge bars
        self.stone = cell * 0.47
        self.font = max(10.0, cell * 0.32)

    def at(self, col: int, row: int) -> tuple[float, float]:
        return col * self.cell, row * self.cell

    @property
    def outer(self) -> float:
        """From the outer grid line to the board's outer rim, bars included."""
        return self.pad + self.bar


def winning_chains(state: VacuState) -> set[int]:
    """Convacu, once won by a connection: the points of the winner's groups
    that join both of the winner's edges."""
    result = state.result
    if not state.game.connection or result is None or result.winner is None or state.black is None:
        return set()
    board = state.board
    colour = state.colour_of(result.winner)
    need = NEEDS[colour]
    found: set[int] = set()
    for head, stones in board.members.items():
        if board.colour[head] == colour and board.reach[head] & need == need:
            found.update(stones)
    return found


class Position:
    """What the renderer needs, read once from the state."""

    def __init__(self, state: VacuState) -> None:
        self.state = state
        board = state.board
        self.board = board
        self.size = board.size
        self.stride = board.stride
        self.over = state.result is not None
        self.mover_colour = (
            state.colour_of(state.to_move)
            if state.to_move is not None and state.black is not None
            else None
        )
        self.playable: dict[int, str] = {
            move.value: state.move_text(move) for move in state.legal_moves() if move.kind == STONE
        }
        self.winning = winning_chains(state)
        # Territory once the game is over, unless a Convacu connection decided it.
        self.territory: dict[int, int] = {}
        if self.over and state.black is not None and not self.winning:
            black_land, white_land, _ = board.territory()
            self.territory = dict.fromkeys(black_land, BLACK) | dict.fromkeys(white_land, WHITE)
        # The last stone play: its point, its colour, and what it did.
        self.played: int | None = None
        self.ghosts: dict[int, int] = {}  # suppressed point -> the colour it had
        self.flipped: dict[int, int] = {}  # flipped point -> the colour it had
        last = state.last
        if last is not None and last.move.kind == STONE and state.history:
            colour = state.colour_of(state.history[-1].player)
            self.played = last.move.value
            suicide = last.move.value in last.suppressed
            gone = colour if suicide else 3 - colour
            self.ghosts = dict.fromkeys(last.suppressed, gone)
            self.flipped = dict.fromkeys(last.flipped, 3 - colour)

    def cr(self, p: int) -> tuple[int, int]:
        """A point index as (column, row) from the top left, 0-based."""
        row, col = divmod(p, self.stride)
        return col - 1, row - 1


Line = tuple[str, int | None, bool, bool]  # text, leading disc colour, bold, indented


def _komi_text(komi: int) -> str:
    """'Komi 6 for White'; a negative komi says what it does ('Komi -2 for
    White: 2 points to Black in effect')."""
    if komi < 0:
        return f"Komi {komi} for White: {-komi} points to Black in effect"
    return f"Komi {komi} for White"


def _caption_lines(state: VacuState, width: float) -> list[Line]:
    """(text, colour of the disc leading it or None, bold, indented): the
    title, whose turn or how it ended, the last move, the komi and the
    button, then each colour's score; wrapped to the width."""
    board = state.board
    size = board.size
    lines: list[tuple[str, int | None, bool]] = [(f"{state.game.title} {size}x{size}", None, True)]
    if state.game.connection:
        lines.append(
            ("Black (X) joins the top and bottom edges, White (O) the left and right.", None, False)
        )
    if state.result is not None:
        winner = state.result.winner
        # (a game may end before the colours are chosen: a resignation)
        lead = None if winner is None or state.black is None else state.colour_of(winner)
    elif state.black is not None and state.to_move is not None:
        lead = state.colour_of(state.to_move)
    else:
        lead = None
    lines.append((state.status_line(), lead, True))
    last_move = state.last_move_line()
    if last_move:
        lines.append((last_move, None, False))
    if state.komi is None:
        lines.append(
            (
                "Komi step: the first player names White's komi, then the second player "
                "chooses a colour. Black then plays first.",
                None,
                False,
            )
        )
        return _wrap(lines, width)
    if state.black is None:
        lines.append(
            (
                f"{_komi_text(state.komi)}. The second player now chooses a colour; "
                "Black then plays first.",
                None,
                False,
            )
        )
        return _wrap(lines, width)
    if state.button is None and state.result is not None:
        button = "button untaken"
    elif state.button is None:
        button = "button untaken (half a point to its taker; no passing until it is taken)"
    else:
        button = f"button taken by {state.side_text(state.button)} (half a point)"
    lines.append((f"{_komi_text(state.komi)}; {button}.", None, False))
    black_land, white_land, _ = board.territory()
    land = {BLACK: len(black_land), WHITE: len(white_land)}
    scores = state.score()
    so_far = "" if state.result is not None else " so far"
    for colour in (BLACK, WHITE):
        player = state.player_of(colour)
        parts = [f"{board.stones[colour]} stones", f"{land[colour]} territory"]
        if colour == WHITE and state.komi:
            parts.append(f"komi {state.komi}")
        if state.button == player:
            parts.append("button 0.5")
        line = f"{state.side_text(player)}: {scores[player]:g}{so_far} ({' + '.join(parts)})"
        lost = []
        if state.suppressed[player]:
            lost.append(f"{state.suppressed[player]} suppressed")
        if state.flipped[player]:
            lost.append(f"{state.flipped[player]} flipped")
        if lost:
            line += f"; lost {', '.join(lost)}"
        lines.append((line + ".", colour, False))
    return _wrap(lines, width)


def _wrap(lines: list[tuple[str, int | None, bool]], width: float) -> list[Line]:
    """Each line wrapped; the parts after the first of a line led by a disc
    are indented to stay clear of it."""
    wrapped: list[Line] = []
    for line, colour, bold in lines:
        em = 0.6 if bold else 0.53
        room = width - (DISC_ROOM if colour is not None else 0)
        for part, text in enumerate(textwrap.wrap(line, max(30, int(room / (CAPTION_FONT * em))))):
            first = part == 0
            wrapped.append((text, colour if first else None, bold, colour is not None))
    return wrapped


def render_svg(state: VacuState) -> str:
    """The whole board: wood, grid, stones, the last move, territory at the
    end, Convacu's edge bars, and a caption."""
    position = Position(state)
    layout = Layout(position.size, state.game.connection)
    board_width = layout.span + 2 * layout.outer
    width = math.ceil(max(MIN_WIDTH, board_width + 2 * MARGIN))
    caption = _caption_lines(state, width - 2 * MARGIN)
    caption_height = CAPTION_LINE * len(caption) + CAPTION_LINE * 0.4
    left = -layout.outer - (width - board_width) / 2
    top = -layout.outer - MARGIN - caption_height
    height = math.ceil(layout.span + layout.outer + MARGIN - top)
    name = state.game.name

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{width}" height="{height}" '
        f'viewBox="{num(left)} {num(top)} {width} {height}" '
        f'font-family="sans-serif" class="{name}-board" data-game="{name}" '
        f'data-size="{position.size}" data-phase="{state.phase}"'
        f"{' data-over=' + quoteattr('true') if position.over else ''}>",
        f"<title>{escape(f'{state.game.title}: {state.status_line()}')}</title>",
        _defs(name),
        f'<rect x="{num(left)}" y="{num(top)}" width="{width}" height="{height}" fill="{PAGE}"/>',
    ]
    out += _caption(caption, left + MARGIN, top + MARGIN)
    out += _wood(layout, name)
    if state.game.connection:
        out += _edge_bars(layout)
    out += _grid(layout)
    out += _shadows(position, layout)
    out.append('<g class="points">')
    for p in position.board.points:
        out += _point(position, layout, p, name)
    out.append("</g>")
    out += _last_move(position, layout)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _defs(name: str) -> str:
    """Gradients for the wood and the stones, named per game so that boards
    of both games can share an HTML page."""
    return (
        "<defs>"
        f'<linearGradient id="{name}-wood" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="{WOOD_LIGHT}"/>'
        f'<stop offset="1" stop-color="{WOOD_DARK}"/></linearGradient>'
        f'<radialGradient id="{name}-black" cx="0.5" cy="0.5" r="0.5" fx="0.34" fy="0.3">'
        '<stop offset="0" stop-color="#6e6e6e"/><stop offset="0.4" stop-color="#2b2b2b"/>'
        '<stop offset="1" stop-color="#050505"/></radialGradient>'
        f'<radialGradient id="{name}-white" cx="0.5" cy="0.5" r="0.5" fx="0.34" fy="0.3">'
        '<stop offset="0" stop-color="#ffffff"/><stop offset="0.55" stop-color="#f1efe8"/>'
        '<stop offset="1" stop-color="#c4c0b3"/></radialGradient>'
        "</defs>"
    )


def _caption(lines: list[Line], left: float, top: float) -> list[str]:
    """The caption text; a line about one colour is led by a disc of it."""
    radius = CAPTION_FONT * 0.4
    first = top + CAPTION_LINE * 0.75
    out = ['<g class="caption">']
    for index, (line, colour, bold, indented) in enumerate(lines):
        y = first + index * CAPTION_LINE
        if colour is not None:
            out.append(
                f'<circle cx="{num(left + radius)}" cy="{num(y - CAPTION_FONT * 0.35)}" '
                f'r="{num(radius)}" fill="{STONE_FLAT[colour]}" stroke="{STONE_EDGE[colour]}" '
                f'stroke-width="1"/>'
            )
        x = left + (DISC_ROOM if indented else 0)
        weight = ' font-weight="bold"' if bold else ""
        out.append(
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(CAPTION_FONT)}" '
            f'fill="{CAPTION_TEXT}"{weight}>{escape(line)}</text>'
        )
    out.append("</g>")
    return out


def _wood(layout: Layout, name: str) -> list[str]:
    """The board: a wood-toned square with faint, gently wavy grain."""
    pad = layout.pad
    side = layout.span + 2 * pad
    out = [
        '<g class="wood" pointer-events="none">',
        f'<rect x="{num(-pad)}" y="{num(-pad)}" width="{num(side)}" height="{num(side)}" '
        f'rx="{num(0 if layout.bar else 4)}" fill="url(#{name}-wood)" stroke="{WOOD_EDGE}" '
        f'stroke-width="1"/>',
    ]
    grain: list[str] = []
    lines = max(8, round(side / 14))
    for k in range(1, lines):
        y = -pad + side * k / lines + 3 * math.sin(k * 2.3)
        bend = 4 * math.sin(k * 1.7)
        grain.append(
            f"M{num(-pad)},{num(y)} "
            f"Q{num(-pad + side / 4)},{num(y + bend)} {num(-pad + side / 2)},{num(y)} "
            f"T{num(-pad + side)},{num(y)}"
        )
    out.append(
        f'<path d="{" ".join(grain)}" fill="none" stroke="{GRAIN}" stroke-opacity="0.13" '
        f'stroke-width="1.2"/>'
    )
    out.append("</g>")
    return out


def _edge_bars(layout: Layout) -> list[str]:
    """Convacu: the frame around the wood, black along the top and bottom
    edges and light along the left and right, mitred at the corners."""
    inner, outer = layout.pad, layout.outer
    lo_i, hi_i = -inner, layout.span + inner
    lo_o, hi_o = -outer, layout.span + outer

    sides = [
        ("top", BLACK, [(lo_o, lo_o), (hi_o, lo_o), (hi_i, lo_i), (lo_i, lo_i)]),
        ("bottom", BLACK, [(lo_o, hi_o), (hi_o, hi_o), (hi_i, hi_i), (lo_i, hi_i)]),
        ("left", WHITE, [(lo_o, lo_o), (lo_i, lo_i), (lo_i, hi_i), (lo_o, hi_o)]),
        ("right", WHITE, [(hi_o, lo_o), (hi_i, lo_i), (hi_i, hi_i), (hi_o, hi_o)]),
    ]
    out = ['<g class="edges">']
    for where, colour, points in sides:
        word = COLOUR_WORDS[colour]
        title = f"the {where} edge: {word} wins by joining it to the opposite edge"
        out += [
            f'<polygon class="edge {word.lower()}" data-edge="{where}" '
            f'data-colour="{word.lower()}" points="{polygon(points)}" fill="{BAR[colour]}" '
            f'stroke="{BAR_EDGE[colour]}" stroke-width="1" stroke-linejoin="miter">'
            f"<title>{escape(title)}</title></polygon>"
        ]
    out.append("</g>")
    return out


def _grid(layout: Layout) -> list[str]:
    """The lines, a bolder outline, the star points and the coordinates."""
    size, span, cell = layout.size, layout.span, layout.cell
    inner = " ".join(
        f"M0,{num(k * cell)} H{num(span)} M{num(k * cell)},0 V{num(span)}"
        for k in range(1, size - 1)
    )
    width = num(max(0.8, cell / 40))
    out = [
        '<g class="grid" pointer-events="none">',
        f'<path d="{inner}" fill="none" stroke="{LINE}" stroke-width="{width}"/>',
        f'<rect x="0" y="0" width="{num(span)}" height="{num(span)}" fill="none" '
        f'stroke="{LINE}" stroke-width="{num(max(1.4, cell / 25))}"/>',
    ]
    radius = num(max(2.2, cell * 0.1))
    for col, row in star_points(size):
        x, y = layout.at(col, row)
        out.append(f'<circle class="star" cx="{num(x)}" cy="{num(y)}" r="{radius}" fill="{LINE}"/>')
    out.append(
        f'<g class="coordinates" font-size="{num(layout.font)}" fill="{LABEL}" '
        f'text-anchor="middle" dominant-baseline="central">'
    )
    away = cell * 0.72
    for k in range(size):
        letter = COLUMNS[k]
        number = str(size - k)
        x = y = k * cell
        out += [
            f'<text x="{num(x)}" y="{num(-away)}">{letter}</text>',
            f'<text x="{num(x)}" y="{num(span + away)}">{letter}</text>',
            f'<text x="{num(-away)}" y="{num(y)}">{number}</text>',
            f'<text x="{num(span + away)}" y="{num(y)}">{number}</text>',
        ]
    out += ["</g>", "</g>"]
    return out


def _shadows(position: Position, layout: Layout) -> list[str]:
    """Soft shadows below and right of every stone, under all the stones,
    and a gold halo under a Convacu chain that won by joining its edges."""
    colour = position.board.colour
    offset = layout.cell * 0.04
    out: list[str] = []
    if position.winning:
        halo = [
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(layout.cell * 0.56)}"/>'
            for x, y in (layout.at(*position.cr(p)) for p in sorted(position.winning))
        ]
        out += [f'<g class="winning-halo" pointer-events="none" fill="{HALO}">', *halo, "</g>"]
    circles = []
    for p in position.board.points:
        if colour[p] != EMPTY:
            x, y = layout.at(*position.cr(p))
            circles.append(
                f'<circle cx="{num(x + offset)}" cy="{num(y + offset * 1.4)}" '
                f'r="{num(layout.stone)}"/>'
            )
    if circles:
        out += [
            '<g class="shadows" pointer-events="none" fill="#000" fill-opacity="0.28">',
            *circles,
            "</g>",
        ]
    return out


def _point(position: Position, layout: Layout, p: int, name: str) -> list[str]:
    """One point: its click target, title and stone or territory mark."""
    state = position.state
    where = state.point_name(p)
    colour = position.board.colour[p]
    x, y = layout.at(*position.cr(p))
    half = layout.cell / 2
    classes = ["point"]
    attrs = f"data-point={quoteattr(where)}"
    notes: list[str] = []
    if colour != EMPTY:
        word = COLOUR_WORDS[colour]
        classes += ["stone", word.lower()]
        attrs += f' data-colour="{word.lower()}"'
        title = f"{where} — {_side_of(colour)} stone"
        if p == position.played:
            classes.append("last")
            notes.append("played by the last move")
        if p in position.winning:
            classes.append("winning")
            notes.append("on the chain that joined its edges")
        if p in position.flipped:
            classes.append("flipped")
            notes.append(f"flipped from {COLOUR_WORDS[position.flipped[p]]} by the last move")
    else:
        classes.append("empty")
        attrs += ' data-colour="empty"'
        title = f"{where} — empty"
        owner = position.territory.get(p)
        if owner is not None:
            classes += ["territory", COLOUR_WORDS[owner].lower()]
            attrs += f' data-territory="{COLOUR_WORDS[owner].lower()}"'
            notes.append(f"{_side_of(owner)} territory")
        if p in position.ghosts:
            classes.append("suppressed")
            notes.append(
                f"a {COLOUR_WORDS[position.ghosts[p]]} stone here was suppressed by the last move"
            )
            if p == position.played:
                classes.append("last")
                notes.append("it was the stone just played")
        move = position.playable.get(p)
        if move is not None:
            attrs += f" data-move={quoteattr(move)}"
            classes.append("playable")
            notes.append(f"play {move}")
        elif position.mover_colour is not None and not position.over:
            notes.append(
                f"{COLOUR_WORDS[position.mover_colour]} may not play here: the stone "
                "would have no liberty and flip nothing"
            )
    if notes:
        title += "; " + "; ".join(notes)
    out = [
        f"<g class={quoteattr(' '.join(classes))} {attrs}>",
        f"<title>{escape(title)}</title>",
        f'<rect x="{num(x - half)}" y="{num(y - half)}" width="{num(layout.cell)}" '
        f'height="{num(layout.cell)}" fill="#fff" fill-opacity="0"/>',
    ]
    if colour != EMPTY:
        out.append(
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(layout.stone)}" '
            f'fill="url(#{name}-{COLOUR_WORDS[colour].lower()})" stroke="{STONE_EDGE[colour]}" '
            f'stroke-width="{num(0.8 if colour == WHITE else 0.6)}"/>'
        )
    elif p in position.territory:
        owner = position.territory[p]
        side = layout.cell * 0.3
        out.append(
            f'<rect x="{num(x - side / 2)}" y="{num(y - side / 2)}" width="{num(side)}" '
            f'height="{num(side)}" fill="{STONE_FLAT[owner]}" stroke="{TERRITORY_EDGE[owner]}" '
            f'stroke-width="0.8"/>'
        )
    out.append("</g>")
    return out


def _side_of(colour: int) -> str:
    """'Black (X)' or 'White (O)': colours, not seats, name the stones."""
    return f"{COLOUR_WORDS[colour]} ({STONE_LETTERS[colour]})"


def _last_move(position: Position, layout: Layout) -> list[str]:
    """Over the stones: crossed ghosts of the suppressed stones, rings in the
    old colour inside the flipped ones, and the orange ring on the stone
    just played (on its ghost after a suicide)."""
    out = ['<g class="last-move" pointer-events="none">']
    stone = layout.stone
    for p in sorted(position.ghosts):
        colour = position.ghosts[p]
        x, y = layout.at(*position.cr(p))
        d = stone * 0.55
        out += [
            f'<g class="ghost {COLOUR_WORDS[colour].lower()}" '
            f'data-point="{position.state.point_name(p)}">',
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(stone * 0.92)}" '
            f'fill="{STONE_FLAT[colour]}" fill-opacity="0.35" stroke="{STONE_EDGE[colour]}" '
            f'stroke-opacity="0.6" stroke-width="1.2" stroke-dasharray="3 2.5"/>',
            f'<path d="M{num(x - d)},{num(y - d)} L{num(x + d)},{num(y + d)} '
            f'M{num(x - d)},{num(y + d)} L{num(x + d)},{num(y - d)}" '
            f'stroke="{GHOST_CROSS}" stroke-opacity="0.85" stroke-width="2" '
            f'stroke-linecap="round" fill="none"/>',
            "</g>",
        ]
    for p in sorted(position.flipped):
        old = position.flipped[p]
        x, y = layout.at(*position.cr(p))
        out.append(
            f'<circle class="flip {COLOUR_WORDS[old].lower()}" '
            f'data-point="{position.state.point_name(p)}" cx="{num(x)}" cy="{num(y)}" '
            f'r="{num(stone * 0.52)}" fill="none" stroke="{STONE_FLAT[old]}" '
            f'stroke-width="{num(max(2.0, stone * 0.16))}"/>'
        )
    if position.played is not None:
        x, y = layout.at(*position.cr(position.played))
        out.append(
            f'<circle class="last-stone" data-point="{position.state.point_name(position.played)}" '
            f'cx="{num(x)}" cy="{num(y)}" r="{num(stone * 0.42)}" fill="none" '
            f'stroke="{LAST}" stroke-width="{num(max(2.2, stone * 0.15))}"/>'
        )
    out.append("</g>")
    return out
