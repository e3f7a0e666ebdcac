"""Client → server messages: a closed set of pydantic models discriminated by ``type``.

Every model forbids extra fields and is strict (no "100" for 100, no 1.0 for 1, no true for 1). The first
message on a connection is ``hello``; then table commands (each with a client ``id`` that the answer names),
``sync`` (resend what I missed since a version) and ``ping``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

from paigow.protocol.chat import emote_text
from paigow.protocol.chip_messages import CHIP_CLIENT_COMMANDS, CHIP_MESSAGE_TYPES
from paigow.protocol.home_messages import HOME_CLIENT_COMMANDS, HOME_MESSAGE_TYPES
from paigow.rules.cards import Card, DuplicateCardError, card_from_text
from paigow.rules.house_rules import MAX_CENTS

__all__ = [
    "CLIENT_MESSAGE_TYPES",
    "MAX_CENTS",
    "AcceptBank",
    "Chat",
    "ClientCommand",
    "ClientMessage",
    "DeclineBank",
    "Hello",
    "Leave",
    "PassDragon",
    "Ping",
    "PlaceBet",
    "PlaceBonus",
    "PlaceQueensDragon",
    "RemoveBet",
    "SetDragon",
    "SetHand",
    "SetOwnLimit",
    "Sit",
    "SitIn",
    "SitOut",
    "Sync",
    "TakeDragon",
    "UseHouseWay",
]


ClientId = Annotated[str, Field(min_length=1, max_length=64,
                               description="Chosen by the client; the answer names it")]
Cents = Annotated[int, Field(ge=1, le=MAX_CENTS)]
"""An amount in integer cents; each field that takes one says which amount it is."""
SideBetCents = Annotated[int, Field(ge=0, le=MAX_CENTS)]
"""A side bet in integer cents, 0 for none; each field says which side bet."""
Version = Annotated[int, Field(ge=0, le=2**53 - 1, description="A table version")]
CardText = Annotated[str, WithJsonSchema({"type": "string", "pattern": "^(?:[2-9TJQKA][cdhs]|JK)$",
                                          "description": "A card: rank 2-9TJQKA then suit cdhs, or JK"})]
"""One card in its one text form; the schema gives the pattern, ``SetHand`` checks it (naming the card)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """First message on a connection. With a session token the connection acts for that player; without
    one it is a spectator; with the operator token it watches with the operator's view (table money and
    limits; still no hole cards; operator actions go through the HTTP API). With ``last_version`` (a
    reconnect) the server sends only what was missed, or a snapshot when the gap is too old."""

    type: Literal["hello"] = "hello"
    protocol: int = Field(description="The protocol version the client speaks (PROTOCOL_VERSION)")
    token: str | None = Field(default=None, min_length=1, max_length=256, description="Session token")
    spectate: bool = Field(default=False, description="Watch only, even with a token")
    invite: str | None = Field(default=None, min_length=1, max_length=64,
                               description="A private table's invite code (the long one), proving access")
    operator_token: str | None = Field(default=None, min_length=1, max_length=256,
                                       description="Watch as the operator (instead of a session token)")
    last_version: Version | None = None


class Sync(_Message):
    """Resend everything after ``last_version`` (the client saw a gap in versions); without it (or
    ``null``), send a fresh snapshot (the client could not apply a patch)."""

    type: Literal["sync"] = "sync"
    last_version: Version | None = None


class Ping(_Message):
    type: Literal["ping"] = "ping"
    id: ClientId | None = None


class _Command(_Message):
    id: ClientId


class Sit(_Command):
    """Take a seat (1..6) with a buy-in moved from the account balance to chips at the table."""

    type: Literal["sit"] = "sit"
    seat: int = Field(ge=1, le=6)
    buy_in_cents: Cents = Field(description="The chips to take to the seat, in integer cents, from the "
                                            "account balance (at a home game with its own chips: the buy-in "
                                            "asked for, within the game's bounds, which the host approves)")


class Leave(_Command):
    """Stand up (at the end of the round if one is in play); the chips go back to the balance."""

    type: Literal["leave"] = "leave"


class SitOut(_Command):
    type: Literal["sit_out"] = "sit_out"


class SitIn(_Command):
    type: Literal["sit_in"] = "sit_in"


class AcceptBank(_Command):
    """Take the bank offered to you; ``bonus_cents`` places your Fortune bonus bet as betting opens."""

    type: Literal["accept_bank"] = "accept_bank"
    bonus_cents: SideBetCents = Field(default=0, description="The banker's Fortune bonus bet in integer "
                                                             "cents, placed as betting opens (0: none)")
    co_bank: bool = Field(default=False, description="Co-bank with the house, half each (a table with "
                                                     "co_banking; docs/rules.md §4c)")


class DeclineBank(_Command):
    type: Literal["decline_bank"] = "decline_bank"


class PlaceBet(_Command):
    """Place the bet for the coming round, or change it while bets are open."""

    type: Literal["place_bet"] = "place_bet"
    amount_cents: Cents = Field(description="The main bet in integer cents, within the table's limits and "
                                            "your own")
    bonus_cents: SideBetCents | None = Field(
        default=None, description="The Fortune bonus bet placed with it, in integer cents (0: none); absent "
                                  "keeps the bonus you have")
    queens_dragon_cents: SideBetCents | None = Field(
        default=None, description="The Queen's Dragon bet placed with it, in integer cents (EZ tables; 0: "
                                  "none); absent keeps the one you have")


class PlaceBonus(_Command):
    """Place, change or (0) take back the Fortune bonus bet alone: beside your bet, or when you bank."""

    type: Literal["place_bonus"] = "place_bonus"
    bonus_cents: SideBetCents = Field(description="The Fortune bonus bet in integer cents (0: take it back)")


class RemoveBet(_Command):
    type: Literal["remove_bet"] = "remove_bet"


class PlaceQueensDragon(_Command):
    """Place, change or (0) take back the Queen's Dragon bet beside your bet (EZ tables, house bank)."""

    type: Literal["place_queens_dragon"] = "place_queens_dragon"
    amount_cents: SideBetCents = Field(description="The Queen's Dragon bet in integer cents (0: take it "
                                                   "back)")


class TakeDragon(_Command):
    """Buy the Dragon hand offered to you (``view.you.can.dragon``) with a second wager in that range."""

    type: Literal["take_dragon"] = "take_dragon"
    amount_cents: Cents = Field(description="The Dragon hand's wager in integer cents, in the range "
                                            "view.you.can.dragon gives")


class PassDragon(_Command):
    """Let the Dragon hand offered to you go to the next player in turn."""

    type: Literal["pass_dragon"] = "pass_dragon"


class SetDragon(_Command):
    """Set the Dragon hand you bought (``dragon_set_by`` ``"buyer"``): its two low cards, or ``[]`` for the
    House Way."""

    type: Literal["set_dragon"] = "set_dragon"
    low: tuple[CardText, ...] = Field(max_length=2, description="Two distinct cards of the Dragon's seven, "
                                                                "or [] for the House Way")

    @field_validator("low")
    @classmethod
    def _cards(cls, low: tuple[str, ...]) -> tuple[str, ...]:
        if len(low) == 1:
            raise ValueError("the Dragon's low hand takes two cards (or none, for the House Way)")
        return SetHand._cards(low) if low else low


class SetHand(_Command):
    """Set the hand: the two cards of the low hand, each in its one text form (rank ``2-9TJQKA`` then suit
    ``cdhs``, or ``JK``: ``["Kd", "JK"]``); the other five are the high hand."""

    type: Literal["set_hand"] = "set_hand"
    low: tuple[CardText, ...] = Field(min_length=2, max_length=2,
                                 description="Two distinct cards of the player's seven, e.g. ['Kd', 'JK']")

    @field_validator("low")
    @classmethod
    def _cards(cls, low: tuple[str, ...]) -> tuple[str, ...]:
        cards = tuple(card_from_text(t) for t in low)  # InvalidCardError (a ValueError) names the bad card
        if cards[0] == cards[1]:
            raise DuplicateCardError(f"duplicate card {cards[0]} in the low hand {list(low)!r}")
        return low

    def low_cards(self) -> tuple[Card, Card]:
        return (card_from_text(self.low[0]), card_from_text(self.low[1]))


class UseHouseWay(_Command):
    """Let the House Way set the hand."""

    type: Literal["use_house_way"] = "use_house_way"


class SetOwnLimit(_Command):
    """Lower the player's own maximum bet (always allowed), or raise or remove it (``null`` = the table
    maximum; once a week)."""

    type: Literal["set_own_limit"] = "set_own_limit"
    max_bet_cents: Cents | None = Field(description="Your own maximum bet in integer cents (null: the table "
                                                    "maximum)")


class Chat(_Message):
    """Post to the table's chat: ``text`` (plain text, at most ``MAX_CHAT_CHARS`` characters once trimmed:
    longer is ``CHAT_TOO_LONG``; a control, format or separator character is ``INVALID_VALUE``) or a quick
    ``emote`` (an id of ``EMOTES``), exactly one of the two. Not a table command: it changes no version."""

    type: Literal["chat"] = "chat"
    id: ClientId
    text: str | None = Field(default=None, description="What to say (at most 200 characters once trimmed)")
    emote: str | None = Field(default=None, max_length=40,
                              description="A quick emote's id: good_luck, nice_hand, well_played, unlucky, "
                                          "thanks, hello")

    @field_validator("emote")
    @classmethod
    def _emote(cls, emote: str | None) -> str | None:
        if emote is not None:
            emote_text(emote)  # ValueError naming the choices
        return emote


ClientCommand = Annotated[
    Sit | Leave | SitOut | SitIn | AcceptBank | DeclineBank | PlaceBet | PlaceBonus | RemoveBet | SetHand
    | UseHouseWay | SetOwnLimit | PlaceQueensDragon | TakeDragon | PassDragon | SetDragon
    | HOME_CLIENT_COMMANDS | CHIP_CLIENT_COMMANDS,
    Field(discriminator="type"),
]
"""The table commands a player connection may send."""

ClientMessage = Annotated[
    Hello | Sync | Ping | Sit | Leave | SitOut | SitIn | AcceptBank | DeclineBank | PlaceBet | PlaceBonus
    | RemoveBet | SetHand | UseHouseWay | SetOwnLimit | Chat | PlaceQueensDragon | TakeDragon | PassDragon
    | SetDragon | HOME_CLIENT_COMMANDS | CHIP_CLIENT_COMMANDS,
    Field(discriminator="type"),
]
"""Every message a client may send."""

CLIENT_MESSAGE_TYPES: tuple[str, ...] = (
    "hello", "sync", "ping", "sit", "leave", "sit_out", "sit_in", "accept_bank", "decline_bank", "place_bet",
    "place_bonus", "remove_bet", "set_hand", "use_house_way", "set_own_limit", "chat",
    "place_queens_dragon", "take_dragon", "pass_dragon", "set_dragon", *HOME_MESSAGE_TYPES,
    *CHIP_MESSAGE_TYPES,
)
"""The ``type`` of every client message, in the order of ``ClientMessage``."""
