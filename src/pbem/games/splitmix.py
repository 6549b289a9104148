"""What every compiled random-game loop shares with its pure-Python twin:
numba's `njit` (or, without numba, a stand-in that leaves the function
pure) and the random numbers both can draw.

The pure loops draw from `random.Random` in play, but the tests compare a
compiled loop with its twin move for move, so both must be able to draw the
same numbers: SplitMix64 (Vigna), `SplitMix64` here in Python and
`random_double` inside compiled code, give the same doubles in [0, 1) from
the same state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from numba import njit

    AVAILABLE = True
except ImportError:  # pragma: no cover (numba is a dependency; this keeps the pure path)
    AVAILABLE = False

    def njit(**_options: Any) -> Any:  # type: ignore[no-redef]
        return lambda function: function


__all__ = ["AVAILABLE", "SplitMix64", "njit", "random_double"]

_MASK = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_UNIT = 2.0**-53


class SplitMix64:
    """SplitMix64 in Python: the same doubles in [0, 1) as the compiled
    `random_double` from the same state (`state`, 64 bits)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def random(self) -> float:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return ((z ^ (z >> 31)) >> 11) * _UNIT


_GOLDEN_64, _MIX1_64, _MIX2_64 = np.uint64(_GOLDEN), np.uint64(_MIX1), np.uint64(_MIX2)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@njit(cache=True)
def random_double(rng: Any) -> float:
    """The next double in [0, 1) from the generator whose state is `rng[0]`
    (a one-element uint64 array, moved on in place)."""
    z = rng[0] + _GOLDEN_64
    rng[0] = z
    z = (z ^ (z >> _S30)) * _MIX1_64
    z = (z ^ (z >> _S27)) * _MIX2_64
    z = z ^ (z >> _S31)
    return float(z >> _S11) * _UNIT
