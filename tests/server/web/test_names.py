"""Display names and table names: one check (``paigow_server.web.names``) refuses control, format and
separator characters as sent, before space is collapsed; a refused name creates nothing."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from paigow_server.store import keys
from paigow_server.web.names import InvalidNameError, check_combining_marks, check_name
from paigow_server.web.sessions import check_display_name
from support.harness import AppHandle

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


IMPERSONATIONS = ["Operator", "dealer", "The House", "ADMIN", "Bänker", "M o d e r a t o r", "Оperator",
                  "ＤＥＡＬＥＲ", "H0use", "dea1er", "Adrnin", "house_banker", "𝐃𝐞𝐚𝐥𝐞𝐫", "Dea\u0301ler",
                  "Mr. Dealer", "0PERAT0R", "Dealer7", "TheHouse", "thedealer", "Bankers",
                  "Dealer|", "Dealer1!", "Deal3r!", "Admin$"]
"""The house's and the staff's words, with case, spacing, punctuation, accents, a Cyrillic O, fullwidth and
mathematical letters, digits for letters and ``rn`` for ``m``."""


@pytest.mark.parametrize("raw", IMPERSONATIONS)
async def test_a_name_that_passes_for_the_house_or_staff_is_refused(app_client: AppHandle, redis: Redis,
                                                                   raw: str) -> None:
    response = await app_client.client.post("/api/session", json={"display_name": raw})
    assert (response.status_code, response.json()["error"]) == (400, "INVALID_NAME"), response.text
    assert "looks like" in response.json()["message"]
    assert "must not pass for the house" in response.json()["message"]
    assert await redis.scard(keys.PLAYERS) == 0


async def test_an_account_name_is_checked_too_and_plain_names_pass(app_client: AppHandle,
                                                                   redis: Redis) -> None:
    default = await app_client.client.post("/api/accounts",
                                           json={"username": "dealer", "password": "fine pass 9"})
    assert (default.status_code, default.json()["error"]) == (400, "INVALID_NAME")  # the username as the name
    assert default.json()["message"].startswith("username 'dealer' looks like 'dealer'")  # the field sent
    named = await app_client.client.post("/api/accounts", json={"username": "dan", "password": "fine pass 9",
                                                                 "display_name": "Admin Dan"})
    assert (named.status_code, named.json()["error"]) == (400, "INVALID_NAME")
    plain = ["Ann", "Bob Lee", "Hugo", "Seat 3", "Olga", "Zoë", "Nguyễn", "ที่รัก", "Bank Teller",
             "Lighthouse", "Badminton", "Householder", "Deale"]
    for name in plain:  # fewer than the address's 10 new sessions a minute, the refused ones included
        assert check_display_name(name) == name
    for name in plain[:4]:
        assert (await app_client.client.post("/api/session", json={"display_name": name})).status_code == 201


def test_combining_marks_are_capped_per_character_and_counted_composed() -> None:
    assert check_combining_marks("Ne\u0301e\u0302\u0323", "display_name") == "Ne\u0301e\u0302\u0323"
    assert check_combining_marks("a" + "\u0301" * 3, "display_name") == "a" + "\u0301" * 3
    assert check_combining_marks("Zalgo" + "\u0300\u0301\u0302\u0303", "display_name")  # o + U+0300 is one
    with pytest.raises(InvalidNameError, match=r"stacks more than 3 combining marks on one character "
                                               r"\(at position 8\)"):
        check_combining_marks("Zalgo" + "\u0336" * 4, "display_name")


async def test_a_display_name_stacking_combining_marks_is_refused(app_client: AppHandle) -> None:
    response = await app_client.client.post("/api/session", json={"display_name": "Ann" + "\u0336" * 20})
    assert (response.status_code, response.json()["error"]) == (400, "INVALID_NAME")
    assert "combining marks" in response.json()["message"]
