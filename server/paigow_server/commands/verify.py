"""``paigow verify``: recompute a round's dice, first position and seven hands from its revealed seed.

    paigow verify --seed HEX --round ROUND_ID [--banker POS] [--commitment HEX] [--dice 3,4,5] [--first POS]
    paigow verify --record FILE.json     (a round record, or a round_settled event holding one; '-' = stdin)

Prints the commitment, the dice, the first position, every position's hand and the four discards, and
checks them against the published values given (the commitment is SHA-256 of the seed). Exit status: 0
verified, 1 a published value disagrees with the seed, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paigow.fair import POSITIONS, FairError, Verification, seed_from_hex, verify
from paigow.rules.cards import Card, InvalidCardError, format_cards
from paigow.table.cardtext import cards_from_text
from paigow_server.errors import ServerError

__all__ = ["register", "run"]


class BadInput(ServerError, ValueError):
    """The command's input cannot be read; the message says what is wrong."""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify", help="recompute a round's dice and hands from its revealed seed",
        description="Recompute the dice, the first position and all seven hands of a round from its "
                    "revealed seed and check them against the commitment and the published values.")
    parser.add_argument("--seed", help="the revealed server seed, hex")
    parser.add_argument("--round", dest="round_id", help="the round id, e.g. 'main-12'")
    parser.add_argument("--banker", type=int, default=0,
                        help="the banker's position (0 = the house dealer, 1..6 player seats; default 0)")
    parser.add_argument("--commitment", help="the published commitment (hex SHA-256 of the seed)")
    parser.add_argument("--dice", help="the published dice, e.g. 3,4,5")
    parser.add_argument("--first", type=int, help="the published first position")
    parser.add_argument("--record", help="a round record as JSON (a file, or '-' for standard input)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = _verify_record(_load(args.record)) if args.record else _verify_args(args)
    except (BadInput, FairError, InvalidCardError) as exc:
        print(f"paigow verify: {exc}", file=sys.stderr)
        return 2
    _print(result)
    if result.ok:
        print("VERIFIED: every published value matches the seed")
        return 0
    for problem in result.problems:
        print(f"MISMATCH: {problem}")
    return 1


def _verify_args(args: argparse.Namespace) -> Verification:
    if not args.seed or not args.round_id:
        raise BadInput("give --seed HEX and --round ROUND_ID, or --record FILE.json")
    dice = None
    if args.dice:
        try:
            dice = tuple(int(x) for x in args.dice.replace(" ", "").split(","))
        except ValueError:
            raise BadInput(f"--dice {args.dice!r} must be three numbers like 3,4,5") from None
    return verify(seed_from_hex(args.seed), args.round_id, commitment=args.commitment,
                  banker_position=args.banker, dice=dice, first=args.first)


def _load(source: str) -> Mapping[str, Any]:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot read {source!r}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{source!r} is not JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]
    if not isinstance(data, dict):
        raise BadInput(f"{source!r} holds no round record (a JSON object)")
    return data


def _field(record: Mapping[str, Any], name: str, kind: type) -> Any:
    value = record.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadInput(f"the round record's {name!r} must be a {kind.__name__}, not {value!r}")
    return value


def _verify_record(record: Mapping[str, Any]) -> Verification:
    seed = seed_from_hex(_field(record, "server_seed", str))
    dice = _field(record, "dice", list)
    hands: dict[int, Sequence[Card]] = {}
    for h in _field(record, "hands", list):
        if not isinstance(h, dict):
            raise BadInput(f"a hand in the round record must be an object, not {h!r}")
        position = _field(h, "position", int)
        if not 0 <= position < POSITIONS:
            raise BadInput(f"hand position {position} is outside 0..6")
        hands[position] = cards_from_text(_field(h, "dealt", list))
    return verify(seed, _field(record, "round_id", str), commitment=_field(record, "commitment", str),
                  banker_position=_field(record, "banker_position", int), dice=tuple(dice),
                  first=_field(record, "first_position", int), hands=hands)


def _print(result: Verification) -> None:
    d = result.deal
    print(f"round        {d.round_id}")
    print(f"commitment   {result.commitment}")
    print(f"dice         {' '.join(map(str, d.dice))} (total {d.dice_total})")
    print(f"banker       position {d.banker_position}")
    print(f"first hand   position {d.first_position}")
    for pos, hand in enumerate(d.hands):
        label = "dealer" if pos == 0 else f"seat {pos}"
        print(f"position {pos}   {format_cards(hand):<22} ({label})")
    print(f"discards     {format_cards(d.discards)}")
