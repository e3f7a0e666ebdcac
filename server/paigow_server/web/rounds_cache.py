"""``RoundsCache``: the encoded answers of ``GET /api/tables/{id}/rounds``, per table and ``limit``, and of a
home game's downloads (``home_downloads``: per table and download, ``"ledger.csv"``...), while the table's
version is unchanged.

A table's settled rounds change only with a commit, and every commit moves the table's version, so an answer
kept with the version it was read at is exact for as long as that version is the table's: a read then costs
one version lookup and no decoding or encoding (an answer of 100 rounds is about 100 kB of JSON). At most
``MAX_ENTRIES`` answers are kept in a process, the oldest dropped first.
"""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["MAX_ENTRIES", "RoundsCache"]

MAX_ENTRIES = 256


class RoundsCache:
    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._answers: OrderedDict[tuple[str, int | str], tuple[int, bytes]] = OrderedDict()

    def get(self, table_id: str, limit: int | str, version: int) -> bytes | None:
        """The answer read at ``version``, or None (none kept, or read at another version)."""
        kept = self._answers.get((table_id, limit))
        return kept[1] if kept is not None and kept[0] == version else None

    def keep(self, table_id: str, limit: int | str, version: int, body: bytes) -> None:
        self._answers[(table_id, limit)] = (version, body)
        self._answers.move_to_end((table_id, limit))
        while len(self._answers) > self.max_entries:
            self._answers.popitem(last=False)

    def __len__(self) -> int:
        return len(self._answers)
