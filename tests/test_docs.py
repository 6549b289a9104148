"""The documents say what the code does: their examples are checked here."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pbem.games import get_game

ROOT = Path(__file__).resolve().parents[1]
VASCO_RULES = (ROOT / "docs" / "rules" / "vasco.md").read_text(encoding="utf-8")


def code_block_after(text: str, marker: str) -> str:
    start = text.index(marker)
    match = re.search(r"```\n(.*?)```", text[start:], re.DOTALL)
    assert match, f"no code block after {marker!r}"
    return match.group(1)


def test_vasco_rules_show_the_real_text_board() -> None:
    state = get_game("vasco").start()
    for text in ["a0,0", "b1,0", "a2,1"]:
        state = state.play_text(text)
    assert code_block_after(VASCO_RULES, "Here is the board after") == state.text_board()


def test_vasco_rules_json_example_is_real() -> None:
    block = code_block_after(VASCO_RULES, "For example, `pbem vasco preview new 2 -size=3")
    flat = re.sub(r"\s+", " ", block)
    state = get_game("vasco").start(["-size=3"]).play_text("a0,0").play_text("a2,0")
    assert json.loads(flat) == json.loads(re.sub(r"\s+", " ", json.dumps(state.to_json())))


def test_vasco_rules_lines_fit_a_terminal() -> None:
    assert max(len(line) for line in VASCO_RULES.splitlines()) <= 80
