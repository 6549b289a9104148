"""Answers kept in memory by what they show, for pages read far more often
than the boards they show change."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable


class RecentAnswers:
    """Answers kept by what they show (the key must hold all of it), the
    least recently used dropped; any process may drop them at any time."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._answers: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            found = self._answers.get(key)
            if found is not None:
                self._answers.move_to_end(key)
            return found

    def put(self, key: Hashable, answer: bytes) -> bytes:
        with self._lock:
            self._answers[key] = answer
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)
        return answer
