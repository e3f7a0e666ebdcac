"""What a table's commit changes about who may sit where, outside the table: a private table's host's bar
(``bars``) and each player's waiting lists (``waitlists``). They are part of the commit, as its money is:
on one Redis the commit's script writes them (``direct_commit``), on a cluster its outbox entry carries them
to ``{global}`` (``outbox``: exactly once, after the commit and never without it). So a bar, or a list's
record, stands exactly when the commit that made it does.

``seating_effects(commit)`` reads them off the commit (the core decided them; nothing new is decided here):

- ``["bar", table, player, until_ms, bar JSON, index member]``: an ``AdmissionEnded`` (the host removed the
  player) bars them until its ``barred_until_ms``, by the host of the state before (``host:<id>``), at the
  commit's time;
- ``["joined", player, table, ms]`` / ``["left", player, table]``: a player the commit put on the table's
  list / took off it (any way: the list before and after are compared);
- ``["sat", player, table, ms]``: a ``PlayerSat``;
- ``["settle", player]``: a ``PlayerSat`` at a home game with its own chips settles a fresh guest
  (``fresh_guests``: its buy-in moves no balance, so no buy-in settles it; seated, it must not lapse);
- ``["live", fingerprint, table, round]`` / ``["unlive", ...]``: a hand dealt to a seated player / the end
  of its round (``live_hands``: the index ``POST /api/analyze`` reads; on a cluster the ``live`` ones are
  written before the commit instead, by ``outbox_commit``);
- ``["rgsit", ...]``, ``["rgleave", ...]``, ``["rgsettle", ...]``: the play accounting behind the players'
  limits and session figures (``play_risk``: seats, sessions, a settled round's wager and net);
- ``["floor", table, ...]``: a settled or voided round's floor figures, added to the floor's buckets
  (``floor_stats``: nine keys);
- ``["look", ...]``: a settled round's second-look figures per player (``pair_watch``).

Each is a list of strings (JSON in the outbox entry and the script's argument); ``effect_keys`` names the
keys they write, in order (two for a bar, six for a settle, nine for a round's floor figures,
``rg_effect_keys`` for the play accounting, ``look_effect_keys`` for a look, one otherwise), and
``SEATING_LUA``'s ``apply_seating(effects, first)`` writes them, ``first`` being the index in ``KEYS`` of the
first of those keys.
"""

from __future__ import annotations

from collections.abc import Sequence

from paigow.ledger.home_entries import plays_home_chips
from paigow.table.commit import Commit
from paigow.table.events import PlayerSat
from paigow.table.home_events import AdmissionEnded
from paigow_server.store import keys
from paigow_server.store.bars import BAR_LUA, HOST_ACTOR, HOST_REASON, Bar, member
from paigow_server.store.floor_stats import FLOOR_LUA, floor_effect_keys, floor_effects
from paigow_server.store.fresh_guests import SETTLE_FRESH, settle_keys
from paigow_server.store.live_hands import LIVE_LUA, live_effects
from paigow_server.store.pair_watch import LOOK_LUA, look_effect_keys, look_effects
from paigow_server.store.play_accounting import RG_LUA, rg_effect_keys, rg_effects
from paigow_server.store.waitlists import WAITLIST_LUA

__all__ = ["SEATING_LUA", "SeatingEffect", "effect_keys", "seating_effects"]

SeatingEffect = list[str]

SEATING_LUA = BAR_LUA + WAITLIST_LUA + SETTLE_FRESH + LIVE_LUA + RG_LUA + FLOOR_LUA + LOOK_LUA + """
local function apply_seating(effects, first)
  local at = first
  for _, e in ipairs(effects) do
    if e[1] == 'bar' then
      put_bar(KEYS[at], KEYS[at + 1], e[4], e[5], e[6])
      at = at + 2
    elseif e[1] == 'settle' then
      settle_fresh(KEYS[at], e[2], KEYS[at + 1], KEYS[at + 2], KEYS[at + 3], KEYS[at + 4], KEYS[at + 5])
      at = at + 6
    elseif e[1] == 'rgsettle' or e[1] == 'rgsit' then
      apply_rg(e, KEYS[at], KEYS[at + 1], nil)
      at = at + 2
    elseif e[1] == 'rgleave' then
      apply_rg(e, KEYS[at], KEYS[at + 1], KEYS[at + 2])
      at = at + 3
    elseif e[1] == 'floor' then
      apply_floor(e, at)
      at = at + 9
    elseif e[1] == 'look' then
      apply_look(e, at)
      if e[3] == '' then at = at + 1 else at = at + 11 end
    elseif e[1] == 'live' or e[1] == 'unlive' then
      if e[1] == 'live' then put_live(KEYS[at], e[3], e[4]) else end_live(KEYS[at], e[3], e[4]) end
      at = at + 1
    else
      if e[1] == 'joined' then waitlist_joined(KEYS[at], e[3], e[4])
      elseif e[1] == 'left' then waitlist_left(KEYS[at], e[3])
      else waitlist_sat(KEYS[at], e[3], e[4]) end
      at = at + 1
    end
  end
end
"""


def seating_effects(commit: Commit) -> list[SeatingEffect]:
    """The commit's seating effects (usually none: a few comparisons per commit)."""
    before, after = commit.before, commit.after
    table_id = after.table_id
    effects: list[SeatingEffect] = []
    if before.waiting is not after.waiting:  # a list the commit left alone is the same tuple
        was = [w.player_id for w in before.waiting]
        now_on = [w.player_id for w in after.waiting]
        effects += [["joined", p, table_id, str(commit.now_ms)] for p in now_on if p not in was]
        effects += [["left", p, table_id] for p in was if p not in now_on]
    for event in commit.events:
        if isinstance(event, PlayerSat):
            effects.append(["sat", event.player_id, table_id, str(commit.now_ms)])
            if plays_home_chips(after):
                effects.append(["settle", event.player_id])
        elif (isinstance(event, AdmissionEnded) and event.barred_until_ms is not None
              and before.home is not None):
            bar = Bar(table_id, event.player_id, event.barred_until_ms, commit.now_ms,
                      HOST_ACTOR + before.home.host_player_id, HOST_REASON)
            effects.append(["bar", table_id, bar.player_id, str(bar.until_ms), bar.text(),
                            member(table_id, bar.player_id)])
    return effects + live_effects(commit) + rg_effects(commit) + floor_effects(commit) + look_effects(commit)


def effect_keys(effects: Sequence[Sequence[str]]) -> list[str]:
    """The keys ``apply_seating`` writes for ``effects``, in its order."""
    out: list[str] = []
    for effect in effects:
        if effect[0] == "bar":
            out += [keys.bar(effect[1], effect[2]), keys.BARS]
        elif effect[0] == "settle":
            out += [keys.player(effect[1]), *settle_keys()]
        elif effect[0] in ("rgsettle", "rgsit", "rgleave"):
            out += rg_effect_keys(effect)
        elif effect[0] == "floor":
            out += floor_effect_keys(effect)
        elif effect[0] == "look":
            out += look_effect_keys(effect)
        elif effect[0] in ("live", "unlive"):
            out.append(keys.live_hand(effect[1]))
        else:
            out.append(keys.waitlists(effect[1]))
    return out
