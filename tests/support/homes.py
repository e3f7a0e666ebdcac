"""Accounts and private tables for the home-game tests: registered players made through the HTTP API and a
private table one of them hosts (docs/home-games.md)."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from collections.abc import AsyncIterator
from typing import Any

import httpx
from redis.asyncio import Redis

from paigow_server.app import create_app
from paigow_server.process.settings import Settings

__all__ = ["Homes", "asgi_homes", "auth", "home_settings"]

_names = itertools.count(1)
PASSWORD = "correct horse battery staple"


def home_settings(settings: Settings, **changes: Any) -> Settings:
    """The test settings with room for many accounts from one loopback address, and cheap password hashes."""
    return dataclasses.replace(settings, sessions_per_minute=100_000, guests_per_minute=100_000,
                               argon2_memory_kib=8, argon2_time_cost=1, **changes)




@dataclasses.dataclass
class Homes:
    client: httpx.AsyncClient
    ctx: Any = None
    """The app's ``AppContext`` when driven in-process (``asgi_homes``)."""
    rt: Any = None
    """The app's ``Realtime`` when driven in-process."""
    app: Any = None
    """The app itself when driven in-process (``from_address``)."""

    @contextlib.asynccontextmanager
    async def from_address(self, address: str) -> AsyncIterator[Homes]:
        """These homes seen from another client address (in-process only)."""
        transport = httpx.ASGITransport(app=self.app, client=(address, 40_000))
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            yield dataclasses.replace(self, client=client)

    async def account(self, name: str | None = None) -> tuple[str, str]:
        """A new registered account: (player_id, token)."""
        username = name or f"home{next(_names)}"
        response = await self.client.post("/api/accounts", json={"username": username, "password": PASSWORD,
                                                                  "display_name": username.title()})
        assert response.status_code == 201, response.text
        body = response.json()
        return body["player_id"], body["token"]

    async def guest(self, name: str = "Guest") -> tuple[str, str]:
        response = await self.client.post("/api/session", json={"display_name": name})
        assert response.status_code == 201, response.text
        return response.json()["player_id"], response.json()["token"]

    async def create(self, token: str, **body: Any) -> httpx.Response:
        """``POST /api/home/tables``; without ``chips`` in ``body``, the game approves buy-ins automatically
        (``{"auto_approve": true}``), so a sit seats at once as the tests of the rest of a home game want
        (``chips={}``: the API's own defaults)."""
        return await self.client.post("/api/home/tables",
                                      json={"name": "Friday game", "chips": {"auto_approve": True}, **body},
                                      headers=auth(token))

    async def table(self, token: str, **body: Any) -> dict[str, Any]:
        response = await self.create(token, **body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    async def resolve(self, code: str, token: str | None = None) -> httpx.Response:
        return await self.client.post("/api/invites/resolve", json={"code": code},
                                      headers=auth(token) if token else None)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.asynccontextmanager
async def asgi_homes(settings: Settings, redis: Redis) -> AsyncIterator[Homes]:
    """``Homes`` over the app in this process (ASGI, no socket), its lifespan running."""
    app = create_app(settings, redis=redis)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            yield Homes(client, app.state.ctx, app.state.realtime, app)
