"""Reading the SVG boards in tests: groups by class, classes, titles, layers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode())


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    """The `<g>` elements whose class list holds `kind`."""
    return [g for g in root.iter(f"{SVG}g") if kind in g.get("class", "").split()]


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def title(group: ET.Element) -> str:
    element = group.find(f"{SVG}title")
    assert element is not None and element.text
    return element.text


def last_move_layer(root: ET.Element) -> ET.Element:
    (layer,) = groups(root, "last-move")
    return layer
