"""pbem: a play-by-email and web server for abstract strategy games."""

__version__ = "0.1.0"
