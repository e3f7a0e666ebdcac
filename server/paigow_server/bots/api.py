"""The HTTP calls a bots run makes: player sessions, and the operator API (open tables, read the money)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from paigow_server.errors import ApiError

__all__ = ["ApiError", "BotApi", "Session"]


@dataclass(frozen=True, slots=True)
class Session:
    player_id: str
    token: str
    balance_cents: int


class BotApi:
    """``async with BotApi(base_url, operator_token, fallbacks=(...)) as api: ...``

    ``fallbacks``: other processes of the same Redis, tried in turn when one does not answer at all."""

    def __init__(self, base_url: str, operator_token: str | None, *, fallbacks: tuple[str, ...] = ()) -> None:
        self.base_urls = [url.rstrip("/") for url in (base_url, *fallbacks)]
        self.operator_token = operator_token
        self._client = httpx.AsyncClient(timeout=30.0, limits=httpx.Limits(max_connections=32))

    async def __aenter__(self) -> BotApi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._client.aclose()

    @property
    def base_url(self) -> str:
        return self.base_urls[0]

    @property
    def ws_base(self) -> str:
        return "ws" + self.base_url.removeprefix("http")

    async def _request(self, method: str, path: str, **options: Any) -> httpx.Response:
        candidates = list(self.base_urls)
        for base in candidates:
            for attempt in range(2):  # a pooled keep-alive connection the server closed: retry once
                try:
                    return await self._client.request(method, base + path, **options)
                except httpx.TransportError:
                    if attempt == 1 and base == candidates[-1]:
                        raise
            if self.base_urls[0] == base:  # that process is gone: prefer the next one from now on
                self.base_urls.append(self.base_urls.pop(0))
        raise AssertionError("unreachable")

    def _operator(self) -> dict[str, str]:
        if not self.operator_token:
            raise ApiError(401, "UNAUTHORIZED",
                           "this needs the operator token (--operator-token or PAIGOW_OPERATOR_TOKEN)")
        return {"Authorization": f"Bearer {self.operator_token}"}

    async def _json(self, method: str, path: str, *, operator: bool = False,
                    json: dict[str, Any] | None = None, params: dict[str, Any] | None = None) -> Any:
        headers = self._operator() if operator else {}
        response = await self._request(method, path, json=json, params=params, headers=headers)
        if response.status_code >= 400:
            raise _answered(response, f"{method} {path}")
        return response.json()

    async def new_session(self, display_name: str) -> Session:
        body = await self._json("POST", "/api/session", json={"display_name": display_name})
        return Session(str(body["player_id"]), str(body["token"]), int(body["balance_cents"]))

    async def new_account(self, username: str, password: str) -> Session:
        """A registered account (a private table's host must be one): its session."""
        body = await self._json("POST", "/api/accounts", json={"username": username, "password": password})
        return Session(str(body["player_id"]), str(body["token"]), int(body["balance_cents"]))

    async def open_home_table(self, token: str, name: str, *, timers: dict[str, int],
                              rules: dict[str, Any], chips: dict[str, Any]) -> tuple[str, str]:
        """A private table hosted by ``token``'s account, with its own ``chips``: (table id, invite code)."""
        response = await self._request("POST", "/api/home/tables", headers=_bearer(token),
                                       json={"name": name, "timers": timers, "rules": rules, "chips": chips})
        if response.status_code >= 400:
            raise _answered(response, "POST /api/home/tables")
        body = response.json()
        return str(body["table_id"]), str(body["invite"]["code"])

    async def resolve_invite(self, token: str, code: str) -> None:
        """Admit ``token``'s account to the table of ``code``."""
        response = await self._request("POST", "/api/invites/resolve", headers=_bearer(token),
                                       json={"code": code})
        if response.status_code >= 400:
            raise _answered(response, "POST /api/invites/resolve")

    async def balance(self, token: str) -> int:
        """A player's account balance (their session resumed with its token)."""
        response = await self._request("GET", "/api/session", headers={"Authorization": f"Bearer {token}"})
        if response.status_code >= 400:
            raise _answered(response, "GET /api/session")
        return int(response.json()["balance_cents"])

    async def open_table(self, name: str, *, timers: dict[str, int] | None = None,
                         rules: dict[str, Any] | None = None) -> str:
        payload: dict[str, Any] = {"name": name}
        if timers:
            payload["timers"] = timers
        if rules:
            payload["rules"] = rules
        body = await self._json("POST", "/api/operator/tables", operator=True, json=payload)
        return str(body["table_id"])

    async def money(self) -> dict[str, int]:
        """The operator's money totals: issued, balances, chips at tables, house net (``*_cents``)."""
        body = await self._json("GET", "/api/operator/money", operator=True)
        return {str(k): int(v) for k, v in body.items() if isinstance(v, int) and not isinstance(v, bool)}

    async def home_games(self) -> list[dict[str, Any]]:
        """The operator's money check of every home game with its own chips (``home_games``)."""
        body = await self._json("GET", "/api/operator/money", operator=True)
        return list(body.get("home_games", []))

    async def ledger_entries(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params: dict[str, Any] = {"limit": 1000}
            if cursor:
                params["after"] = cursor
            body = await self._json("GET", "/api/operator/ledger", operator=True, params=params)
            page = list(body.get("entries", []))
            entries.extend(page)
            cursor = body.get("next_after")
            if not page or not cursor:
                return entries


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _answered(response: httpx.Response, call: str) -> ApiError:
    """The error answer to ``call``: its status and code, the message quoting the body."""
    try:
        code = str(response.json().get("error") or "HTTP_ERROR")
    except (ValueError, AttributeError):
        code = "HTTP_ERROR"
    return ApiError(response.status_code, code, f"{call} -> {response.status_code}: {response.text[:300]}")
