"""``--redis-replica-acks``: auto (1 under ``redis+sentinel://``, else 0), a number, or a clear error."""

from __future__ import annotations

import pytest

from paigow_server.process.settings import SettingsError, load_settings

SENTINEL_URL = "redis+sentinel://127.0.0.1:26379,127.0.0.1:26380/paigow/0"


def test_auto_waits_for_one_replica_under_sentinel_and_for_none_otherwise() -> None:
    assert load_settings({}, {}).replica_acks == 0
    assert load_settings({"redis_url": "redis://127.0.0.1:6379/0"}, {}).replica_acks == 0
    assert load_settings({"redis_url": SENTINEL_URL}, {}).replica_acks == 1
    assert load_settings({"redis_url": SENTINEL_URL, "redis_replica_acks": "auto"}, {}).replica_acks == 1


def test_a_number_is_taken_as_it_is() -> None:
    assert load_settings({"redis_url": SENTINEL_URL}, {"PAIGOW_REDIS_REPLICA_ACKS": "0"}).replica_acks == 0
    settings = load_settings({"redis_replica_acks": "2", "redis_ack_timeout_ms": "250"}, {})
    assert (settings.replica_acks, settings.redis_ack_timeout_ms) == (2, 250)


@pytest.mark.parametrize(("name", "text", "says"), [
    ("redis_replica_acks", "one", "--redis-replica-acks='one': must be a whole number or auto"),
    ("redis_replica_acks", "17", "--redis-replica-acks='17': must be a whole number from 0 to 16"),
    ("redis_ack_timeout_ms", "0", "--redis-ack-timeout-ms='0': must be a whole number from 1 to 60000"),
])
def test_a_bad_value_is_refused_naming_the_option(name: str, text: str, says: str) -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings({name: text}, {})
    assert str(raised.value) == says


def test_a_cluster_waits_for_no_replica_and_refuses_a_number() -> None:
    cluster = "redis+cluster://127.0.0.1:7000,127.0.0.1:7001"
    assert load_settings({"redis_url": cluster}, {}).replica_acks == 0
    assert load_settings({"redis_url": cluster, "redis_replica_acks": "0"}, {}).replica_acks == 0
    with pytest.raises(SettingsError, match="not supported on a redis\\+cluster:// URL"):
        load_settings({"redis_url": cluster, "redis_replica_acks": "1"}, {})
