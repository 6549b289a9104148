"""Reading a pbem source tree's imports with `ast`, for the tests that
check which way they point (tests/test_layers.py, tests/ai/test_ai_imports.py):
relative imports resolved, a function's own imports included."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def module_of(path: Path, source: Path) -> list[str]:
    """The dotted parts under pbem of the module at `path` (a package as
    its own name, without `__init__`)."""
    parts = list(path.relative_to(source).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def is_module(parts: list[str], source: Path) -> bool:
    path = source.joinpath(*parts)
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imports(
    tree: ast.Module, here: list[str], package: bool
) -> Iterator[tuple[ast.stmt, list[str], str | None, str]]:
    """Every import of a pbem module in `tree` (the module `here`, a
    package if `package`), anywhere in it (a function's too): the
    statement, the module's parts under pbem, the name taken from it (None
    for `import a.b`) and the local name it is bound to."""
    base = here if package else here[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "pbem":
                    local = alias.asname or parts[0]
                    yield node, parts[1:], None, local
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != "pbem":
                    continue
                parts = parts[1:]
            else:
                parts = base[: len(base) - (node.level - 1)]
                parts = [*parts, *(node.module.split(".") if node.module else [])]
            for alias in node.names:
                yield node, parts, alias.name, alias.asname or alias.name
