"""``StoreUnavailable``: what a Redis failure becomes above the store. It tells a client nothing of Redis
(host names, ports, errno stay in the error's arguments, for the logs), it is still the original error for
the store's own handlers, it pickles, and a forwarded command's failure reaches the asking process as one."""

from __future__ import annotations

import pickle

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from paigow_server.realtime.router import _raise_error
from paigow_server.store.errors import PUBLIC_MESSAGE, StoreUnavailable, unavailable


def test_a_client_reads_nothing_of_redis_the_log_reads_everything() -> None:
    error = unavailable(RedisConnectionError("Error 111 connecting to redis-primary.internal:6379."))
    assert error.message == PUBLIC_MESSAGE
    assert "redis-primary.internal" in str(error)
    assert isinstance(error, RedisConnectionError)
    assert isinstance(error, StoreUnavailable)


def test_a_translated_error_pickles_as_itself() -> None:
    for original in (RedisConnectionError("Connection refused"), OSError(111, "refused"), RedisError()):
        error = unavailable(original)
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error)
        assert back.args == error.args
        assert back.message == PUBLIC_MESSAGE


def test_a_forwarded_commands_store_failure_is_one_for_the_asker_too() -> None:
    with pytest.raises(StoreUnavailable) as raised:
        _raise_error({"ok": False, "error": "StoreUnavailable", "code": "INTERNAL_ERROR",
                      "message": PUBLIC_MESSAGE})
    assert raised.value.message == PUBLIC_MESSAGE
