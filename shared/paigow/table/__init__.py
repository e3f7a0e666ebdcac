"""paigow.table: the seven-position Pai Gow Poker table as a pure, deterministic state machine.

Commands in, events out: ``decide(state, command, seed=...)`` returns events or raises ``Rejection``;
``evolve(state, event)`` applies one event; ``apply`` does both and adds one to the version. Views per
viewer come from ``view_for`` / ``event_for``. Nothing here reads a clock or a global random source.

Decisions on the lead's contract (notes/TABLE_API.md), kept small:

- Cards are kept as their text (``"As"``, ``"JK"``) in state, commands, events and views
  (``cards_to_text`` / ``cards_from_text``). ``TableState.seats`` has 7 entries, entry 0 (the house
  dealer) always None.
- Every command and event has a ``kind`` literal as its last field (a JSON discriminator).
  ``AcceptBank``, ``DeclineBank``, ``SitOut``, ``SitIn``, ``RemoveBet``, ``UseHouseWay`` carry
  ``player_id``; ``SetOwnLimit.max_bet_cents`` may be None (the table maximum).
- The version: ``evolve`` never bumps it; ``apply`` / ``evolve_all`` add one per accepted command that
  produced events (a Tick with nothing due returns no events and changes nothing).
- Rounds start only on a ``Tick``. A command without ``now_ms`` that starts a timer leaves it pending
  (``next_deadline`` returns 0) and the next Tick stamps it, so the server just ticks when told.
- ``RoundStarted.server_seed`` carries the seed to ``evolve`` (server side only); ``event_for`` blanks it.
- ``event_for(event, viewer)`` needs no state.
"""

from paigow.table.cardtext import CardText, cards_from_text, cards_to_text, format_cents
from paigow.table.machine import apply, decide, evolve, evolve_all, next_deadline
from paigow.table.records import HOUSE_KEY, HandRecord, RoundRecord, SetBy
from paigow.table.rejections import RejectCode, Rejection
from paigow.table.state import (
    DEALER_POSITION,
    PLAYER_SEATS,
    POSITIONS,
    BankReason,
    Bet,
    Deadline,
    DeadlineKind,
    Ledger,
    LiveHand,
    Phase,
    Round,
    SeatPlayer,
    SeatStatus,
    TableState,
    Timers,
    TimersError,
    new_table,
)
from paigow.table.views import (
    OperatorViewer,
    PlayerViewer,
    SpectatorViewer,
    TableView,
    Viewer,
    event_for,
    view_for,
)

__all__ = [
    "DEALER_POSITION",
    "HOUSE_KEY",
    "PLAYER_SEATS",
    "POSITIONS",
    "BankReason",
    "Bet",
    "CardText",
    "Deadline",
    "DeadlineKind",
    "HandRecord",
    "Ledger",
    "LiveHand",
    "OperatorViewer",
    "Phase",
    "PlayerViewer",
    "RejectCode",
    "Rejection",
    "Round",
    "RoundRecord",
    "SeatPlayer",
    "SeatStatus",
    "SetBy",
    "SpectatorViewer",
    "TableState",
    "TableView",
    "Timers",
    "TimersError",
    "Viewer",
    "apply",
    "cards_from_text",
    "cards_to_text",
    "decide",
    "event_for",
    "evolve",
    "evolve_all",
    "format_cents",
    "new_table",
    "next_deadline",
    "view_for",
]
