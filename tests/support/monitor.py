"""``sent_commands``: the Redis commands clients sent while some work ran, from ``MONITOR``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

__all__ = ["sent_commands"]

_END = "end-of-work"
_HANDSHAKE = {"HELLO", "CLIENT"}


async def sent_commands(redis: Redis, work: Callable[[], Awaitable[object]]) -> list[str]:
    """The name of each command clients sent while ``work`` ran, in order (not those scripts ran inside
    Redis, nor a new connection's handshake)."""
    seen: list[str] = []
    async with redis.monitor() as monitor:
        async def listen() -> None:
            while (command := await monitor.next_command())["command"] != f"ECHO {_END}":
                name = str(command["command"]).split(" ", 1)[0].upper()
                if command.get("client_type") != "lua" and name not in _HANDSHAKE:
                    seen.append(name)

        listening = asyncio.create_task(listen())
        await asyncio.sleep(0.1)  # MONITOR is on before the work starts
        await work()
        await redis.echo(_END)
        await asyncio.wait_for(listening, 10)
    return seen
