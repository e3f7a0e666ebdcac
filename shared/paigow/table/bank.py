"""The start of a round and the bank: the marker moves one position counterclockwise (the first round
stays at the dealer's seat); at an occupied, eligible player seat the player is offered the bank until a
deadline; at the dealer's seat, an empty seat, an ineligible player, a decline or a time-out the house
banks.

Eligibility (docs/rules.md): active, played against the house in the last house-banked round, and chips that
cover the table minimum for every other seated player and the dealer.

The house dealer's wager against a player-banker is that player's last wager against the house, within
the table limits, and capped so that the bank still covers the table minimum for every other seated
player (so the eligibility promise holds); below the minimum the dealer does not play.

When the players bank in turn (``HouseRules.players_bank_in_turn``, a home game's setting; docs/rules.md
§6a) the house never banks and its dealer never plays: the marker moves to the next occupied player seat,
and a decline, a time-out, an ineligible player or one who leaves passes the offer on to the next
occupied seat (the marker moving with it); once every seated player was passed, the round is voided
(``no_banker``) before any card or bet. Eligibility there is playing and chips covering the table minimum
for every other seated player.
"""

from __future__ import annotations

from paigow.fair import new_commitment
from paigow.table.commands import AcceptBank, DeclineBank
from paigow.table.dealing import has_stake, maybe_deal
from paigow.table.emitter import Emitter, reject
from paigow.table.events import BankDeclined, BankOffered, BettingOpened, RoundStarted
from paigow.table.fortune_bets import check_bonus, emit_bonus
from paigow.table.rejections import RejectCode
from paigow.table.settlement import void_round
from paigow.table.state import (
    DEALER_POSITION,
    PLAYER_SEATS,
    POSITIONS,
    BankReason,
    DeadlineKind,
    IneligibleReason,
    Phase,
    SeatStatus,
)
from paigow.table.variant_events import CoBankChosen

NO_BANKER = "no_banker"
"""The reason of the ``RoundVoided`` of a round nobody would or could bank (players bank in turn)."""
NO_OPPONENT = "no player is left to play against the bank"
"""The reason of the ``RoundVoided`` of a round whose player-banker has nobody left to play against before
the deal (players bank in turn: the house dealer does not play)."""

__all__ = [
    "NO_BANKER",
    "NO_OPPONENT",
    "accept_bank",
    "dealer_wager",
    "decline_bank",
    "decline_offer",
    "eligible",
    "ineligibility",
    "open_betting",
    "start_round",
    "void_if_alone",
]


def _others_seated(em: Emitter, pos: int) -> int:
    return sum(1 for p, sp in enumerate(em.state.seats) if sp is not None and p != pos)


def ineligibility(em: Emitter, pos: int) -> IneligibleReason | None:
    """Why the player at ``pos`` may not take the bank now, or None when they may."""
    s = em.state
    sp = s.seats[pos]
    if sp is None or not sp.playing:
        return IneligibleReason.NOT_PLAYING
    in_turn = s.rules.players_bank_in_turn  # no house-banked rounds, and no dealer to cover
    if not in_turn and (s.last_house_round == 0 or sp.last_house_round != s.last_house_round):
        return IneligibleReason.NO_HOUSE_ROUND
    if sp.chips_cents < s.rules.min_bet_cents * (_others_seated(em, pos) + (0 if in_turn else 1)):
        return IneligibleReason.CHIPS_SHORT
    return None


def eligible(em: Emitter, pos: int) -> bool:
    return ineligibility(em, pos) is None


def dealer_wager(em: Emitter, pos: int) -> int:
    s = em.state
    sp = s.seats[pos]
    assert sp is not None
    rules = s.rules
    if rules.players_bank_in_turn:
        return 0  # the house dealer plays no hand when the players bank in turn
    wager = min(max(sp.last_house_wager_cents, rules.min_bet_cents), rules.max_bet_cents)
    wager = min(wager, sp.chips_cents - rules.min_bet_cents * _others_seated(em, pos))
    return wager if wager >= rules.min_bet_cents else 0


def start_round(em: Emitter, now_ms: int) -> None:
    s = em.state
    number = s.rounds_started + 1
    if s.rules.players_bank_in_turn:
        marker = next(pos for pos in _seats_after(s.marker) if s.seats[pos] is not None)
    else:
        marker = DEALER_POSITION if s.rounds_started == 0 else (s.marker + 1) % POSITIONS
    round_id = f"{s.table_id}-{number}"
    if len(em.seed) < 16:
        raise ValueError(f"a round needs a seed of at least 16 random bytes, not {len(em.seed)}")
    em.emit(RoundStarted(round_id, number, marker, new_commitment(em.seed), em.seed.hex()))
    sp = em.state.seats[marker]
    if s.rules.players_bank_in_turn:
        _offer_in_turn(em, now_ms)
    elif marker == DEALER_POSITION:
        open_betting(em, DEALER_POSITION, BankReason.DEALER_SEAT, now_ms)
    elif sp is None:
        open_betting(em, DEALER_POSITION, BankReason.EMPTY_SEAT, now_ms)
    elif not s.rules.player_banking:
        open_betting(em, DEALER_POSITION, BankReason.BANKING_OFF, now_ms)
    elif (why := ineligibility(em, marker)) is not None:
        open_betting(em, DEALER_POSITION, BankReason.INELIGIBLE, now_ms, ineligible=why)
    else:
        em.emit(BankOffered(marker, sp.player_id))
        em.set_deadline(DeadlineKind.BANK_OFFER, em.state.timers.bank_offer_ms, now_ms)


def open_betting(em: Emitter, banker: int, reason: BankReason, now_ms: int | None,
                 bonus_cents: int = 0, ineligible: IneligibleReason | None = None) -> None:
    """Betting opens; a player-banker's Fortune bonus (``bonus_cents``, checked) is placed at once.
    ``ineligible``: with ``reason`` INELIGIBLE, why the player at the marker was not offered the bank."""
    sp = em.state.seats[banker] if banker != DEALER_POSITION else None
    wager = dealer_wager(em, banker) if sp is not None and not em.round().co_banked else 0
    em.emit(BettingOpened(banker, sp.player_id if sp is not None else None, reason, wager, ineligible))
    if sp is not None and bonus_cents:
        check_bonus(em, banker, sp, bonus_cents, 0)
        emit_bonus(em, banker, sp, bonus_cents)
    em.set_deadline(DeadlineKind.BETTING, em.state.timers.betting_ms, now_ms)
    maybe_deal(em, now_ms)


def decline_offer(em: Emitter, timed_out: bool, now_ms: int | None, *, leaving: bool = False) -> None:
    """The offered player declines (or times out, leaves, sits out...): the house banks, or, when the
    players bank in turn, the offer passes on. ``leaving``: the player is leaving or sitting out (no longer
    counted among the players of the round)."""
    rnd = em.round()
    offered = rnd.offer_player_id
    assert offered is not None
    em.emit(BankDeclined(em.state.marker, offered, timed_out))
    if em.state.rules.players_bank_in_turn:
        _offer_in_turn(em, now_ms, offered if leaving else None)
        return
    open_betting(em, DEALER_POSITION, BankReason.TIMED_OUT if timed_out else BankReason.DECLINED, now_ms)


def _seats_after(pos: int) -> list[int]:
    """The six player seats counterclockwise, starting just after ``pos`` (the dealer's 0: from seat 1)."""
    return [(pos + k) % len(PLAYER_SEATS) + 1 for k in range(len(PLAYER_SEATS))]


def _offer_in_turn(em: Emitter, now_ms: int | None, gone: str | None = None) -> None:
    """Players bank in turn: offer the bank at the first occupied seat from the marker on whose player was
    not passed this round and may bank; with nobody (or fewer than two players left to play, ``gone``
    being on the way out), void the round: ``no_banker``."""
    s = em.state
    rnd = em.round()
    for pos in _seats_after(s.marker - 1) if _players_left(em, None, gone) >= 2 else ():
        sp = s.seats[pos]
        if sp is not None and sp.player_id not in rnd.bank_passed and ineligibility(em, pos) is None:
            em.emit(BankOffered(pos, sp.player_id))
            em.set_deadline(DeadlineKind.BANK_OFFER, s.timers.bank_offer_ms, now_ms)
            return
    void_round(em, NO_BANKER, now_ms)


def _require_offer(em: Emitter, player_id: str) -> int:
    pos, _ = em.seated(player_id)
    rnd = em.require_phase(Phase.BANK_OFFER, "the bank is accepted or declined")
    if rnd.offer_player_id != player_id:
        reject(RejectCode.NOT_YOUR_SEAT,
               f"the bank is offered to {rnd.offer_player_id!r} at position {em.state.marker}, "
               f"not to {player_id!r}")
    return pos


def accept_bank(em: Emitter, cmd: AcceptBank) -> None:
    pos = _require_offer(em, cmd.player_id)
    if type(cmd.bonus_cents) is not int or cmd.bonus_cents < 0:
        reject(RejectCode.INVALID_VALUE,
               f"a Fortune bonus is 0 (none) or more cents, not {cmd.bonus_cents!r}")
    if cmd.co_bank:
        if not em.state.rules.co_banking:
            reject(RejectCode.CO_BANKING_OFF,
                   f"table {em.state.table_id!r} does not offer co-banking: accept the bank without co_bank")
        em.emit(CoBankChosen(pos, cmd.player_id))
    open_betting(em, pos, BankReason.PLAYER_BANKS, cmd.now_ms, cmd.bonus_cents)


def decline_bank(em: Emitter, cmd: DeclineBank) -> None:
    _require_offer(em, cmd.player_id)
    decline_offer(em, False, cmd.now_ms)


def void_if_alone(em: Emitter, now_ms: int | None) -> bool:
    """Players bank in turn, after a player left or sat out: a round not dealt yet, with no stake, that has
    fewer than two players left (the banker, and the active players) cannot be played, and is voided
    (``NO_BANKER`` while the bank is offered, ``NO_OPPONENT`` once a player banks). A player who is away
    (dropped) still counts: they may come back and bet."""
    s = em.state
    rnd = s.round
    if (not s.rules.players_bank_in_turn or rnd is None or s.phase not in (Phase.BANK_OFFER, Phase.BETTING)
            or has_stake(em)):
        return False
    banker = rnd.banker_position
    if _players_left(em, banker) >= 2:
        return False
    void_round(em, NO_BANKER if banker is None else NO_OPPONENT, now_ms)
    return True


def _players_left(em: Emitter, banker: int | None, gone: str | None = None) -> int:
    """The players a round not dealt yet can still be played by: the banker (``banker``, a position) and
    the active players, an away one included (they may come back), but not ``gone`` (on the way out)."""
    return sum(1 for pos, sp in enumerate(em.state.seats) if sp is not None and sp.player_id != gone
               and (pos == banker or sp.status == SeatStatus.ACTIVE))
