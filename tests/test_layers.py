"""Dependencies point one way (docs/design.md), checked on the source so a
stray import fails here before it tangles anything.

Between the packages of `src/pbem/`: the doors (`web`, `mail`, `cli`) and
the bot worker (`bots`) go through `server`; `server` uses `store` and
`games`; the search (`ai`) uses only `games`; `games` imports nothing else
of pbem; `host` runs the processes and may start anything; nothing but
`cli` imports `host`. Outside `server/`, what is used of it is imported
from `pbem.server` itself, its one face (server/__init__.py), never from a
module below it. Inside `server/`, its sub-packages and loose modules are
ranked: each imports only what ranks below it."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from tests.source_imports import imports, is_module, module_of

SOURCE = Path(__file__).resolve().parents[1] / "src" / "pbem"

# What each package of pbem may import of the others (beyond itself).
MAY_IMPORT: dict[str, set[str]] = {
    "games": set(),
    "store": {"games"},
    "server": {"games", "store"},
    "ai": {"games"},
    "bots": {"ai", "server"},
    # the outbox is mail's own queue: delivery reads it and marks it sent
    "mail": {"games", "server", "store", "settings"},
    "web": {"games", "server", "settings"},
    "host": {"bots", "mail", "server", "settings", "store", "web"},
    "cli": {"__version__", "bots", "games", "host", "mail", "server", "settings", "store"},
    "settings": set(),
}
LOOSE = {"__init__", "cli", "settings"}  # the only modules at the top of src/pbem

# server/'s parts, lowest first: each may import only parts of lower ranks.
SERVER_RANKS: list[set[str]] = [
    {"errors"},  # the error every command raises
    {"players", "views"},  # accounts, passwords, ratings; the read side
    {"language"},  # commands, their words, the registry, what a command produces
    {"context"},  # what every command works with
    {"mailing"},  # board mails, the game's story, footers, subscriptions
    {"boards"},  # a board's life: challenges, moves, votes, the tick
    {"runners"},  # what each command does
    {"dispatch", "read_side"},  # from a command to its runner; what the doors read
    {"service"},  # the Server front
    {"api_tokens", "bot_turns"},  # lanes on the front: tokens, the bots' side
    {"warm_up"},  # a web process made ready
    {"__init__"},  # the package's face: all that the rest of pbem uses of it
]


def imported_modules(path: Path, source: Path) -> set[str]:
    """The pbem modules (or packages) a file imports, as dotted names under
    pbem (`server.views.board_view`, `store`), relative imports resolved;
    for `from a import b`, both `a` and `a.b` (the caller keeps modules)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for _, parts, name, _ in imports(tree, module_of(path, source), path.name == "__init__.py"):
        if parts:
            found.add(".".join(parts))
        if name is not None:
            found.add(".".join([*parts, name]))
    return found


def below_the_face(path: Path, source: Path) -> set[str]:
    """The modules under `pbem.server` (not the package itself) that a file
    imports from."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for _, parts, _name, _ in imports(tree, module_of(path, source), path.name == "__init__.py"):
        if parts[:1] == ["server"] and len(parts) > 1:
            found.add(".".join(parts))
    return found


def server_rank(part: str) -> int:
    return next(rank for rank, parts in enumerate(SERVER_RANKS) if part in parts)


def wrong_arrows(source: Path) -> list[str]:
    """Every import in `source` (a pbem tree) against the tables above."""
    wrong = []
    for path in sorted(source.rglob("*.py")):
        if "migrations" in path.parts or "__pycache__" in path.parts:
            continue
        parts = path.relative_to(source).with_suffix("").parts
        top = parts[0]
        where = "/".join(path.relative_to(source).parts)
        if len(parts) == 1 and top not in LOOSE:
            wrong.append(f"{where} is loose at the top of src/pbem: it belongs in a package")
        if top != "server":
            wrong += [f"{where} imports {below}: import it from pbem.server" for below in
                      sorted(below_the_face(path, source))]  # fmt: skip
        names = {
            name for name in imported_modules(path, source) if is_module(name.split("."), source)
        }
        for name in sorted(names):
            if any(other.startswith(name + ".") for other in names):
                continue  # (`from ..host import serve`: host.serve says it)
            other = name.split(".")[0]
            if top in MAY_IMPORT and other != top and other not in MAY_IMPORT[top]:
                wrong.append(f"{where} imports {name}")
            if top == "server" and other == "server" and len(parts) > 1:
                inner = name.split(".")
                if len(inner) < 2:
                    continue  # the package itself: `from .. import x` lists x
                mine, theirs = parts[1], inner[1]
                if mine != theirs and server_rank(theirs) >= server_rank(mine):
                    wrong.append(f"{where} ({mine}) imports {name} ({theirs}), which ranks as high")
    return wrong


def test_every_import_points_one_way() -> None:
    assert wrong_arrows(SOURCE) == []


def test_every_part_of_server_is_ranked() -> None:
    parts = {
        path.stem if path.is_file() else path.name
        for path in (SOURCE / "server").iterdir()
        if path.name != "__pycache__" and (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert parts == set().union(*SERVER_RANKS)


def test_every_package_is_in_the_table() -> None:
    packages = {path.name for path in SOURCE.iterdir() if (path / "__init__.py").exists()}
    assert packages | {"cli", "settings"} == set(MAY_IMPORT)


@pytest.mark.parametrize(
    ("file", "line", "found"),
    [
        ("server/views/recent.py", "from ..runners import standings", "server.runners"),
        ("server/players/ratings.py", "from ..boards.tick import tick", "server.boards.tick"),
        ("server/language/commands.py", "from .. import service", "server.service"),
        ("store/boards.py", "from ..server import Server", "imports server"),
        ("web/app.py", "from ..store import Board", "imports store"),
        ("web/app.py", "from ..server.views.recent import Recent", "import it from pbem.server"),
        ("bots/worker.py", "import pbem.server.bot_turns", "import it from pbem.server"),
        ("cli.py", "from .server.service import Server", "import it from pbem.server"),
        ("games/base.py", "import pbem.server", "imports server"),
        ("mail/delivery.py", "from ..host import serve", "imports host"),
    ],
)
def test_a_planted_wrong_import_is_found(tmp_path: Path, file: str, line: str, found: str) -> None:
    """The checker itself, on a copy of the source with one arrow reversed."""
    copy = tmp_path / "pbem"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / file).open("a", encoding="utf-8") as module:
        module.write(f"\n{line}\n")
    wrong = wrong_arrows(copy)
    assert len(wrong) == 1 and found in wrong[0], wrong


def test_a_loose_module_is_found(tmp_path: Path) -> None:
    copy = tmp_path / "pbem"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "helpers.py").write_text('"""Anything."""\n', encoding="utf-8")
    loose = "helpers.py is loose at the top of src/pbem: it belongs in a package"
    assert wrong_arrows(copy) == [loose]


def test_the_map_says_what_the_test_checks() -> None:
    """docs/design.md lists every package and every ranked part of server/,
    and the README points there, never outside the repository."""
    root = SOURCE.parents[1]
    design = (root / "docs" / "design.md").read_text(encoding="utf-8")
    for package in MAY_IMPORT:
        assert f"{package}/" in design or f"{package}.py" in design, package
    ranks = design.split("Inside `server/`", 1)[1].split("```")[1].splitlines()
    listed = [set(line.replace(".py", "").replace("/", "").split()[1:]) for line in ranks if line]
    assert listed == SERVER_RANKS
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "docs/design.md" in readme and "../shared" not in readme


def test_the_web_opens_no_database_session() -> None:
    """The web reads through `server.read` (server/read_side.py) and writes
    through `Server.execute`: no session, engine or SQL of its own."""
    opened = []
    for path in sorted((SOURCE / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in {"reads", "sessions", "writer"}:
                opened.append(f"{path.name}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
                opened.append(f"{path.name}:{node.lineno} imports {node.module}")
    assert opened == []


# Class names written twice on purpose: each game's counterpart of the same
# thing, and the API's schema named as the OpenAPI document shows it.
TWINS = {
    "Board": "each game's board geometry; the boards table is store.models.Board",
    "Playout": "each game's random playout, and the contract's (games/base.py)",
    "Reference": "each game's slow reference rules",
    "CompiledPosition": "each game's compiled search position",
    "LastMove": "each Go-like game's last move",
    "_Window": "each compiled game's reusable window",
    "_Canvas": "each game's text board canvas",
    "Standings": "the command (language/commands) and the API's schema of its answer",
}


def test_no_two_classes_share_a_name_a_reader_could_confuse() -> None:
    places: dict[str, list[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                places.setdefault(node.name, []).append(str(path.relative_to(SOURCE)))
    twice = {name: where for name, where in places.items() if len(where) > 1}
    assert set(twice) <= set(TWINS), {name: twice[name] for name in set(twice) - set(TWINS)}
