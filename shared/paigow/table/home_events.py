"""The events of private tables and the waiting list (``paigow.table.events.Event`` holds them too)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

from paigow.table.home import Seating, SpectatorsPolicy

__all__ = [
    "HOME_EVENTS",
    "AdmissionEnded",
    "HomeSettingsChanged",
    "HostAway",
    "HostBack",
    "HostChangeReason",
    "HostChanged",
    "PlayerMuted",
    "SeatOffered",
    "SeatRequestApproved",
    "SeatRequestCancelled",
    "SeatRequestDenied",
    "SeatRequested",
    "TableIdle",
    "WaitlistJoined",
    "WaitlistLeft",
    "WaitlistLeftReason",
]


class HostChangeReason(StrEnum):
    HANDED_OVER = "handed_over"
    GRACE_ENDED = "grace_ended"


class WaitlistLeftReason(StrEnum):
    LEFT = "left"
    SEATED = "seated"
    """The player sat at this table."""
    SEATED_ELSEWHERE = "seated_elsewhere"
    """The player sat at another table after joining this one's list (``LeaveWaitlist.seated_elsewhere``)."""
    OFFER_EXPIRED = "offer_expired"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class SeatRequested:
    player_id: str
    name: str
    kind: Literal["seat_requested"] = "seat_requested"


@dataclass(frozen=True, slots=True)
class SeatRequestApproved:
    player_id: str
    kind: Literal["seat_request_approved"] = "seat_request_approved"


@dataclass(frozen=True, slots=True)
class SeatRequestDenied:
    player_id: str
    kind: Literal["seat_request_denied"] = "seat_request_denied"


@dataclass(frozen=True, slots=True)
class SeatRequestCancelled:
    player_id: str
    kind: Literal["seat_request_cancelled"] = "seat_request_cancelled"


@dataclass(frozen=True, slots=True)
class WaitlistJoined:
    player_id: str
    name: str
    kind: Literal["waitlist_joined"] = "waitlist_joined"


@dataclass(frozen=True, slots=True)
class WaitlistLeft:
    player_id: str
    reason: WaitlistLeftReason
    kind: Literal["waitlist_left"] = "waitlist_left"


@dataclass(frozen=True, slots=True)
class SeatOffered:
    """A free seat is held for the waiting player; ``until_ms`` None: pending (the next Tick stamps it)."""

    player_id: str
    seat: int
    until_ms: int | None
    duration_ms: int
    kind: Literal["seat_offered"] = "seat_offered"


@dataclass(frozen=True, slots=True)
class HostChanged:
    player_id: str
    name: str
    reason: HostChangeReason
    kind: Literal["host_changed"] = "host_changed"


@dataclass(frozen=True, slots=True)
class HostAway:
    """The host left; the role passes on at ``until_ms`` (None: pending) unless they are back."""

    until_ms: int | None
    kind: Literal["host_away"] = "host_away"


@dataclass(frozen=True, slots=True)
class HostBack:
    """The host is back (seated and connected), or their grace ended with nobody seated to take the role."""

    kind: Literal["host_back"] = "host_back"


@dataclass(frozen=True, slots=True)
class HomeSettingsChanged:
    seating: Seating
    spectators: SpectatorsPolicy
    kind: Literal["home_settings_changed"] = "home_settings_changed"


@dataclass(frozen=True, slots=True)
class PlayerMuted:
    """The host muted (``muted``) or unmuted the player in the table's chat."""

    player_id: str
    muted: bool
    kind: Literal["player_muted"] = "player_muted"


@dataclass(frozen=True, slots=True)
class AdmissionEnded:
    """The host removed the player: no longer approved, requesting or waiting, and barred from the table
    until ``barred_until_ms`` (the server ends their access; the bar is written with the removal)."""

    player_id: str
    barred_until_ms: int | None = None
    """When the host's bar ends (None only in an event stored before it was told)."""
    kind: Literal["admission_ended"] = "admission_ended"


@dataclass(frozen=True, slots=True)
class TableIdle:
    """Nobody is seated since ``since_ms`` (None: pending): the table closes by itself after its idle time."""

    since_ms: int | None
    kind: Literal["table_idle"] = "table_idle"


HOME_EVENTS: TypeAlias = (
    SeatRequested | SeatRequestApproved | SeatRequestDenied | SeatRequestCancelled | WaitlistJoined
    | WaitlistLeft | SeatOffered | HostChanged | HostAway | HostBack | HomeSettingsChanged | AdmissionEnded
    | TableIdle | PlayerMuted
)
