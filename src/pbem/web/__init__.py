"""The web door: pages with clickable boards, accounts, and a JSON API, on
the same command layer as the mail (a move on the web sends the same
mails). `create_app` builds the FastAPI application."""

from .app import create_app

__all__ = ["create_app"]
