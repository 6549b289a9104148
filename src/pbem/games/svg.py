"""Small pieces the games' SVG boards share: numbers, points and paths."""

from __future__ import annotations

from collections.abc import Iterable

Point = tuple[float, float]


def num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def pt(point: Point) -> str:
    return f"{num(point[0])},{num(point[1])}"


def polygon(points: Iterable[Point]) -> str:
    return " ".join(pt(p) for p in points)


def midpoint(a: Point, b: Point) -> Point:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def arc_to(centre: Point, start: Point, end: Point, radius: float) -> str:
    """The SVG arc command for the short way from `start` to `end` around `centre`."""
    cross = (start[0] - centre[0]) * (end[1] - centre[1]) - (start[1] - centre[1]) * (
        end[0] - centre[0]
    )
    sweep = 1 if cross > 0 else 0
    return f"A{num(radius)},{num(radius)} 0 0 {sweep} {pt(end)}"


PICTURE = 64  # a picker's pictures, in pixels
FADED = ' opacity="0.45"'  # what is around the piece a picture shows


def picture(centre: Point, span: float, body: Iterable[str]) -> str:
    """A small square picture of `span` units around `centre`, drawn at
    PICTURE pixels on white; hidden from screen readers (its button says
    it in words)."""
    left, top = centre[0] - span / 2, centre[1] - span / 2
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PICTURE}" height="{PICTURE}" '
        f'viewBox="{num(left)} {num(top)} {num(span)} {num(span)}" aria-hidden="true" '
        f'focusable="false">'
        f'<rect x="{num(left)}" y="{num(top)}" width="{num(span)}" height="{num(span)}" '
        f'fill="#fff"/>' + "".join(body) + "</svg>"
    )
