"""A web process compiles its page templates at start (web/templating.py
`compile_templates`), so no visitor's request compiles one: right after a
start, each thread of a burst of page requests compiled the same templates."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.databases import upgraded_sqlite
from tests.processes import Processes

# In a fresh interpreter (the templates are compiled once per process):
# serve the app with or without its start-up, then count the templates that
# the home page, a game list and the standings compile.
SCRIPT = """
import sys
import jinja2
from fastapi.testclient import TestClient
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import make_engine, session_factory
from pbem.web import create_app

engine = make_engine(sys.argv[1])
app = create_app(Server(session_factory(engine)), Settings(secret_key="k" * 40))
compiled = []
original = jinja2.Environment.compile

def counting(self, source, name=None, *args, **kwargs):
    compiled.append(name)
    return original(self, source, name, *args, **kwargs)

def pages(client):
    for path in ("/", "/trugo", "/trugo/standings", "/signup"):
        assert client.get(path).status_code == 200, path

if sys.argv[2] == "started":
    with TestClient(app) as client:  # runs the lifespan: the start-up
        jinja2.Environment.compile = counting
        pages(client)
else:
    jinja2.Environment.compile = counting
    pages(TestClient(app))
print(len(compiled))
"""


def compiled_by_pages(processes: Processes, tmp_path: Path, how: str) -> int:
    url = upgraded_sqlite(tmp_path / f"{how}.sqlite3")
    done = processes.run([sys.executable, "-c", SCRIPT, url, how], text=True, check=True)
    return int(done.stdout.split()[-1])


def test_after_start_up_no_page_compiles_a_template(processes: Processes, tmp_path: Path) -> None:
    assert compiled_by_pages(processes, tmp_path, "cold") >= 4  # the pages' own and base.html
    assert compiled_by_pages(processes, tmp_path, "started") == 0
