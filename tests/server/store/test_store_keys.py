from __future__ import annotations

import fnmatch

import pytest

from paigow_server.store import keys


def test_every_name_has_the_prefix_and_tables_do_not_collide() -> None:
    names = [keys.TABLES, keys.TABLE_SEQ, keys.DEADLINES, keys.PLAYERS, keys.ROUNDS, keys.LEDGER, keys.AUDIT,
             keys.MONEY_ISSUED, keys.HOUSE_NET, keys.table("t1"), keys.table_log("t1"),
             keys.table_channel("t1"), keys.table_lease("t1"), keys.table_fence("t1"),
             keys.table_requests("t1"), keys.table_rounds("t1"), keys.player("p_1"), keys.session("ab"),
             keys.history("p_1")]
    assert all(name.startswith(keys.PREFIX) for name in names)
    assert len(set(names)) == len(names)
    assert keys.table("t1") != keys.table("t11")
    assert not keys.table_log("t1").startswith(keys.table("t11"))


def test_channel_names_round_trip_and_match_the_pattern() -> None:
    channel = keys.table_channel("t42")
    assert keys.table_id_of_channel(channel) == "t42"
    assert fnmatch.fnmatchcase(channel, keys.TABLE_CHANNEL_PATTERN)
    for wrong in (keys.table_log("t42"), "paigow:table:a:b:channel", "other"):
        with pytest.raises(ValueError, match="is not a table channel name"):
            keys.table_id_of_channel(wrong)
