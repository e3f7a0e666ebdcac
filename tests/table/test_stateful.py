"""A Hypothesis state machine drives random legal and illegal commands over many rounds and checks the
table's invariants after every step:

- chips are conserved to the cent (seat chips + the house's result == buy-ins - chips returned), never
  negative;
- the live hands are exactly the seed's deal at those positions: no card dealt twice, four discards;
- the version grows by one per accepted command with events, and ``apply`` == ``decide`` + ``evolve_all``;
- phases follow IDLE -> BANK_OFFER -> BETTING -> SETTING -> IDLE (a void returns to IDLE; CLOSED <-> IDLE);
- a rejected command changes nothing;
- Fortune bonuses (placed with bets, alone, and by the player-banker) stand only beside a bet or the bank,
  and each settles on its seven dealt cards, with Envy once per other player's qualifying hand;
- no view and no redacted event holds a card (or the seed) its viewer may not see;
- a due deadline always does something when ticked (no timer spin).
"""

from __future__ import annotations

import dataclasses
import hashlib

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from paigow import fair
from paigow.rules.cards import parse_cards
from paigow.rules.fortune import fortune_hand
from paigow.rules.house_rules import FoulPolicy, HouseRules
from paigow.table import (
    OperatorViewer,
    Phase,
    PlayerViewer,
    RejectCode,
    Rejection,
    SpectatorViewer,
    TableState,
    Timers,
    Viewer,
    apply,
    decide,
    event_for,
    evolve,
    evolve_all,
    new_table,
    next_deadline,
    view_for,
)
from paigow.table import commands as c
from paigow.table import events as ev
from paigow.table.cardtext import CARD_TEXTS
from paigow.table.records import RoundRecord

PLAYERS = ("a", "b", "c", "d", "e", "f", "g")
AMOUNTS = (0, 1, 4_99, 5_00, 10_00, 25_00, 45_00, 100_00, 300_00, 300_01)
STEPS = (0, 1_000, 5_000, 20_000, 60_000)
BONUSES = (0, 99, 1_00, 5_00, 25_00, 100_00, 100_01)
START = 1_700_000_000_000
TRANSITIONS = {
    (Phase.IDLE, Phase.BANK_OFFER), (Phase.BANK_OFFER, Phase.BETTING), (Phase.BETTING, Phase.SETTING),
    (Phase.SETTING, Phase.IDLE), (Phase.BANK_OFFER, Phase.IDLE), (Phase.BETTING, Phase.IDLE),
    (Phase.IDLE, Phase.CLOSED), (Phase.CLOSED, Phase.IDLE),
    (Phase.BETTING, Phase.DRAGON_OFFER), (Phase.DRAGON_OFFER, Phase.SETTING),
    (Phase.DRAGON_OFFER, Phase.IDLE),
}


def _cards_in(value: object) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if v in CARD_TEXTS:
                found.add(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            stack.extend(getattr(v, f.name) for f in dataclasses.fields(v))
        elif isinstance(v, tuple | list):
            stack.extend(v)
    return found


def _strings_in(value: object) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            found.add(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            stack.extend(getattr(v, f.name) for f in dataclasses.fields(v))
        elif isinstance(v, tuple | list):
            stack.extend(v)
    return found


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state: TableState = new_table(
            "h", "Hypothesis", HouseRules(fortune_enabled=True),
            Timers(bank_offer_ms=5_000, betting_ms=10_000, setting_ms=20_000, between_rounds_ms=1_000,
                   reconnect_grace_ms=5_000, sit_out_after_missed=2, stand_up_after_missed=4))
        self.now = START
        self.count = 0
        self.settled = 0

    # --- the driver -------------------------------------------------------------------------------------
    def _viewers(self, state: TableState) -> list[Viewer]:
        return [SpectatorViewer(), OperatorViewer(), *(PlayerViewer(p) for p in PLAYERS)]

    def _own_cards(self, state: TableState, viewer: Viewer) -> set[str]:
        if not isinstance(viewer, PlayerViewer) or state.round is None:
            return set()
        own = {x for h in state.round.hands if h.player_id == viewer.player_id for x in h.cards}
        d = state.round.dragon
        if d is not None and d.buyer_player_id == viewer.player_id and state.rules.dragon_set_by == "buyer":
            own |= set(d.cards)  # a buyer who sets the Dragon sees it
        return own

    def do(self, cmd: c.Command) -> tuple[ev.Event, ...]:
        before = self.state
        self.count += 1
        seed = hashlib.sha256(f"hypothesis-{self.count}".encode()).digest()
        try:
            new, events = apply(before, cmd, seed=seed)
        except Rejection as rejection:
            refused = rejection
        else:
            refused = None
        if refused is not None:
            assert self.state is before
            assert self.state == before
            assert refused.code in RejectCode
            assert refused.message
            return ()
        assert decide(before, cmd, seed=seed) == events
        assert evolve_all(before, events) == new
        assert new.version == before.version + (1 if events else 0)
        # phase order and event redaction, event by event
        s = before
        for e in events:
            after = evolve(s, e)
            if after.phase != s.phase:
                assert (s.phase, after.phase) in TRANSITIONS, (s.phase, after.phase, e)
            self._check_event_views(s, after, e)
            s = after
            if isinstance(e, ev.RoundSettled):
                self.settled += 1
                self._check_bonuses(s.rules, e.record)
        self.state = new
        return events

    def _check_bonuses(self, rules: HouseRules, record: RoundRecord) -> None:
        """Each bonus is paid on its seven dealt cards; Envy once per other player's hand that pays it."""
        if not rules.fortune_enabled:
            assert all(h.fortune is None and h.bonus_cents == 0 for h in record.hands)
            return
        table = rules.fortune_table
        hands = [h for h in record.hands if h.dragon_of is None]  # a Dragon takes no bonus, pays no Envy
        assert all(h.fortune is None and h.bonus_cents == 0 for h in record.hands if h.dragon_of is not None)
        categories = {h.position: fortune_hand(parse_cards(" ".join(h.dealt))) for h in hands}
        for h in hands:
            assert h.fortune == categories[h.position].name.lower()
            assert h.bonus_win_cents == h.bonus_cents * table.net(categories[h.position])
            envy = [table.envy(categories[o.position]) for o in hands
                    if o.position != h.position and o.player_id is not None]
            qualifies = h.bonus_cents >= rules.envy_min_bet_cents and h.player_id is not None
            assert [e.amount_cents for e in h.envy] == ([x for x in envy if x] if qualifies else [])
            assert h.bonus_net_cents == h.bonus_win_cents + sum(e.amount_cents for e in h.envy)
        assert record.bonus_house_net_cents == -sum(h.bonus_net_cents for h in record.hands)
        assert record.queens_dragon_house_net_cents == -sum(h.queens_dragon_win_cents for h in record.hands)
        assert sum(h.gross_cents for h in record.hands) + record.house_bank_gross_cents == 0
        for name, seen in (("a co-bank", record.co_banked), ("a barred dealer", record.dealer_barred),
                           ("a Queen's Dragon bet", record.queens_dragon_house_net_cents != 0),
                           ("a Dragon hand", any(h.dragon_of is not None for h in record.hands))):
            if seen:
                event(f"settled with {name}")
        if record.bonus_house_net_cents:
            event("a Fortune bonus was settled")

    def _check_event_views(self, before: TableState, after: TableState, e: ev.Event) -> None:
        secret = after.round.server_seed if after.round is not None else None
        for viewer in self._viewers(after):
            seen = event_for(e, viewer)
            if seen is None:
                continue
            allowed = self._own_cards(after, viewer) | self._own_cards(before, viewer)
            if isinstance(e, ev.RoundSettled):
                allowed |= {x for h in e.record.hands for x in h.dealt}
            assert _cards_in(seen) <= allowed, (viewer, e)
            if secret is not None:
                assert secret not in _strings_in(seen)

    def _player(self, i: int) -> str:
        return PLAYERS[i % len(PLAYERS)]

    # --- rules ------------------------------------------------------------------------------------------
    def _seated(self, i: int) -> str:
        """A seated player (by index), or now and then someone who has no seat."""
        ids = [sp.player_id for sp in self.state.seats if sp is not None]
        return ids[i % len(ids)] if ids and i < 6 else PLAYERS[i % len(PLAYERS)]

    @initialize(n=st.integers(1, 6), buy_in=st.sampled_from((20_00, 100_00, 500_00)))
    def seat_players(self, n: int, buy_in: int) -> None:
        for k in range(n):
            self.do(c.Sit(PLAYERS[k], f"P{k}", k + 1, buy_in + k))

    @rule(i=st.integers(0, 6), seat=st.integers(0, 7), buy_in=st.sampled_from((0, 4_99, 5_00, 60_00, 500_00)))
    def sit(self, i: int, seat: int, buy_in: int) -> None:
        self.do(c.Sit(PLAYERS[i], f"P{i}", seat, buy_in))

    @precondition(lambda self: self.state.phase == Phase.BANK_OFFER)
    @rule(i=st.integers(0, 6), accept=st.booleans())
    def answer_bank(self, i: int, accept: bool) -> None:
        rnd = self.state.round
        pid = rnd.offer_player_id if rnd is not None and rnd.offer_player_id and i < 5 else self._seated(i)
        self.do(c.AcceptBank(pid, bonus_cents=BONUSES[i % len(BONUSES)]) if accept else c.DeclineBank(pid))

    @rule(i=st.integers(0, 6), amount=st.sampled_from(AMOUNTS))
    def bet(self, i: int, amount: int) -> None:
        self.do(c.PlaceBet(self._seated(i), amount))

    @rule(i=st.integers(0, 6), amount=st.sampled_from(AMOUNTS), bonus=st.sampled_from(BONUSES))
    def bet_with_bonus(self, i: int, amount: int, bonus: int) -> None:
        self.do(c.PlaceBet(self._seated(i), amount, bonus_cents=bonus))

    @rule(i=st.integers(0, 6), bonus=st.sampled_from(BONUSES))
    def bonus_alone(self, i: int, bonus: int) -> None:
        rnd = self.state.round
        banker = rnd.banker_player_id if rnd is not None else None
        self.do(c.PlaceBonus(banker if banker is not None and i == 6 else self._seated(i), bonus))

    @precondition(lambda self: self.state.phase == Phase.BETTING)
    @rule(amount=st.sampled_from((5_00, 10_00, 20_00, 60_00)))
    def everyone_bets(self, amount: int) -> None:
        for sp in self.state.seats:
            if sp is not None and self.state.phase == Phase.BETTING:
                self.do(c.PlaceBet(sp.player_id, amount))

    @precondition(lambda self: self.state.phase == Phase.SETTING)
    @rule(i=st.integers(0, 6), j=st.integers(0, 6), k=st.integers(0, 6))
    def set_hand(self, i: int, j: int, k: int) -> None:
        rnd = self.state.round
        hands = [h for h in rnd.hands if h.player_id is not None] if rnd is not None else []
        if hands and i < 6:
            hand = hands[i % len(hands)]
            assert hand.player_id is not None
            self.do(c.SetHand(hand.player_id, (hand.cards[j], hand.cards[k])))
        else:
            self.do(c.SetHand(self._seated(i), ("As", "Kd")))

    @precondition(lambda self: self.state.phase == Phase.SETTING)
    @rule(house_way=st.booleans())
    def everyone_sets(self, house_way: bool) -> None:
        rnd = self.state.round
        assert rnd is not None
        for h in rnd.hands:
            if h.player_id is not None and self.state.phase == Phase.SETTING:
                if house_way:
                    self.do(c.UseHouseWay(h.player_id))
                else:
                    self.do(c.SetHand(h.player_id, h.cards[5:7]))

    @rule(which=st.integers(0, 16), i=st.integers(0, 6), value=st.sampled_from(AMOUNTS))
    def anything_else(self, which: int, i: int, value: int) -> None:
        pid = self._seated(i)
        limit = value or None
        cmds: list[c.Command] = [
            c.Leave(pid), c.Drop(pid, self.now), c.Reconnect(pid, self.now), c.RemoveBet(pid), c.SitOut(pid),
            c.SitIn(pid), c.SetOwnLimit(pid, limit, self.now), c.Kick(pid), c.UseHouseWay(pid),
            c.CloseTable(), c.OpenTable(), c.PauseTable(), c.ResumeTable(), c.VoidRound(),
            c.ChangeRules(HouseRules(foul_policy=FoulPolicy.LOSE if i % 2 else FoulPolicy.REJECT,
                                     fortune_enabled=i % 3 != 0, fortune_min_bet_cents=max(value, 1),
                                     fortune_max_bet_cents=max(value, 1) * 20,
                                     fortune_pay_table="fortune-5000" if i % 2 else "fortune-8000")),
            c.ChangeLimits(value, 300_00),
            c.ChangeTimers(Timers(betting_ms=value, between_rounds_ms=i * 100)),
        ]
        self.now += value
        self.do(cmds[which])

    def _to_a_round(self) -> bool:
        """Run the clock until a round offers the bank or takes bets; False if nothing is timed."""
        for _ in range(6):
            if self.state.phase in (Phase.BETTING, Phase.BANK_OFFER):
                break
            due = next_deadline(self.state)
            if due is None:
                return False
            self.now = max(self.now, due)
            self.do(c.Tick(self.now))
        return True

    @rule(accept=st.booleans(), amount=st.sampled_from((5_00, 15_00, 40_00)), house_way=st.booleans())
    def play_a_round(self, accept: bool, amount: int, house_way: bool) -> None:
        """Drive the table through a whole round, if it can play one."""
        if not self._to_a_round():
            return
        rnd = self.state.round
        if self.state.phase == Phase.BANK_OFFER and rnd is not None and rnd.offer_player_id is not None:
            pid = rnd.offer_player_id
            self.do(c.AcceptBank(pid) if accept else c.DeclineBank(pid))
        if self.state.phase == Phase.BETTING:
            rnd = self.state.round
            for sp in self.state.seats:  # half the players bet the bonus too
                if sp is not None and rnd is not None and self.state.phase == Phase.BETTING and accept:
                    self.do(c.PlaceBet(sp.player_id, amount, bonus_cents=amount // 5))
            self.everyone_bets(amount)
        if self.state.phase == Phase.SETTING:
            self.everyone_sets(house_way)

    @rule(i=st.integers(0, 6), back=st.booleans())
    def drop_or_reconnect(self, i: int, back: bool) -> None:
        pid = self._seated(i)
        self.do(c.Reconnect(pid, self.now) if back else c.Drop(pid, self.now))

    @rule(step=st.sampled_from(STEPS))
    def tick(self, step: int) -> None:
        self.now += step
        self.do(c.Tick(self.now))

    @rule()
    def advance_to_deadline(self) -> None:
        due = next_deadline(self.state)
        if due is None:
            return
        self.now = max(self.now, due)
        events = self.do(c.Tick(self.now))
        assert events, "a due deadline did nothing"

    # --- invariants ---------------------------------------------------------------------------------------
    @invariant()
    def chips_add_up(self) -> None:
        s = self.state
        chips = [sp.chips_cents for sp in s.seats if sp is not None]
        assert all(x >= 0 for x in chips)
        assert sum(chips) + s.ledger.house_net_cents == s.ledger.bought_in_cents - s.ledger.returned_cents
        assert s.seats[0] is None

    @invariant()
    def a_bonus_stands_beside_a_bet_or_the_bank(self) -> None:
        rnd = self.state.round
        if rnd is None:
            return
        bettors = {b.position for b in rnd.bets}
        for b in rnd.bonuses:
            assert b.position in bettors or b.position == rnd.banker_position
            sp = self.state.seats[b.position]
            assert sp is not None
            assert b.player_id == sp.player_id

    @invariant()
    def the_deal_is_the_seeds(self) -> None:
        s = self.state
        rnd = s.round
        assert (rnd is None) == (s.phase in (Phase.IDLE, Phase.CLOSED))
        if rnd is None or not rnd.hands:
            return
        assert s.phase == Phase.SETTING
        d = fair.deal(bytes.fromhex(rnd.server_seed), rnd.round_id, rnd.banker_position or 0)
        everything = [x for h in d.hands for x in h] + list(d.discards)
        assert len({x.index for x in everything}) == 53
        assert len(d.discards) == 4
        dealt = [x for h in rnd.hands for x in h.cards]
        assert len(set(dealt)) == len(dealt) == 7 * len(rnd.hands)
        for h in rnd.hands:
            assert h.cards == tuple(str(x) for x in d.hands[h.position])
            if h.set_by is not None:
                assert sorted(h.high + h.low) == sorted(h.cards)

    @invariant()
    def views_hide_what_they_must(self) -> None:
        s = self.state
        secret = s.round.server_seed if s.round is not None else None
        for viewer in self._viewers(s):
            view = view_for(s, viewer)
            own = self._own_cards(s, viewer)
            assert _cards_in(view) <= own  # a view holds no settled round's cards either
            if secret is not None:
                assert secret not in _strings_in(view)
            if isinstance(viewer, PlayerViewer) and s.seat_of(viewer.player_id) is None:
                assert view.you is None


VARIANTS = HouseRules(commission_form="ez", queens_dragon_enabled=True, dragon_enabled=True,
                      dragon_set_by="buyer", co_banking=True, fortune_enabled=True)


class VariantMachine(TableMachine):
    """The same machine at a table with every variant of issue 24: EZ with the Queen's Dragon, the Dragon
    hand set by its buyer, co-banking (and the Fortune bonus); its rules change now and then to the House
    Way Dragon, the nine-high form, or none of them."""

    def __init__(self) -> None:
        super().__init__()
        self.state = dataclasses.replace(self.state, rules=VARIANTS)

    @precondition(lambda self: self.state.phase == Phase.BANK_OFFER)
    @rule(i=st.integers(0, 6))
    def co_bank(self, i: int) -> None:
        rnd = self.state.round
        pid = rnd.offer_player_id if rnd is not None and rnd.offer_player_id and i < 5 else self._seated(i)
        self.do(c.AcceptBank(pid, co_bank=True))

    @rule(i=st.integers(0, 6), amount=st.sampled_from(AMOUNTS), qd=st.sampled_from(BONUSES))
    def bet_with_queens_dragon(self, i: int, amount: int, qd: int) -> None:
        self.do(c.PlaceBet(self._seated(i), amount, queens_dragon_cents=qd))

    @rule(i=st.integers(0, 6), qd=st.sampled_from(BONUSES))
    def queens_dragon_alone(self, i: int, qd: int) -> None:
        self.do(c.PlaceQueensDragon(self._seated(i), qd))

    @precondition(lambda self: self.state.phase == Phase.DRAGON_OFFER)
    @rule(i=st.integers(0, 6), take=st.booleans(), amount=st.sampled_from(AMOUNTS))
    def answer_dragon(self, i: int, take: bool, amount: int) -> None:
        rnd = self.state.round
        seat = rnd.dragon.offered_seat if rnd is not None and rnd.dragon is not None else None
        sp = self.state.seats[seat] if seat is not None else None
        pid = sp.player_id if sp is not None and i < 5 else self._seated(i)
        self.do(c.TakeDragon(pid, amount) if take else c.PassDragon(pid))

    @precondition(lambda self: self.state.phase == Phase.SETTING)
    @rule(j=st.integers(0, 6), k=st.integers(0, 6))
    def set_dragon(self, j: int, k: int) -> None:
        rnd = self.state.round
        d = rnd.dragon if rnd is not None else None
        if d is None or d.buyer_player_id is None or not d.cards:
            self.do(c.SetDragon(self._seated(j), ()))
        else:
            self.do(c.SetDragon(d.buyer_player_id, (d.cards[j], d.cards[k]) if j != 6 else ()))

    @rule(which=st.integers(0, 2))
    def change_variants(self, which: int) -> None:
        rules = (VARIANTS, dataclasses.replace(VARIANTS, dragon_set_by="house_way"),
                 HouseRules(commission_form="nine_high", dragon_enabled=True))[which]
        self.do(c.ChangeRules(rules))

    @rule(co=st.booleans(), take=st.integers(0, 3), amount=st.sampled_from((5_00, 15_00)))
    def play_a_variant_round(self, co: bool, take: int, amount: int) -> None:
        """A whole round with the variants: co-banking, the Queen's Dragon, the Dragon taken (by the
        ``take``-th player offered it) or passed."""
        if not self._to_a_round():
            return
        rnd = self.state.round
        if self.state.phase == Phase.BANK_OFFER and rnd is not None and rnd.offer_player_id is not None:
            self.do(c.AcceptBank(rnd.offer_player_id, co_bank=co))
        for sp in self.state.seats:
            if sp is not None and self.state.phase == Phase.BETTING:
                self.do(c.PlaceBet(sp.player_id, amount, queens_dragon_cents=1_00 if co else 0))
        offered = 0
        while self.state.phase == Phase.DRAGON_OFFER and self.state.round is not None:
            d = self.state.round.dragon
            assert d is not None
            assert d.offered_seat is not None
            sp = self.state.seats[d.offered_seat]
            assert sp is not None
            if offered == take:
                self.do(c.TakeDragon(sp.player_id, 5_00))
            else:
                self.do(c.PassDragon(sp.player_id))
            offered += 1
        rnd = self.state.round
        if self.state.phase == Phase.SETTING and rnd is not None and rnd.dragon is not None:
            buyer = rnd.dragon.buyer_player_id
            if buyer is not None and rnd.dragon.cards:
                self.do(c.SetDragon(buyer, rnd.dragon.cards[5:7]))
        if self.state.phase == Phase.SETTING:
            self.everyone_sets(co)

    @invariant()
    def the_dragon_is_dealt_only_when_bought(self) -> None:
        rnd = self.state.round
        d = rnd.dragon if rnd is not None else None
        if d is None:
            return
        assert d.position not in {h.position for h in rnd.hands}
        assert bool(d.cards) == (d.buyer_player_id is not None and self.state.phase == Phase.SETTING)
        if d.cards:
            event("a Dragon was bought")
            dealt = fair.deal(bytes.fromhex(rnd.server_seed), rnd.round_id, rnd.banker_position or 0)
            assert d.cards == tuple(str(x) for x in dealt.hands[d.position])


VariantMachine.TestCase.settings = settings(
    max_examples=30, stateful_step_count=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_variant_machine = VariantMachine.TestCase


TableMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_table_machine = TableMachine.TestCase
