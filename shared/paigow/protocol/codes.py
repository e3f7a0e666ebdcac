"""The codes of the wire protocol: ``ErrorCode`` (in ``error`` messages) and ``CloseCode`` (WebSocket close).

An ``error`` message's ``code`` is either an ``ErrorCode`` (the frame itself was wrong, or the connection
may not do that) or a ``paigow.table.rejections.RejectCode`` (the table refused a well-formed command).
The two sets share only ``INVALID_VALUE``, which means the same in both (a value is impossible), so a
client can switch on the code alone.

Close codes: the standard ones the server uses, plus application codes in the 4000-4999 range, named
after the HTTP status they resemble (4401 unauthorized, 4404 not found, ...).
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = ["CloseCode", "ErrorCode"]


class ErrorCode(StrEnum):
    """Why a client frame was refused. Nothing changed at the table (except after ``UNCONFIRMED``: maybe),
    and the connection stays open unless a ``CloseCode`` follows (only for limits: frame size, flood)."""

    # The frame itself.
    MALFORMED_JSON = "MALFORMED_JSON"
    """The frame is not a JSON object (or is a binary frame)."""
    UNKNOWN_TYPE = "UNKNOWN_TYPE"
    """``type`` is missing or names no client message."""
    MISSING_FIELD = "MISSING_FIELD"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    """A field the message does not have (extra fields are forbidden)."""
    WRONG_TYPE = "WRONG_TYPE"
    """A field has the wrong JSON type (a string where a number is expected, ...)."""
    INVALID_VALUE = "INVALID_VALUE"
    """A field has the right type but an impossible value (negative amount, seat 9, unknown card, ...)."""
    FRAME_TOO_LARGE = "FRAME_TOO_LARGE"
    UNSUPPORTED_PROTOCOL = "UNSUPPORTED_PROTOCOL"
    """``hello.protocol`` is not a version this server speaks."""
    # The conversation.
    HELLO_REQUIRED = "HELLO_REQUIRED"
    """The first client message must be ``hello``."""
    ALREADY_GREETED = "ALREADY_GREETED"
    """A second ``hello`` on the same connection."""
    UNAUTHORIZED = "UNAUTHORIZED"
    """The session token is unknown or expired."""
    SPECTATOR_CANNOT_ACT = "SPECTATOR_CANNOT_ACT"
    """A command on a connection that only watches (a spectator's, or the operator's)."""
    RATE_LIMITED = "RATE_LIMITED"
    """Too many messages per second; the message was dropped. A flood closes the connection (1008)."""
    TOO_MANY_CONNECTIONS = "TOO_MANY_CONNECTIONS"
    TABLE_NOT_FOUND = "TABLE_NOT_FOUND"
    # The server side of a command.
    INSUFFICIENT_BALANCE = "INSUFFICIENT_BALANCE"
    """The buy-in is more than the player's account balance."""
    BARRED = "BARRED"
    """A ``sit`` by a player barred from this table (an operator's kick with a bar, or at a private table
    the host's ``host_remove``, which also refuses the hello); the error's ``until_ms`` says when the bar
    ends and ``by`` who barred the player (``"host"`` or ``"operator"``)."""
    ON_BREAK = "ON_BREAK"
    """The player is on a break they started (docs/http-api.md, "Breaks and self-exclusion"): a command
    that sits, bets, banks or buys in is refused until the error's ``until_ms``; watching goes on."""
    SELF_EXCLUDED = "SELF_EXCLUDED"
    """The same for a self-exclusion (6 months to 5 years), until the error's ``until_ms``."""
    LOSS_LIMIT_REACHED = "LOSS_LIMIT_REACHED"
    """A bet (or the bank) would take the player past a loss limit they set (docs/responsible-play.md,
    "Limits"); ``limit_cents`` the limit, ``amount_cents`` what the bet would bring the period's total to,
    ``until_ms`` when the period ends. Nothing changed."""
    WAGER_LIMIT_REACHED = "WAGER_LIMIT_REACHED"
    """The same for a wager limit (the money put in play in the period)."""
    TIME_LIMIT_REACHED = "TIME_LIMIT_REACHED"
    """The player's session time limit ended their session: sitting again is refused until ``until_ms``."""
    BUSY = "BUSY"
    """The table changed too often while the command was tried; nothing changed, send it again."""
    UNCONFIRMED = "UNCONFIRMED"
    """The command was written, but the data store's replicas did not confirm it in time (a failover
    under way): it may have taken effect or may be lost. Resync (``sync``) and look before sending it
    again. The one error after which something may have changed."""
    INTERNAL_ERROR = "INTERNAL_ERROR"
    # Private tables (docs/home-games.md): a hello refused, then closed with 4403.
    NO_ACCESS = "NO_ACCESS"
    """A hello at a private table without access: no invite code, an unknown or replaced one, or the table's
    codes ended with its closing."""
    SPECTATORS_OFF = "SPECTATORS_OFF"
    """A spectator's hello at a private table whose host lets nobody watch."""
    # The table chat (``chat``): each refusal of a well-formed message.
    CHAT_OFF = "CHAT_OFF"
    """The table's chat is off."""
    CHAT_PLAYERS_ONLY = "CHAT_PLAYERS_ONLY"
    """The table's chat is for seated players only, and the sender is not seated there."""
    CHAT_MUTED = "CHAT_MUTED"
    """An operator muted the sender at this table."""
    CHAT_NEEDS_SESSION = "CHAT_NEEDS_SESSION"
    """A spectator connection without a session token: it reads the chat but has no name to post with."""
    CHAT_TOO_LONG = "CHAT_TOO_LONG"
    """The text is over ``MAX_CHAT_CHARS`` characters."""
    CHAT_TOO_FAST = "CHAT_TOO_FAST"
    """Over the account's chat rate (``chat_per_minute``); the message says when to try again."""
    # HTTP only.
    LIVE_HAND = "LIVE_HAND"
    """``POST /api/analyze`` (409): the seven cards are a seated player's hand in a round still in play,
    and the deployment gives no live aid (``no_live_aid``); asked again once the round is over, it is
    answered."""


class CloseCode(IntEnum):
    """WebSocket close codes sent by the server."""

    NORMAL = 1000
    GOING_AWAY = 1001
    """The server is shutting down; reconnect (to any server process) with the last version."""
    POLICY_VIOLATION = 1008
    """Message flood: the client kept sending over the rate limit."""
    MESSAGE_TOO_BIG = 1009
    """A frame over the size limit."""
    INTERNAL_ERROR = 1011
    SERVICE_RESTART = 1012
    """The server is restarting; reconnect with the last version."""
    TRY_AGAIN_LATER = 1013
    """The client fell too far behind (its send queue overflowed); reconnect with the last version."""
    UNAUTHORIZED = 4401
    """The ``hello`` token is unknown: start a new session."""
    FORBIDDEN = 4403
    """A private table refused the hello (``NO_ACCESS``, ``SPECTATORS_OFF``, ``BARRED``): ask the host for a
    link; do not reconnect with the same code."""
    TABLE_NOT_FOUND = 4404
    HELLO_TIMEOUT = 4408
    """No ``hello`` arrived in time after the connection opened."""
    UNSUPPORTED_PROTOCOL = 4426
    TOO_MANY_CONNECTIONS = 4429
    """The player already has the maximum number of open connections, or (a connection without a token) its
    address network has the maximum number of token-less spectator connections to this process."""
