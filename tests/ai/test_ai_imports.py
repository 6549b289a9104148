"""`ai/` knows only the game contract, checked on the source with `ast`.

The search's modules (`src/pbem/ai/`) import no private name (a leading
underscore) of another pbem module, use none through a module or a name
they imported (`mcts._analysis`), import nothing of `games/` but the
package and its contract (`games/base.py`: a game's compiled tree is
reached through its search position), and import each other without a
cycle, a function's late import included. What two of them share is a
public name of the lower one (`ai/tree.py`). Each rule is shown to bite
on a copy of the source with one wrong line planted."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from tests.source_imports import imports, is_module, module_of

SOURCE = Path(__file__).resolve().parents[2] / "src" / "pbem"
CONTRACT = {"games", "games.base"}  # all of games/ that ai/ may import


def private(name: str) -> bool:
    """A name private to its module: a leading underscore, not a dunder."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def target(parts: list[str], name: str | None, source: Path) -> list[str]:
    """The module an import reaches: `from a import b` reaches `a.b` when
    that is a module, else `a`."""
    if name is not None and is_module([*parts, name], source):
        return [*parts, name]
    return parts


def chain(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None for anything not rooted at a name."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(names)]


def problems(source: Path) -> list[str]:
    """Every breach of the rules above in the `ai` package of `source` (a
    pbem tree), one line each."""
    found: list[str] = []
    arrows: dict[str, set[str]] = {}
    for path in sorted((source / "ai").rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        where = "/".join(path.relative_to(source).parts)
        here = module_of(path, source)
        me = ".".join(here)
        arrows.setdefault(me, set())
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported: dict[str, str] = {}  # local name: what it is (pbem.x.y or pbem.x.y:name)
        for statement, parts, name, local in imports(tree, here, path.name == "__init__.py"):
            line = f"{where}:{statement.lineno}"
            reached = target(parts, name, source)
            dotted = ".".join(reached)
            hidden = [part for part in parts if private(part)]
            if name is not None and private(name):
                found.append(f"{line} imports {name} from pbem.{'.'.join(parts)}")
            elif hidden:
                found.append(f"{line} imports private module pbem.{'.'.join(parts)}")
            if reached[:1] == ["games"] and dotted not in CONTRACT:
                found.append(f"{line} imports pbem.{dotted}, not the game contract")
            if reached[:1] == ["ai"] and dotted != me:
                arrows[me].add(dotted)
            whole = "pbem." + ".".join(parts) if name is None else f"pbem.{dotted}"
            if name is not None and reached == parts:
                whole += f":{name}"
            imported[local] = whole
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute | ast.Call):
                continue
            used: list[str] | None = None
            if isinstance(node, ast.Attribute) and private(node.attr):
                used = chain(node)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and private(node.args[1].value)
            ):
                root = chain(node.args[0])
                used = None if root is None else [*root, node.args[1].value]
            if used and used[0] in imported:
                found.append(f"{where}:{node.lineno} uses {'.'.join(used)} ({imported[used[0]]})")
    found.extend(f"import cycle in ai/: {' -> '.join(cycle)}" for cycle in cycles(arrows))
    return list(dict.fromkeys(found))  # (one line for `from a import b, c`)


def cycles(arrows: dict[str, set[str]]) -> list[list[str]]:
    """The cycles a depth-first walk meets (one at least wherever there is
    any), each as its modules in order from the first by name, which ends
    it again."""
    found: list[list[str]] = []
    done: set[str] = set()
    on_path: list[str] = []

    def visit(module: str) -> None:
        on_path.append(module)
        for other in sorted(arrows.get(module, ())):
            if other in on_path:
                loop = on_path[on_path.index(other) :]
                first = loop.index(min(loop))  # told the same way from any start
                loop = loop[first:] + loop[:first]
                if [*loop, loop[0]] not in found:
                    found.append([*loop, loop[0]])
            elif other not in done:
                visit(other)
        on_path.pop()
        done.add(module)

    for module in sorted(arrows):
        if module not in done:
            visit(module)
    return found


def copied(tmp_path: Path) -> Path:
    """A copy of what the checker reads (`ai/` and `games/`), to plant in."""
    copy = tmp_path / "pbem"
    for package in ("ai", "games"):
        shutil.copytree(
            SOURCE / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return copy


def test_ai_knows_only_the_game_contract() -> None:
    assert problems(SOURCE) == []


def test_the_source_before_the_contract_is_refused(tmp_path: Path) -> None:
    """How `vacu_tree` stood before it knew only the contract: Vacu's board
    and compiled loop imported, `mcts`'s private names, and a late import
    back from `mcts` (a cycle)."""
    copy = copied(tmp_path)
    (copy / "ai" / "vacu_tree.py").write_text(BEFORE, encoding="utf-8")
    assert problems(copy) == [
        "ai/vacu_tree.py:3 imports pbem.games.splitmix, not the game contract",
        "ai/vacu_tree.py:4 imports pbem.games.vacu.compiled, not the game contract",
        "ai/vacu_tree.py:5 imports pbem.games.vacu.board, not the game contract",
        "ai/vacu_tree.py:6 imports pbem.games.vacu.search, not the game contract",
        "ai/vacu_tree.py:7 imports _analysis from pbem.ai.mcts",
        "ai/vacu_tree.py:7 imports _rave_tables from pbem.ai.mcts",
        "ai/vacu_tree.py:11 uses mcts._iterate_rave (pbem.ai.mcts)",
        "import cycle in ai/: ai.mcts -> ai.vacu_tree -> ai.mcts",
    ]


BEFORE = """from ..games import get_game
from ..games.base import SearchPosition
from ..games.splitmix import AVAILABLE, njit
from ..games.vacu import compiled
from ..games.vacu.board import BLACK, EDGE, EMPTY, NEEDS, WHITE
from ..games.vacu.search import BUTTON_MOVE, PASS_MOVE, default_cap
from .mcts import RESERVE, Analysis, Budget, Node, Settings, _analysis, _rave_tables
from . import mcts


REFERENCE = mcts._iterate_rave
"""


def test_the_search_modules_point_one_way() -> None:
    """The arrows the checker sees in the real source, so a checker that
    saw none could not pass: both searches build on `tree`, and `mcts`
    hands a compiled tree's search to `vacu_tree`."""
    arrows: dict[str, set[str]] = {}
    for path in (SOURCE / "ai").glob("*.py"):
        here = module_of(path, SOURCE)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        arrows[".".join(here)] = {
            ".".join(target(parts, name, SOURCE))
            for _, parts, name, _ in imports(tree, here, path.name == "__init__.py")
        }
    assert {"ai.tree", "ai.vacu_tree"} <= arrows["ai.mcts"]
    assert "ai.tree" in arrows["ai.vacu_tree"]
    assert "ai.mcts" not in arrows["ai.vacu_tree"] | arrows["ai.tree"]
    assert not {name for name in arrows["ai.tree"] if name.startswith("ai")}
    assert cycles(arrows) == []


@pytest.mark.parametrize(
    ("file", "planted", "found"),
    [
        # how vacu_tree stood before: mcts's private names, and a cycle
        (
            "ai/vacu_tree.py",
            "from .mcts import RESERVE, Node, _analysis, _rave_tables",
            [
                "imports _analysis from pbem.ai.mcts",
                "imports _rave_tables from pbem.ai.mcts",
                "import cycle in ai/: ai.mcts -> ai.vacu_tree -> ai.mcts",
            ],
        ),
        # a late import, inside a function, is an arrow all the same
        (
            "ai/tree.py",
            "def later():\n    from . import mcts\n\n    return mcts.search",
            ["import cycle in ai/: ai.mcts -> ai.tree -> ai.mcts"],
        ),
        (
            "ai/levels.py",
            "from . import mcts\n\nPICK = mcts._select",
            ["ai/levels.py:", "uses mcts._select (pbem.ai.mcts)"],
        ),
        (
            "ai/decide.py",
            'import pbem.ai.tree\n\nRANK = getattr(pbem.ai.tree, "_hidden")',
            ["uses pbem.ai.tree._hidden (pbem.ai.tree)"],
        ),
        (
            "ai/levels.py",
            "from .tree import Node\n\nSLOTS = Node._secret",
            ["uses Node._secret (pbem.ai.tree:Node)"],
        ),
        (
            "ai/decide.py",
            "from ..games.vacu.search import _MOVE_WORDS",
            [
                "imports _MOVE_WORDS from pbem.games.vacu.search",
                "imports pbem.games.vacu.search, not the game contract",
            ],
        ),
        (
            "ai/vacu_tree.py",
            "from ..games.vacu.compiled import run",
            ["imports pbem.games.vacu.compiled, not the game contract"],
        ),
        (
            "ai/mcts.py",
            "from ..games import vacu",
            ["imports pbem.games.vacu, not the game contract"],
        ),
    ],
)
def test_a_planted_wrong_line_is_found(
    tmp_path: Path, file: str, planted: str, found: list[str]
) -> None:
    """The checker itself, on a copy of the source with one line added."""
    copy = copied(tmp_path)
    assert problems(copy) == []
    path = copy / file
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + planted + "\n", encoding="utf-8")
    seen = problems(copy)
    for expected in found:
        assert any(expected in line for line in seen), (expected, seen)
