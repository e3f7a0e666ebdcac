"""Imported first by the benchmarks that start real servers or Redis topologies: puts ``tests/`` on
``sys.path`` so a benchmark run as a script (``python benchmarks/bench_load.py``) finds the test harness,
the package ``support`` (``tests/support/``), which the product no longer ships. pytest finds it the same way
(``pythonpath = ["tests"]`` in pyproject.toml)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent.parent / "tests")
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
