"""Dependencies point one way (../shared/DESIGN.md): the doors (`web`,
`mail`, `cli`) and the bot worker (`bots`) go through `server`; `server`
uses `store` and `games`; the search (`ai`) uses only `games`; `games`
imports nothing else of pbem. Checked on the source, so a stray
import fails here before it tangles anything."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "pbem"


def pbem_imports(path: Path) -> set[str]:
    """The pbem packages a module imports (its first part: `store`, ...)."""
    package = path.relative_to(SOURCE).parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] == "pbem" and len(parts) > 1:
                    found.add(parts[1])
                continue
            base = list(package[: len(package) - (node.level - 1)])
            parts = [*base, *(node.module.split(".") if node.module else [])]
            if parts:
                found.add(parts[0])
            else:  # `from .. import x` at the top: x is the package
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "pbem" and len(parts) > 1:
                    found.add(parts[1])
    return found


FORBIDDEN = {
    "games": {"server", "store", "web", "mail", "cli", "serve", "ai", "bots"},
    "store": {"server", "web", "mail", "cli", "serve", "ai", "bots"},
    "server": {"web", "mail", "cli", "serve", "ai", "bots"},
    "web": {"store", "mail", "ai", "bots"},
    "mail": {"ai", "bots"},
    # the search knows only the rules; the bot worker goes through the server
    "ai": {"server", "store", "web", "mail", "cli", "serve", "bots"},
    "bots": {"store", "web", "mail", "cli", "serve"},
}


def test_games_import_nothing_but_games() -> None:
    for path in sorted((SOURCE / "games").rglob("*.py")):
        assert pbem_imports(path) <= {"games"}, path.relative_to(SOURCE)


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_dependencies_point_one_way(layer: str) -> None:
    for path in sorted((SOURCE / layer).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        wrong = pbem_imports(path) & FORBIDDEN[layer]
        assert not wrong, f"{path.relative_to(SOURCE)} imports {sorted(wrong)}"


def test_the_check_sees_imports() -> None:
    """The checker itself: it finds relative and absolute imports."""
    assert "store" in pbem_imports(SOURCE / "server" / "board_view.py")
    assert "games" in pbem_imports(SOURCE / "server" / "registry.py")
