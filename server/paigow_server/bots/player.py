"""One bot: a player (or a spectator) on one table over a real WebSocket, speaking the wire protocol.

A player bot sits, bets, banks or declines the bank, sets its hand by the House Way (or asks the server
to), and leaves when its table has played enough rounds. Now and then it drops its connection and
reconnects with its last version, and sends a bad frame on purpose. Views are kept as parsed JSON (not
pydantic models): a thousand bots on the same two cores as the server must stay cheap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass
from typing import Any, Literal

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from paigow.protocol.patch import PatchError, apply_patch
from paigow.protocol.version import PROTOCOL_VERSION
from paigow.rules.cards import parse_card
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way
from paigow_server.bots.chip_dump import dump_action
from paigow_server.bots.home_chips import chip_action, waiting_for_buy_in
from paigow_server.bots.progress import TableProgress
from paigow_server.bots.stats import RunStats
from paigow_server.bots.variants import variant_action, with_queens_dragon

__all__ = ["BAD_FRAMES", "Behaviour", "PlayerBot", "TableProgress"]

Json = dict[str, Any]

BAD_FRAMES: tuple[str, ...] = (
    "this is not json",
    '{"type": "no_such_message", "id": "bad-1"}',
    '{"type": "place_bet", "id": "bad-2", "amount_cents": "ten dollars"}',
    '{"type": "place_bet", "id": "bad-3", "amount_cents": 500, "extra": true}',
    '{"type": "set_hand", "id": "bad-4", "low": ["Zz", "As"]}',
    '{"type": "sit", "id": "bad-5", "seat": 9, "buy_in_cents": 100}',
    '[1, 2, 3]',
)
"""Frames a misbehaving client might send; each must get an error and change nothing."""

SERVER_SIDE = frozenset({"INTERNAL_ERROR", "BUSY", "UNCONFIRMED"})
"""Error codes that are no refusal by the table (the store was unavailable, or a failover left the outcome
unknown): the bot decides again on its next view, however often that happens."""


@dataclass(frozen=True, slots=True)
class Behaviour:
    """How often a bot does the unusual things (probabilities per round)."""

    bank_rate: float = 0.3
    bonus_rate: float = 0.4
    """How often a bot makes the Fortune bonus bet beside its bet (or with the bank), where offered."""
    house_way_button_rate: float = 0.2
    drop_rate: float = 0.03
    bad_input_rate: float = 0.05
    think_ms: tuple[int, int] = (0, 0)
    """A pause, uniform in this range, before each decision, as a person takes (0, 0: act at once)."""
    dump_to: str | None = None
    """A planted chip dumper's partner: while that player banks, this bot bets the most it may and throws
    its hand (``bots.chip_dump``)."""


class PlayerBot:
    """A bot player (``token`` given) or spectator (``token`` None) on one table."""

    def __init__(self, ws_bases: tuple[str, ...], progress: TableProgress, stats: RunStats, *,
                 token: str | None,
                 player_id: str | None, seat: int, buy_in_cents: int, rng: random.Random,
                 behaviour: Behaviour = Behaviour(), stop_at: float = float("inf")) -> None:
        self.urls = [f"{base}/ws/tables/{progress.table_id}" for base in ws_bases]
        """The first is this bot's process; the others are tried in turn when a connection fails."""
        self.progress = progress
        self.stats = stats
        self.token = token
        self.player_id = player_id
        self.seat = seat
        self.buy_in_cents = buy_in_cents
        self.rng = rng
        self.behaviour = behaviour
        self.stop_at = stop_at
        self.version: int | None = None
        self.view: Json | None = None
        self._sync: int | Literal[False] | None = False
        """A ``sync`` to send (its ``last_version``; None asks for a snapshot), or False."""
        self.left = False
        self._ws: ClientConnection | None = None
        self._next_id = 0
        self._outstanding: tuple[str, float] | None = None
        self._last_sent: dict[str, float] = {}
        self._wait_version = 0
        """Decide again only on a view at least this new (the answer's version, or one past an error)."""
        self._wait_since = 0.0
        self._awaiting_push: dict[int, list[float]] = {}
        self._seen_at: dict[int, float] = {}
        self._tries: dict[tuple[Any, ...], int] = {}
        self._sent_key: tuple[Any, ...] | None = None
        """The decision of the last command sent (its tries are given back when the server, not the table,
        failed it: ``SERVER_SIDE``)."""
        self._round_seen: str | None = None
        self._drop_now = False
        self._thinking: tuple[Any, ...] | None = None
        """The decision being thought over, and until when (``_think_until``, perf_counter seconds)."""
        self._think_until = 0.0

    @property
    def is_spectator(self) -> bool:
        return self.token is None

    @property
    def settled_in(self) -> bool:
        """The bot has its view of the table and, a player, its seat (or has already left)."""
        if self.left:
            return True
        return self.view is not None and (self.is_spectator or self.view.get("you") is not None)

    # -- connection loop -------------------------------------------------------------------------------
    async def run(self) -> None:
        while not self._finished():
            got_in = False
            try:
                async with connect(self.urls[0], open_timeout=10, max_size=2**22) as ws:
                    got_in = True
                    self._ws = ws
                    self.stats.opened()
                    try:
                        await self._session(ws)
                    finally:
                        self.stats.closed()
                        self._ws = None
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):  # a cut handshake too
                pass
            if self._finished():
                return
            if not got_in:
                self.urls.append(self.urls.pop(0))  # that process is gone: try the next one
            self.stats.reconnects += 1
            self._outstanding = None
            await asyncio.sleep(self.rng.uniform(0.1, 0.6))

    def _finished(self) -> bool:
        if time.monotonic() > self.stop_at:
            return True
        if self.is_spectator:
            return self.progress.done.is_set()
        return self.left

    async def _session(self, ws: ClientConnection) -> None:
        hello: Json = {"type": "hello", "protocol": PROTOCOL_VERSION}
        if self.token is not None:
            hello["token"] = self.token
        else:
            hello["spectate"] = True
            if self.progress.invite is not None:
                hello["invite"] = self.progress.invite
        if self.version is not None:
            hello["last_version"] = self.version
        await ws.send(json.dumps(hello))
        done_wait = asyncio.ensure_future(self.progress.done.wait())
        try:
            while not self._finished():
                if self.is_spectator and done_wait.done():
                    return
                wait = 1.0
                if self._thinking is not None:
                    wait = min(wait, max(0.005, self._think_until - time.perf_counter()))
                try:
                    async with asyncio.timeout(wait):  # no task per receive, unlike wait_for on 3.11
                        raw = await ws.recv(decode=False)  # cancelling recv loses nothing (websockets)
                except TimeoutError:
                    await self._act(ws)
                    continue
                self._receive(raw)
                if self._sync is not False:
                    await ws.send(json.dumps({"type": "sync", "last_version": self._sync}))
                    self._sync = False
                if self._drop_now:
                    self._drop_now = False
                    return  # leaving the `async with` closes the socket: a drop, then a resume
                await self._act(ws)
        finally:
            done_wait.cancel()

    # -- receiving -------------------------------------------------------------------------------------
    def _receive(self, raw: str | bytes) -> None:
        now = time.perf_counter()
        self.stats.messages_received += 1
        message: Json = json.loads(raw)
        kind = message.get("type")
        if kind == "patch" and not self._patched(message):
            return
        if kind in ("snapshot", "patch"):
            self.version = int(message["version"])
            if kind == "snapshot":
                self.view = message["view"]
            assert self.view is not None
            self._seen_at[self.version] = now
            for version in [v for v in self._awaiting_push if v <= self.version]:
                for sent in self._awaiting_push.pop(version):
                    self.stats.record_latency(sent, now)
            self._check_hidden_cards(self.view)
            for event in message.get("events", ()):
                if event.get("kind") == "round_settled":
                    self.progress.round_settled(event["record"], self.stats)
                elif event.get("kind") == "round_voided":
                    self.stats.voided += 1
                    if event.get("reason") == "no_banker":
                        self.progress.chip_event(f"no_banker:{event['round_id']}", "rounds_nobody_banked",
                                                 self.stats)
                elif event.get("kind") in ("buy_in_approved", "buy_in_denied"):
                    what = "rebuys" if event.get("rebuy") else "buy_ins"
                    outcome = "approved" if event["kind"] == "buy_in_approved" else "denied"
                    self.progress.chip_event(event["request_id"], f"{what}_{outcome}", self.stats)
                elif event.get("kind") in ("player_left", "player_stood_up", "player_kicked") \
                        and event.get("player_id") == self.player_id and self.progress.done.is_set():
                    self.left = True
            if len(self._seen_at) > 256:
                for version in sorted(self._seen_at)[:128]:
                    del self._seen_at[version]
        elif kind == "accepted":
            self._answered(message.get("id"))
            self.stats.accepted += 1
            version = int(message["version"])
            self.stats.accepted_versions.append((self.progress.table_id, version))
            self._wait_for(version)
            sent_at = self._sent_time(message.get("id"))
            if sent_at is not None:
                if self.version is not None and version <= self.version:
                    seen = self._seen_at.get(version, now)
                    self.stats.record_latency(sent_at, seen)
                else:
                    self._awaiting_push.setdefault(version, []).append(sent_at)
        elif kind == "error":
            ident = message.get("id")
            if ident is None or str(ident).startswith("bad-"):
                self.stats.bad_input_errors[str(message["code"])] += 1
            else:
                self.stats.errors[str(message["code"])] += 1
                self._answered(ident)
                self._wait_for((self.version or 0) + 1)
                if message["code"] in SERVER_SIDE and self._sent_key is not None:
                    self._tries[self._sent_key] -= 1  # not the table's refusal: it may be tried again

    def _patched(self, message: Json) -> bool:
        """Apply a ``patch`` to the view; False (and a ``sync`` queued) when it does not follow on."""
        if self.view is None or message.get("since") != self.version:
            self._sync = self.version
            return False
        try:
            self.view = apply_patch(self.view, message["patch"], in_place=True)  # both just parsed
        except PatchError:
            self._sync = None  # a fresh snapshot
            self.view = None
            self.stats.errors["PATCH_FAILED"] += 1
            return False
        return True

    def _wait_for(self, version: int) -> None:
        self._wait_version = max(self._wait_version, version)
        self._wait_since = time.perf_counter()

    def _sent_time(self, ident: object) -> float | None:
        return self._last_sent.pop(str(ident), None)

    def _answered(self, ident: object) -> None:
        if self._outstanding is not None and self._outstanding[0] == ident:
            self._outstanding = None

    def _check_hidden_cards(self, view: Json) -> None:
        rnd = view.get("round")
        if not rnd:
            return
        you = view.get("you")
        own = you["position"] if you else None
        for hand in rnd.get("hands", ()):
            if hand.get("cards") and hand.get("position") != own:
                self.stats.hidden_card_leaks += 1

    # -- acting ----------------------------------------------------------------------------------------
    async def _act(self, ws: ClientConnection) -> None:
        if self.is_spectator or self.view is None:
            return
        if self._outstanding is not None:
            if time.perf_counter() - self._outstanding[1] < 5.0:
                return
            self._outstanding = None  # no answer in 5 s (lost in a drop): decide again
        if (self.version or 0) < self._wait_version and time.perf_counter() - self._wait_since < 3.0:
            return  # our last command's effect has not reached our view yet
        self._maybe_misbehave()
        command = self._decide(self.view)
        if command is None:
            return
        key = ((self.view.get("round") or {}).get("round_id"), self.view.get("phase"), command["type"],
               command.get("request_id"))
        if self._tries.get(key, 0) >= 2:
            return
        if self._still_thinking(key):
            return
        self._tries[key] = self._tries.get(key, 0) + 1
        self._sent_key = key
        self._next_id += 1
        ident = f"c{self._next_id}"
        command["id"] = ident
        now = time.perf_counter()
        self._outstanding = (ident, now)
        self._last_sent[ident] = now
        self.stats.commands += 1
        await ws.send(json.dumps(command))

    def _still_thinking(self, key: tuple[Any, ...]) -> bool:
        """With a think time, a new decision waits its pause first (the latency clock starts at the send)."""
        low, high = self.behaviour.think_ms
        if high <= 0:
            return False
        now = time.perf_counter()
        if self._thinking != key:
            self._thinking = key
            self._think_until = now + self.rng.uniform(low, high) / 1000
        if now < self._think_until:
            return True
        self._thinking = None
        return False

    def _maybe_misbehave(self) -> None:
        rnd = (self.view or {}).get("round")
        round_id = rnd.get("round_id") if rnd else None
        if round_id is None or round_id == self._round_seen:
            return
        self._round_seen = round_id
        if self.rng.random() < self.behaviour.bad_input_rate and self._ws is not None:
            self.stats.bad_frames_sent += 1
            frame = self.rng.choice(BAD_FRAMES)
            task = asyncio.ensure_future(self._ws.send(frame))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
        if self.rng.random() < self.behaviour.drop_rate and not self.progress.done.is_set():
            self._drop_now = True

    def _decide(self, view: Json) -> Json | None:
        you = view.get("you")
        if self.progress.done.is_set():
            if you is None:
                self.left = True
                return None
            return {"type": "leave"}
        chips = chip_action(view, self.player_id, self.rng)  # a home game's buy-ins (bots.home_chips)
        if chips is not None:
            return chips
        if you is None:
            if waiting_for_buy_in(view, self.player_id):
                return None
            return {"type": "sit", "seat": self.seat, "buy_in_cents": self.buy_in_cents}
        if you["status"] == "sitting_out":
            return {"type": "sit_in"}
        dump = dump_action(view, self.behaviour.dump_to)
        if dump is not None:
            return dump
        phase, rnd, rules = view["phase"], view.get("round"), view["rules"]
        variant = variant_action(view, self.rng)
        if variant is not None:
            return variant
        if phase == "bank_offer" and you.get("offered_bank"):
            if self.rng.random() >= self.behaviour.bank_rate:
                return {"type": "decline_bank"}
            fortune = view.get("fortune")
            if fortune is not None and self.rng.random() < self.behaviour.bonus_rate:
                return {"type": "accept_bank", "bonus_cents": fortune["min_cents"]}
            return {"type": "accept_bank"}
        if phase == "betting" and not you["is_banker"] and you["bet_cents"] == 0:
            high = min(rules["max_bet_cents"], you["chips_cents"], you.get("own_max_bet_cents") or 10**12,
                       rules["min_bet_cents"] * 4)
            if rnd is not None and rnd.get("coverage_left_cents") is not None:
                high = min(high, rnd["coverage_left_cents"])
            if high < rules["min_bet_cents"]:
                return None
            step = max(rules["min_bet_cents"] // 5, 1)
            amount = self.rng.randrange(rules["min_bet_cents"], high + 1, step)
            return {"type": "place_bet", "amount_cents": amount, **self._bonus(view, amount),
                    **with_queens_dragon(view, self.rng, self.behaviour.bonus_rate)}
        if phase == "setting" and rnd is not None:
            mine = next((h for h in rnd["hands"] if h["position"] == you["position"]), None)
            if mine is None or mine["is_set"] or len(mine["cards"]) != 7 or not you["can"]["set_hand"]:
                return None
            if self.rng.random() < self.behaviour.house_way_button_rate:
                return {"type": "use_house_way"}
            way = HouseWayName(rules.get("house_way", HouseWayName.TRUMP_PLAZA))  # the table's House Way
            split = house_way([parse_card(text) for text in mine["cards"]], HouseRules(house_way=way))
            return {"type": "set_hand", "low": [str(card) for card in split.low]}
        return None

    def _bonus(self, view: Json, amount: int) -> Json:
        """Sometimes a Fortune bonus beside a bet of ``amount``: from the bonus minimum to five times it,
        within what ``you.can.bonus`` allows and what the chips leave (``{}``: none)."""
        you = view["you"]
        offered = (you.get("can") or {}).get("bonus")
        if offered is None or self.rng.random() >= self.behaviour.bonus_rate:
            return {}
        high = min(offered["max_cents"], offered["min_cents"] * 5, you["chips_cents"] - amount)
        if high < offered["min_cents"]:
            return {}
        return {"bonus_cents": self.rng.randint(offered["min_cents"], high)}

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(ConnectionClosed, OSError):
                await self._ws.close()
