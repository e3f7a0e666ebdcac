"""The fixtures of the Redis Cluster tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from support.cluster import ClusterTopology


@pytest.fixture
async def topology(tmp_path: Path) -> AsyncIterator[ClusterTopology]:
    """A three-primary Redis Cluster of the test's own, stopped after it."""
    made = ClusterTopology(tmp_path / "redis")
    await asyncio.to_thread(made.start)
    try:
        yield made
    finally:
        await asyncio.to_thread(made.stop)
