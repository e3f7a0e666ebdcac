"""Display names and table names: one check (``paigow_server.web.names``) refuses control, format and
separator characters as sent, before space is collapsed; a refused name creates nothing."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.testing import AppHandle
from paigow_server.web.names import InvalidNameError, check_name

BAD_CHARACTERS = ["a\nb", "a\rb", "a\tb", "a\x0bb", "a\x0cb", "a\x1cb", "a\x1db", "a\x1eb", "a\x1fb",
                  "a\x85b", "a\u2028b", "a\u2029b", "a\u200bb", "a\u202eb", "a\ufeffb", "\u0000",
                  "a\x00", "a\x7fb", "a\ue000b", "a\U000e0001b", "a\u0378b"]


@pytest.mark.parametrize("raw", BAD_CHARACTERS)
def test_a_forbidden_character_is_refused_before_space_is_collapsed(raw: str) -> None:
    with pytest.raises(InvalidNameError, match=r"U\+[0-9A-F]{4,} \(category (Cc|Cf|Cn|Co|Zl|Zp)\)"):
        check_name(raw, "name", 40)


def test_space_is_trimmed_and_collapsed_and_the_length_counted_after() -> None:
    assert check_name("  Ann \u00a0  Lee ", "display_name", 24) == "Ann Lee"
    assert check_name(" " + "x" * 24 + "  ", "display_name", 24) == "x" * 24
    with pytest.raises(InvalidNameError, match="must not be empty"):
        check_name(" \u3000 ", "display_name", 24)
    with pytest.raises(InvalidNameError, match="must be text"):
        check_name(7, "display_name", 24)


@pytest.mark.parametrize("raw", BAD_CHARACTERS)
async def test_a_display_name_with_a_forbidden_character_is_invalid_name(
        app_client: AppHandle, redis: Redis, raw: str) -> None:
    response = await app_client.client.post("/api/session", json={"display_name": raw})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "INVALID_NAME"
    assert "display_name" in response.json()["message"]
    assert await redis.scard(keys.PLAYERS) == 0


@pytest.mark.parametrize("raw", ["\u0000", "Main\nTable", "a\x1fb", "Main\u2028", "x\u200d"])
async def test_a_table_name_with_a_forbidden_character_is_refused(app_client: AppHandle, raw: str) -> None:
    response = await app_client.client.post("/api/operator/tables", json={"name": raw},
                                            headers=app_client.operator_headers)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "INVALID_FIELD"
    assert "name" in response.json()["message"]
    assert (await app_client.client.get("/api/tables")).json() == {"tables": []}
