"""Board drawings as PNG pictures: for the HTML part of board mails, and the
board page's picture to download.

libvips (pyvips, with its own build of librsvg in the `pyvips-binary`
wheel) draws our SVG boards three to four times faster than cairosvg did,
and a mail burst's delivery is mostly drawing. It is imported on first use:
a machine where it cannot load sends the text of its mails without the
picture (compose.py), never no mail.
"""

from __future__ import annotations

import functools
import re
from typing import Any

_WIDTH = re.compile(rb'<svg\b[^>]*?\swidth="([0-9.]+)(?:px)?"')


@functools.cache
def vips() -> Any:
    """pyvips, set up once for a process (a failed import is tried again
    next time): no cache of operations (each board is drawn once, and the
    cache would keep every one of them) and one drawing thread (delivery
    and the web doors have the other cores)."""
    import pyvips

    pyvips.cache_set_max(0)
    pyvips.concurrency_set(1)
    return pyvips


def svg_png(svg: str, width: int) -> bytes:
    """The SVG drawn `width` pixels wide (its height to scale), as a PNG.

    Raises when it cannot be drawn (no libvips here, an SVG it refuses)."""
    data = svg.encode("utf-8")
    pyvips = vips()
    found = _WIDTH.search(data[:2048])
    natural = float(found[1]) if found else float(pyvips.Image.svgload_buffer(data).width)
    if natural <= 0:
        raise ValueError("the SVG has no width to scale from")
    image = pyvips.Image.svgload_buffer(data, scale=width / natural)
    png = image.write_to_buffer(".png")
    if not isinstance(png, bytes) or not png.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("libvips did not return a PNG")
    return png
