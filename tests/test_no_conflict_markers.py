"""No file git tracks holds a merge's conflict markers (a line that starts with seven '<', '=' or '>' and
a space or its end): a merge resolved by hand that left one in a page's module stops the whole page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^(?:<{7}|>{7})(?: |$)|^={7}$", re.MULTILINE)


def test_no_tracked_file_holds_a_conflict_marker() -> None:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    found: list[str] = []
    for name in filter(None, listed.decode().split("\0")):
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        found += [f"{name}:{text.count(chr(10), 0, m.start()) + 1}" for m in MARKER.finditer(text)]
    assert found == []
