"""The bot worker's tests use the command layer's fixtures: a clock moved
by hand and a server on SQLite and PostgreSQL."""

from tests.server.conftest import clock, server

__all__ = ["clock", "server"]
