"""The player's history in sessions, with the coach's score of each (docs/http-api.md, "Sessions").

A **session** is a run of the history's hands (newest first) at one table, each settled within
``SESSION_GAP_MS`` of the next: a sitting. Its score counts the hands the player set and played against
the banker (a hand the player banked has no analysis; a hand the House Way set after a time-out was not the
player's decision, so it is counted apart, in ``timed_out``, and left out of the score), how many of them
have been analysed, how many of those were set the best way, and the EV given up by the analysed ones, in
all and on average (units of the bet). A hand the player set with the House Way button is theirs.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SESSION_GAP_MS", "sessions_of"]

SESSION_GAP_MS = 30 * 60_000
"""The longest pause between two hands of one session."""


def _timed_out(hand: dict[str, Any]) -> bool:
    """Whether the House Way set this history hand because the player's time ran out (``set_by``
    ``timeout``): not the player's decision."""
    return bool((hand.get("hand") or {}).get("set_by") == "timeout")


def _scored(hand: dict[str, Any]) -> bool:
    """Whether this history hand counts in the session's score: played against the banker and set by the
    player (themselves, or with the House Way button)."""
    return not hand["is_banker"] and not _timed_out(hand)


def _score(table_id: str, table_name: str, hands: list[dict[str, Any]]) -> dict[str, Any]:
    played = [h for h in hands if _scored(h)]
    analyses = [h["analysis"] for h in played if h.get("analysis") is not None]
    given_up = [a["ev_given_up"] for a in analyses]
    total = sum(given_up)
    return {"table_id": table_id, "table_name": table_name,
            "first_settled_ms": hands[-1]["settled_ms"], "last_settled_ms": hands[0]["settled_ms"],
            "hands": len(hands), "played": len(played),
            "timed_out": sum(1 for h in hands if not h["is_banker"] and _timed_out(h)),
            "analysed": len(analyses),
            "best_splits": sum(1 for g in given_up if g <= 0),
            "ev_given_up_total": total, "ev_given_up_mean": total / len(given_up) if given_up else None}


def sessions_of(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sessions of these history hands (newest first), newest first."""
    runs: list[list[dict[str, Any]]] = []
    for hand in hands:
        last = runs[-1][-1] if runs else None
        if (last is not None and last["table_id"] == hand["table_id"]
                and last["settled_ms"] - hand["settled_ms"] <= SESSION_GAP_MS):
            runs[-1].append(hand)
        else:
            runs.append([hand])
    return [_score(run[0]["table_id"], run[0]["table_name"], run) for run in runs]
