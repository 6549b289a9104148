"""Pages from Jinja2 templates, each given who is logged in, the CSRF
token for its forms, the flash messages and the list of games."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markdown_it import MarkdownIt
from markupsafe import Markup

from ..games import GAMES, get_game
from ..games.documents import rules_text
from .actions import take_flashes
from .session import csrf_token, current_userid

TEMPLATES = Jinja2Templates(directory=str(resources.files("pbem.web") / "templates"))


def compile_templates() -> int:
    """Compile every template of the web door now, at a process's start, so
    no visitor waits for it: each page's first request compiled its
    templates (Jinja2 keeps them once compiled), and right after a start
    every thread of a burst compiled the same ones at once. How many were
    compiled."""
    names = TEMPLATES.env.list_templates(extensions=["html"])
    for name in names:
        TEMPLATES.get_template(name)
    return len(names)


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("title", "pbem")
    return TEMPLATES.TemplateResponse(
        request,
        name,
        {
            "userid": current_userid(request),
            "csrf": csrf_token(request),
            "flashes": take_flashes(request),
            "games": [GAMES[name] for name in GAMES],
            **context,
        },
        status_code=status_code,
    )


@lru_cache(maxsize=len(GAMES))
def rules_html(game_name: str) -> Markup:
    """The game's rules document (docs/rules) as HTML; its own text only, so
    it is safe to insert (raw HTML in the Markdown is not passed through)."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    return Markup(markdown.render(rules_text(get_game(game_name))))


# A board is drawn at most this much larger than its natural size: a Vasco
# board of a few tiles is narrow, and stretched to the page's column its
# caption came out larger than the page's heading. (The pages allow no
# inline style: the root's size attributes say it, and the style sheet
# lets a board take that size, or less where the column is narrower.)
MOST_SCALE = 1.4
_SIZE = re.compile(r'^(<svg\b[^>]*?)\swidth="([\d.]+)" height="([\d.]+)"')


def svg_markup(svg: str) -> Markup:
    """An SVG board made by our own code, to inline in a page (drop the XML
    declaration, which is not allowed inside HTML), sized at most
    `MOST_SCALE` times its natural size, so its caption's letters stay
    about the size of the page's own."""
    if svg.startswith("<?xml"):
        svg = svg.split("?>", 1)[1].lstrip()
    found = _SIZE.match(svg)
    if found is not None:
        width, height = (float(found.group(n)) * MOST_SCALE for n in (2, 3))
        svg = f'{found.group(1)} width="{width:.0f}" height="{height:.0f}"' + svg[found.end() :]
    return Markup(svg)
