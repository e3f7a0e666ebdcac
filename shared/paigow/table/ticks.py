"""``Tick(now_ms)``: the server's clock. Stamps a pending timer, ends dropped players' grace times in the
setting phase (the House Way sets their hands), and acts on a due deadline:

- NEXT_ROUND: start a round if one is wanted (open, not paused, someone active), else stop waiting;
- BANK_OFFER: the offer timed out, the house banks;
- BETTING: deal if there is a stake, else wait with no deadline (the next bet starts a new one);
- SETTING: the House Way sets every remaining hand, then the showdown and settlement.

A Tick with nothing due returns no events (and so does not change the version).
"""

from __future__ import annotations

from paigow.table.bank import decline_offer, start_round
from paigow.table.commands import Tick
from paigow.table.dealing import deal_round, has_stake
from paigow.table.dragon import set_dragon_by_house_way
from paigow.table.dragon_commands import dragon_timed_out
from paigow.table.emitter import Emitter
from paigow.table.events import DeadlineCleared, DeadlineSet
from paigow.table.home_clock import home_due, home_tick
from paigow.table.records import SetBy
from paigow.table.setting import set_by_house_way
from paigow.table.settlement import maybe_showdown, void_round
from paigow.table.state import DeadlineKind, Phase, TableState

__all__ = ["next_deadline", "tick"]


def next_deadline(state: TableState) -> int | None:
    """When the server should send the next ``Tick`` (ms; 0 = now), or None when nothing is timed."""
    due: list[int] = []
    dl = state.deadline
    if dl is not None:
        due.append(0 if dl.at_ms is None else dl.at_ms)
    rnd = state.round
    if state.phase == Phase.SETTING and rnd is not None:
        for h in rnd.hands:
            sp = state.seats[h.position] if h.player_id is not None else None
            if sp is not None and h.set_by is None and sp.away_until_ms is not None:
                due.append(sp.away_until_ms)
    due += home_due(state)
    return min(due) if due else None


def tick(em: Emitter, cmd: Tick) -> None:
    now = cmd.now_ms
    dl = em.state.deadline
    if dl is not None and dl.at_ms is None:
        em.emit(DeadlineSet(dl.kind, now + dl.duration_ms, dl.duration_ms))
    rnd = em.state.round
    if em.state.phase == Phase.SETTING and rnd is not None:
        for h in rnd.hands:
            sp = em.state.seats[h.position] if h.player_id is not None else None
            if (sp is not None and h.set_by is None and sp.away_until_ms is not None
                    and sp.away_until_ms <= now):
                set_by_house_way(em, h, SetBy.TIMEOUT)
        maybe_showdown(em, now)
    home_tick(em, now)
    dl = em.state.deadline
    if dl is None or dl.at_ms is None or dl.at_ms > now:
        return
    if dl.kind == DeadlineKind.NEXT_ROUND:
        if em.wants_round():
            start_round(em, now)
        else:
            em.emit(DeadlineCleared())
    elif dl.kind == DeadlineKind.BANK_OFFER:
        decline_offer(em, True, now)
    elif dl.kind == DeadlineKind.DRAGON_OFFER:
        dragon_timed_out(em, now)
    elif dl.kind == DeadlineKind.BETTING:
        if has_stake(em):
            deal_round(em, now)
        elif em.state.closing:
            void_round(em, "the table closed", now)
        else:
            em.emit(DeadlineCleared())
    else:
        for h in em.round().hands:
            if h.player_id is not None and h.set_by is None:
                set_by_house_way(em, h, SetBy.TIMEOUT)
        dragon = em.round().dragon
        if dragon is not None and dragon.buyer_player_id is not None and dragon.set_by is None:
            set_dragon_by_house_way(em, SetBy.TIMEOUT)
        maybe_showdown(em, now)
