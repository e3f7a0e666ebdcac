"""The casino variants for the bots (issue 24; docs/rules.md §4a-§4c): the rules of each variant table a
``--variants`` run opens, and a bot's decisions on what they offer, read from ``you.can`` (the table's own
checks): co-banking when offered the bank, the Queen's Dragon beside the bet, taking or passing the Dragon
hand, setting a Dragon its buyer sets."""

from __future__ import annotations

import random
from typing import Any

__all__ = ["VARIANT_RULES", "count_variants", "variant_action", "variant_rules", "with_queens_dragon"]

Json = dict[str, Any]

VARIANT_RULES: tuple[tuple[str, Json], ...] = (
    ("ez", {"commission_form": "ez", "queens_dragon_enabled": True}),
    ("nine_high", {"commission_form": "nine_high"}),
    ("dragon", {"dragon_enabled": True, "dragon_offer_ms": 3_000}),
    ("dragon_buyer", {"dragon_enabled": True, "dragon_set_by": "buyer", "dragon_offer_ms": 3_000}),
    ("co_banking", {"co_banking": True}),
)
"""One variant per table, in turn (each with the Fortune bonus on, as every bots table)."""


def variant_rules(table: int) -> Json:
    """The rules of the ``table``-th table of a ``--variants`` run."""
    return dict(VARIANT_RULES[table % len(VARIANT_RULES)][1])


def with_queens_dragon(view: Json, rng: random.Random, rate: float) -> Json:
    """Sometimes a Queen's Dragon bet beside the bet (``{}``: none), at its minimum."""
    offered = ((view.get("you") or {}).get("can") or {}).get("queens_dragon")
    if offered is None or rng.random() >= rate:
        return {}
    return {"queens_dragon_cents": offered["min_cents"]}


def variant_action(view: Json, rng: random.Random) -> Json | None:
    """What a bot does about a variant now: co-bank, take or pass the Dragon, set its Dragon (None:
    nothing of the variants; the ordinary decisions follow)."""
    you = view.get("you") or {}
    can = you.get("can") or {}
    phase = view.get("phase")
    if phase == "bank_offer" and can.get("co_bank") and rng.random() < 0.8:
        return {"type": "accept_bank", "co_bank": True}
    if phase == "dragon_offer" and can.get("dragon"):
        if rng.random() < 0.5:
            return {"type": "pass_dragon"}
        return {"type": "take_dragon", "amount_cents": can["dragon"]["min_cents"]}
    dragon = you.get("dragon")
    if phase == "setting" and can.get("set_dragon") and dragon is not None and not dragon["is_set"]:
        return {"type": "set_dragon", "low": []}  # its House Way (the bots' own hand is set elsewhere)
    return None


def count_variants(record: Json) -> dict[str, int]:
    """What a settled round had of the variants, to add up over a run."""
    hands = record.get("hands", ())
    return {"queens_dragon_bets": sum(1 for h in hands if h.get("queens_dragon_cents")),
            "queens_dragon_house_net_cents": int(record.get("queens_dragon_house_net_cents", 0)),
            "dragon_hands": sum(1 for h in hands if h.get("dragon_of") is not None),
            "co_banked_rounds": int(bool(record.get("co_banked"))),
            "barred_rounds": int(bool(record.get("dealer_barred")))}
