"""The downloads of a home game (docs/http-api.md, "Home games"): its ledger and its hand log, as JSON and
as CSV. Pure: the routes (``home_downloads``) read the table and its rounds, these make the bodies.

CSV: a header row, then one row per record; every amount twice, as dollars with two decimals
(``-12.50``) and as cents; times in UTC (``2026-12-06T14:05:00Z``). A text cell that a spreadsheet would
read as a formula (one starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return: a player's
name, a reason) gets a leading ``'``.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from paigow.table.home_chip_view import HomeChipsView, home_chips_view
from paigow.table.state import Phase, TableState

__all__ = ["LEDGER_COLUMNS", "ROUND_COLUMNS", "cell_text", "chips_view", "dollars", "download_name",
           "hand_log", "hands_csv", "ledger_csv", "ledger_json", "player_names"]

LEDGER_COLUMNS = ("record", "line", "time_utc", "kind", "player_id", "name", "amount", "amount_cents",
                  "by_player_id", "by_name", "automatic", "reason", "round_number",
                  "buy_ins", "buy_ins_cents", "added", "added_cents", "taken", "taken_cents",
                  "cashed_out", "cashed_out_cents", "stack", "stack_cents", "net", "net_cents",
                  "to_player_id", "to_name")
ROUND_COLUMNS = ("round_number", "round_id", "settled_utc", "banker_player_id", "banker_name", "position",
                 "player_id", "name", "is_banker", "dealt", "high", "low", "high_name", "low_name", "set_by",
                 "fouled", "wager", "wager_cents", "outcome", "net", "net_cents")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
HOUSE_NAME = "House"
_CHIPS_VIEW: TypeAdapter[HomeChipsView] = TypeAdapter(HomeChipsView)


def chips_view(state: TableState) -> dict[str, Any] | None:
    """``view.home.chips`` as JSON data, exactly as every viewer of the table is shown it."""
    view = home_chips_view(state)
    return None if view is None else dict(_CHIPS_VIEW.dump_python(view, mode="json"))


def dollars(cents: int | None) -> str:
    """``-1250`` -> ``"-12.50"`` (None: empty)."""
    if cents is None:
        return ""
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def cell_text(value: object) -> str:
    """A text cell as a spreadsheet may open it: a leading ``'`` before what it would read as a formula."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(_FORMULA) else text


def _utc(ms: int | None) -> str:
    if ms is None:
        return ""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def download_name(state: TableState, what: str, extension: str) -> str:
    """``Friday-game-ledger.csv``: the table's name with every run of other characters than letters,
    digits, ``.``, ``_`` and ``-`` made one ``-`` (its id when nothing is left)."""
    safe = _UNSAFE.sub("-", state.name).strip("-.")[:60] or state.table_id
    return f"{safe}-{what}.{extension}"


def player_names(state: TableState) -> dict[str, str]:
    """Every player the game knows a name of: its host, each ledger line's player, each seated player."""
    names = {} if state.home is None else {state.home.host_player_id: state.home.host_name}
    if state.home is not None and state.home.chips is not None:
        names.update({line.player_id: line.name for line in state.home.chips.lines})
    names.update({seat.player_id: seat.name for seat in state.seats if seat is not None})
    return names


def _head(state: TableState) -> dict[str, Any]:
    home = state.home
    return {"table_id": state.table_id, "name": state.name, "closed": state.phase == Phase.CLOSED,
            "host_player_id": None if home is None else home.host_player_id,
            "host_name": None if home is None else home.host_name}


def ledger_json(state: TableState) -> dict[str, Any]:
    """The ledger download: the table, and its chips as every viewer's ``view.home.chips`` shows them
    (null at a game without its own chips)."""
    return {**_head(state), "chips": chips_view(state)}


def _csv(columns: Sequence[str], rows: Iterable[Mapping[str, object]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _money(name: str, cents: int | None) -> dict[str, object]:
    return {name: dollars(cents), f"{name}_cents": "" if cents is None else cents}


def ledger_csv(state: TableState) -> str:
    """The ledger as one CSV table: a ``line`` row per ledger line, a ``player`` row per player (their
    totals, stack and net), the ``house`` and ``commission`` lines, and once the game closed a ``payment``
    row per payment of the settle-up."""
    chips = chips_view(state)
    rows: list[dict[str, object]] = []
    if chips is None:
        return _csv(LEDGER_COLUMNS, rows)
    for line in chips["lines"]:
        rows.append({"record": "line", "line": line["line"], "time_utc": _utc(line["at_ms"]),
                     "kind": line["kind"], "player_id": line["player_id"], "name": cell_text(line["name"]),
                     **_money("amount", line["amount_cents"]), "by_player_id": line["by_player_id"] or "",
                     "by_name": cell_text(line["by_name"]), "automatic": str(line["automatic"]).lower(),
                     "reason": cell_text(line["reason"]), "round_number": line["round_number"]})
    for player in chips["players"]:
        rows.append({"record": "player", "player_id": player["player_id"], "name": cell_text(player["name"]),
                     **_money("buy_ins", player["buy_ins_cents"]), **_money("added", player["added_cents"]),
                     **_money("taken", player["taken_cents"]),
                     **_money("cashed_out", player["cashed_out_cents"]),
                     **_money("stack", player["stack_cents"]), **_money("net", player["net_cents"])})
    rows.append({"record": "house", "name": HOUSE_NAME, **_money("net", chips["house_cents"])})
    rows.append({"record": "commission", "name": "Commission pot",
                 **_money("net", chips["commission_cents"])})
    for payment in chips["settle_up"] or ():
        rows.append({"record": "payment", "player_id": payment["from_id"],
                     "name": cell_text(payment["from_name"]), **_money("amount", payment["amount_cents"]),
                     "to_player_id": payment["to_id"], "to_name": cell_text(payment["to_name"])})
    return _csv(LEDGER_COLUMNS, rows)


def _hand_total(hand: Mapping[str, Any]) -> int:
    """What one hand record moved for its player: its net, its Fortune bonus's and its Queen's Dragon's."""
    return int(hand["net_cents"]) + int(hand.get("bonus_net_cents", 0)) + int(
        hand.get("queens_dragon_win_cents", 0))


def hand_log(state: TableState, records: Sequence[dict[str, Any]], times: Mapping[int, int],
             kept: int) -> dict[str, Any]:
    """The hand log download: every settled round the table keeps (``records``: newest first, as stored;
    at most ``kept`` are shown, oldest first; ``complete`` False when the game played more), each with
    when it settled (``times``: by round number; null when unknown), who banked, every hand as dealt and
    set with its result, and each player's net for the round."""
    names = player_names(state)
    rounds = []
    for record in reversed(records[:kept]):
        banker = record["banker_player_id"]
        nets: dict[str, int] = {}
        hands = []
        for hand in record["hands"]:
            player_id = hand["player_id"]
            if player_id is not None:
                nets[player_id] = nets.get(player_id, 0) + _hand_total(hand)
            hands.append({"position": hand["position"], "player_id": player_id,
                          "name": HOUSE_NAME if player_id is None else names.get(player_id, player_id),
                          "is_banker": hand["is_banker"], "dealt": hand["dealt"], "high": hand["high"],
                          "low": hand["low"], "high_name": hand["high_name"], "low_name": hand["low_name"],
                          "set_by": hand["set_by"], "fouled": hand["fouled"],
                          "wager_cents": hand["wager_cents"], "outcome": hand["outcome"],
                          "net_cents": _hand_total(hand)})
        rounds.append({"number": record["number"], "round_id": record["round_id"],
                       "settled_ms": times.get(int(record["number"])),
                       "banker_position": record["banker_position"],
                       "banker_player_id": banker,
                       "banker_name": HOUSE_NAME if banker is None else names.get(banker, banker),
                       "hands": hands, "house_net_cents": record["house_net_cents"],
                       "nets": [{"player_id": p, "name": names.get(p, p), "net_cents": n}
                                for p, n in nets.items()]})
    return {**_head(state), "complete": len(records) <= kept, "rounds": rounds}


def _cards(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards)


def hands_csv(log: Mapping[str, Any]) -> str:
    """The hand log (``hand_log``) as one CSV table: a row per hand of each round, oldest round first."""
    rows: list[dict[str, object]] = []
    for entry in log["rounds"]:
        for hand in entry["hands"]:
            rows.append({"round_number": entry["number"], "round_id": entry["round_id"],
                         "settled_utc": _utc(entry["settled_ms"]),
                         "banker_player_id": entry["banker_player_id"] or "",
                         "banker_name": cell_text(entry["banker_name"]), "position": hand["position"],
                         "player_id": hand["player_id"] or "", "name": cell_text(hand["name"]),
                         "is_banker": str(hand["is_banker"]).lower(), "dealt": _cards(hand["dealt"]),
                         "high": _cards(hand["high"]), "low": _cards(hand["low"]),
                         "high_name": hand["high_name"], "low_name": hand["low_name"],
                         "set_by": hand["set_by"], "fouled": str(hand["fouled"]).lower(),
                         **_money("wager", hand["wager_cents"]), "outcome": hand["outcome"] or "",
                         **_money("net", hand["net_cents"])})
    return _csv(ROUND_COLUMNS, rows)
