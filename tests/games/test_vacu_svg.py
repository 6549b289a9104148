"""The Vacu and Convacu SVG board: well-formed, one click target per point
with its name and (when legal) its move, stones as in the position, the last
move's stone, flips and suppressions marked, territory only at the end,
Convacu's edge bars and winning chain, renderable, and byte-identical to the
golden files (PBEM_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import os
import random
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.games import get_game
from pbem.games.vacu import VacuState
from pbem.games.vacu.board import BLACK, WHITE, star_points
from pbem.games.vacu.state import STONE
from pbem.games.vacu.svg_board import render_svg
from pbem.server.views.pictures import svg_png
from tests.games import svg_parts
from tests.games.svg_parts import SVG, classes, groups, last_move_layer, title

VACU = get_game("vacu")
CONVACU = get_game("convacu")
GOLDEN = Path(__file__).parent / "golden"
KOMI = ("-komi=6",)

# B1 has no liberty: Black's own stone is suppressed and White's A1, whose
# last liberty B1 was, flips to Black.
FLIP = ("A2", "A1", "E5", "C1", "E6", "B2", "B1")
# E4 closes the fourth side around White's E5: suppressed.
SUPPRESS = ("D5", "E5", "F5", "A1", "E6", "A2", "E4")
# 5x5: Black's column B and White's column D wall off A and E; C is nobody's.
WALLS_OPTIONS = ("-komi=0", "-size=5")
WALLS = ("B1", "D1", "B2", "D2", "B3", "D3", "B4", "D4", "B5", "D5", "button", "pass", "pass")
# Convacu: Black runs down column E while White wanders the diagonal.
CONNECT = (
    "E1", "A1", "E2", "B2", "E3", "C3", "E4", "D4", "E5", "F5", "E6", "G6", "E7", "H7",
    "E8", "J8", "E9",
)  # fmt: skip


def play(*moves: str, options: tuple[str, ...] = KOMI, game: str = "vacu") -> VacuState:
    state = get_game(game).start(options)
    for text in moves:
        state = state.play_text(text)
    assert isinstance(state, VacuState)
    return state


def random_game(
    seed: int, moves: int, options: tuple[str, ...] = KOMI, game: str = "vacu"
) -> VacuState:
    rng = random.Random(seed)
    state = play(options=options, game=game)
    while state.result is None and len(state.history) < moves:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def parse(state: VacuState) -> ET.Element:
    return svg_parts.parse(state.svg_board())


def points(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-point", ""): g for g in groups(root, "point")}


def caption(root: ET.Element) -> str:
    return " ".join(t.text or "" for g in groups(root, "caption") for t in g.iter(f"{SVG}text"))


def names(state: VacuState, indices: tuple[int, ...] | list[int]) -> list[str]:
    return sorted(state.point_name(p) for p in indices)


STATES = {
    "komi step": lambda: play(options=()),
    "colour step": lambda: play("komi7", options=()),
    "first stone": lambda: play("komi7", "white", "E5", options=()),
    "flip": lambda: play(*FLIP),
    "suppress": lambda: play(*SUPPRESS),
    "walls ended": lambda: play(*WALLS, options=WALLS_OPTIONS),
    "random 9": lambda: random_game(1, 40),
    "random ended": lambda: random_game(2, 3000),
    "random 13": lambda: random_game(3, 80, ("-komi=6", "-size=13")),
    "random 19": lambda: random_game(4, 150, ("-komi=6", "-size=19")),
    "convacu": lambda: random_game(5, 40, game="convacu"),
    "convacu won": lambda: play(*CONNECT, game="convacu"),
}


@pytest.fixture(params=list(STATES), ids=list(STATES))
def state(request: pytest.FixtureRequest) -> VacuState:
    return STATES[request.param]()


def test_standalone_svg_document(state: VacuState) -> None:
    svg = state.svg_board()
    assert svg == render_svg(state)
    root = ET.fromstring(svg.encode())
    assert root.tag == f"{SVG}svg"
    width, height = float(root.get("width", 0)), float(root.get("height", 0))
    view = [float(v) for v in root.get("viewBox", "").split()]
    assert len(view) == 4 and (width, height) == (view[2], view[3])
    assert root.get("font-family") == "sans-serif"
    assert root.get("data-game") == state.game.name
    assert root.get("class") == f"{state.game.name}-board"
    assert root.get("data-size") == str(state.board.size)
    assert root.get("data-phase") == state.phase
    assert (root.get("data-over") == "true") == (state.result is not None)
    assert "<script" not in svg and "href" not in svg  # no scripts, no external resources


def test_one_point_group_per_point_with_title(state: VacuState) -> None:
    shown = groups(parse(state), "point")
    expected = [state.point_name(p) for p in state.board.points]
    assert [g.get("data-point") for g in shown] == expected
    assert len(shown) == state.board.size**2
    for group in shown:
        assert title(group).startswith(f"{group.get('data-point')} — ")
        target = group.find(f"{SVG}rect")
        assert target is not None and target.get("fill-opacity") == "0"


def test_points_inside_the_viewbox(state: VacuState) -> None:
    root = parse(state)
    left, top, width, height = (float(v) for v in root.get("viewBox", "").split())
    for group in groups(root, "point"):
        rect = group.find(f"{SVG}rect")
        assert rect is not None
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        size = float(rect.get("width", 0))
        assert left < x and x + size < left + width and top < y and y + size < top + height


def test_stones_match_the_position(state: VacuState) -> None:
    shown = groups(parse(state), "point")
    letters = {"black": "B", "white": "W", "empty": "."}
    drawn = "".join(letters[g.get("data-colour", "")] for g in shown)
    assert drawn == "".join(state.position()["board"])
    for group in shown:
        colour = group.get("data-colour")
        stones = list(group.iter(f"{SVG}circle"))
        if colour == "empty":
            assert not stones and "empty" in classes(group)
        else:
            (stone,) = stones
            assert stone.get("fill") == f"url(#{state.game.name}-{colour})"
            assert {"stone", colour} <= classes(group)
            word = colour.capitalize()
            assert f"{word} ({'X' if word == 'Black' else 'O'}) stone" in title(group)


def test_legal_points_carry_their_move(state: VacuState) -> None:
    playable = {
        state.point_name(m.value): state.move_text(m)
        for m in state.legal_moves()
        if m.kind == STONE
    }
    shown = points(parse(state))
    assert {name: g.get("data-move") for name, g in shown.items() if g.get("data-move")} == playable
    for name, group in shown.items():
        assert ("playable" in classes(group)) == (name in playable)
        if name in playable:
            assert title(group).endswith(f"play {playable[name]}")


def test_komi_step_shows_an_empty_board_and_says_so() -> None:
    state = play(options=())
    root = parse(state)
    assert {g.get("data-colour") for g in groups(root, "point")} == {"empty"}
    assert not any(g.get("data-move") for g in groups(root, "point"))
    text = caption(root)
    assert state.status_line() in text
    assert "Komi step" in text
    colour_step = caption(parse(play("komi7", options=())))
    assert "Komi 7 for White" in colour_step and "chooses a colour" in colour_step


def test_last_stone_ringed() -> None:
    state = play(*SUPPRESS)
    root = parse(state)
    e4 = points(root)["E4"]
    assert {"stone", "black", "last"} <= classes(e4)
    assert "played by the last move" in title(e4)
    rings = [c for c in last_move_layer(root) if c.get("class") == "last-stone"]
    assert [c.get("data-point") for c in rings] == ["E4"]
    assert [g.get("data-point") for g in groups(root, "last")] == ["E4"]


def test_suppressed_stones_shown_as_crossed_ghosts() -> None:
    state = play(*SUPPRESS)
    assert state.last is not None
    root = parse(state)
    ghosts = groups(last_move_layer(root), "ghost")
    assert [g.get("data-point") for g in ghosts] == names(state, state.last.suppressed) == ["E5"]
    assert classes(ghosts[0]) == {"ghost", "white"}
    assert ghosts[0].find(f"{SVG}path") is not None  # the cross
    e5 = points(root)["E5"]
    assert e5.get("data-colour") == "empty" and "suppressed" in classes(e5)
    assert "a White stone here was suppressed by the last move" in title(e5)
    assert not [c for c in last_move_layer(root) if c.get("class", "").startswith("flip")]


def test_flipped_stones_ringed_in_their_old_colour() -> None:
    state = play(*FLIP)
    assert state.last is not None
    root = parse(state)
    layer = last_move_layer(root)
    flips = [c for c in layer if "flip" in classes(c)]
    assert [c.get("data-point") for c in flips] == names(state, state.last.flipped) == ["A1"]
    assert classes(flips[0]) == {"flip", "white"}
    a1 = points(root)["A1"]
    assert {"stone", "black", "flipped"} <= classes(a1)
    assert "flipped from White by the last move" in title(a1)
    # The suicide: Black's own B1 is a black ghost, still ringed as the last stone.
    ghosts = groups(layer, "ghost")
    assert [(g.get("data-point"), classes(g)) for g in ghosts] == [("B1", {"ghost", "black"})]
    rings = [c.get("data-point") for c in layer if c.get("class") == "last-stone"]
    assert rings == ["B1"]
    b1 = points(root)["B1"]
    assert {"empty", "suppressed", "last"} <= classes(b1)
    assert "it was the stone just played" in title(b1)


def test_a_pass_or_the_button_marks_no_point() -> None:
    for state in (play("E5", "button"), play(*WALLS, options=WALLS_OPTIONS)):
        root = parse(state)
        assert not list(last_move_layer(root))
        assert not groups(root, "last")


def test_territory_only_at_the_end(state: VacuState) -> None:
    root = parse(state)
    marked = {g.get("data-point"): g.get("data-territory") for g in groups(root, "territory")}
    if state.result is None or (state.game.connection and "joined" in state.result.reason):
        assert not marked
        return
    black_land, white_land, _ = state.board.territory()
    expected = {state.point_name(p): "black" for p in black_land}
    expected |= {state.point_name(p): "white" for p in white_land}
    assert marked == expected
    for name in marked:
        group = points(root)[name]
        assert len(group.findall(f"{SVG}rect")) == 2  # the target and the mark
        assert "territory" in title(group)


def test_walls_territory() -> None:
    state = play(*WALLS, options=WALLS_OPTIONS)
    assert state.result is not None
    root = parse(state)
    marked = {g.get("data-point"): g.get("data-territory") for g in groups(root, "territory")}
    expected = {f"A{row}": "black" for row in range(1, 6)}
    expected |= {f"E{row}": "white" for row in range(1, 6)}
    assert marked == expected
    text = caption(root)
    assert "Black (X): 10.5 (5 stones + 5 territory + button 0.5)." in text
    assert "White (O): 10 (5 stones + 5 territory)." in text


def test_caption_names_komi_button_and_score() -> None:
    state = play(*SUPPRESS)
    text = caption(parse(state))
    assert text.startswith("Vacu 9x9 ")
    assert state.status_line() in text
    assert "Last move: E4 by Black (X) (suppressed E5)." in text
    assert "Komi 6 for White; button untaken" in text
    assert "Black (X): 5 so far (4 stones + 1 territory)." in text
    assert "White (O): 8 so far (2 stones + 0 territory + komi 6); lost 1 suppressed." in text
    taken = caption(parse(play("E5", "button")))
    assert "button taken by White (O) (half a point)" in taken
    assert "Convacu 9x9" in caption(parse(play(game="convacu")))


def test_convacu_edge_bars() -> None:
    root = parse(play(game="convacu"))
    (layer,) = groups(root, "edges")
    bars = {p.get("data-edge"): p.get("data-colour") for p in layer.iter(f"{SVG}polygon")}
    assert bars == {"top": "black", "bottom": "black", "left": "white", "right": "white"}
    fills = {p.get("data-colour"): p.get("fill") for p in layer.iter(f"{SVG}polygon")}
    assert fills["black"] != fills["white"]
    assert not groups(parse(play()), "edges")


def test_convacu_winning_chain_haloed() -> None:
    state = play(*CONNECT, game="convacu")
    assert state.result is not None and state.result.winner == state.player_of(BLACK)
    root = parse(state)
    chain = [g.get("data-point") for g in groups(root, "winning")]
    assert sorted(chain) == [f"E{r}" for r in range(1, 10)]
    (halo,) = groups(root, "winning-halo")
    assert len(list(halo)) == 9
    assert not groups(root, "territory")  # the connection decided it, not the score
    assert not groups(parse(play(*CONNECT[:-1], game="convacu")), "winning-halo")


def test_colours_of_the_last_move_follow_the_mover() -> None:
    """After the komi step the second player may be Black: colours, not seats."""
    state = play("komi7", "black", "E5", "D5", options=())
    assert state.colour_of(0) == WHITE
    d5 = points(parse(state))["D5"]
    assert {"stone", "white", "last"} <= classes(d5)
    assert state.board.stones[BLACK] == 1


def test_star_points() -> None:
    def named(size: int) -> list[str]:
        state = play(options=("-komi=0", f"-size={size}"))
        stride = state.board.stride
        return sorted(state.point_name((r + 1) * stride + c + 1) for c, r in star_points(size))

    assert named(9) == ["C3", "C7", "E5", "G3", "G7"]
    assert named(13) == ["D10", "D4", "G7", "K10", "K4"]
    assert named(19) == ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
    assert named(5) == ["C3"]
    assert named(6) == []
    stars = groups(parse(play()), "grid")[0].findall(f"{SVG}circle")
    assert len(stars) == 5


def test_coordinates_skip_i() -> None:
    root = parse(play(options=("-komi=0", "-size=19")))
    (labels,) = groups(root, "coordinates")
    texts = [t.text for t in labels.iter(f"{SVG}text")]
    assert "I" not in texts and "T" in texts and "19" in texts and "1" in texts


def test_deterministic(state: VacuState) -> None:
    again = state.game.replay(state.options, state.moves)
    assert state.svg_board() == state.svg_board() == again.svg_board()


def test_renders_to_png() -> None:
    for state in (play(*FLIP), play(*CONNECT, game="convacu")):
        png = svg_png(state.svg_board(), 600)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert png[12:16] == b"IHDR"
        width, height = struct.unpack(">II", png[16:24])
        assert width == 600 and 600 < height < 1000


@pytest.mark.parametrize(
    ("name", "moves", "options", "game"),
    [
        ("vacu_flip", FLIP, KOMI, "vacu"),
        ("vacu_walls", WALLS, WALLS_OPTIONS, "vacu"),
        ("convacu_connected", CONNECT, KOMI, "convacu"),
    ],
)
def test_golden(name: str, moves: tuple[str, ...], options: tuple[str, ...], game: str) -> None:
    """Byte-for-byte against a file that was looked at rendered; after a
    deliberate change of the drawing, rerun with PBEM_UPDATE_GOLDEN=1 and look again."""
    path = GOLDEN / f"{name}.svg"
    svg = play(*moves, options=options, game=game).svg_board()
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert svg == path.read_text(encoding="utf-8")
