"""Paging the append-only streams: a cursor is checked before Redis is asked, so a bad one is the caller's
mistake (``PageError``), never a data-store failure."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from paigow_server.store.history import History
from paigow_server.store.streams import PageError, check_cursor, read_page

TOP = 2**64 - 1


@pytest.mark.parametrize("after", ["99999999999999999999-0", str(10**30), f"1-{TOP + 1}", "１-0", "1-2-3",
                                   "-1", "1-", "", "1 ", "0x10"])
def test_a_cursor_is_a_stream_id_with_64_bit_ascii_parts(after: str) -> None:
    if after == "":
        assert check_cursor(after) is None
        return
    with pytest.raises(PageError, match="is not a stream id"):
        check_cursor(after)


async def test_every_stream_reader_refuses_a_bad_cursor_and_reads_past_the_largest(redis: Redis) -> None:
    for after in ("99999999999999999999-0", str(10**30), "１-0"):
        with pytest.raises(PageError, match="is not a stream id"):
            await History(redis).rounds(after=after)
    await redis.xadd("paigow:test-stream", {"e": "{}"})
    for after in (f"{TOP}-{TOP}", str(TOP), f"{TOP}-0"):
        page = await read_page(redis, "paigow:test-stream", after=after)
        assert (page.entries, page.next_after) == ([], None)
    assert len((await read_page(redis, "paigow:test-stream", after="0-0")).entries) == 1
