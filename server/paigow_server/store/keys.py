"""Every Redis key and channel name the server uses, in one place.

All names start with ``paigow:``. Ids are server-made (``t1``, ``p_…``) and never contain ``:``.

=====================================  ======  ==================================================
key                                    type    holds
=====================================  ======  ==================================================
paigow:tables                          zset    table id -> creation number (listing order)
paigow:tables:seq                      string  the last table number handed out
paigow:deadlines                       zset    table id -> its next deadline (ms; 0 = now), only tables
                                               with one; written with the state (the timers read it)
paigow:table:{id}                      hash    ``state`` (JSON TableState), ``version``
paigow:table:{id}:log                  list    the last commits, JSON ``{"version", "events"}``
paigow:table:{id}:channel              pubsub  each commit's JSON ``{"version", "events"}``
paigow:table:{id}:lease                string  ``"<owner> <token>"`` of the process driving it
paigow:table:{id}:requests             zset    request id -> the version its commit wrote: the last 1,000
                                               forwarded commands, written by the commit (run once)
paigow:table:{id}:rounds               list    the table's last 100 settled rounds' public records (JSON
                                               RoundRecord, as in ``round_settled``), newest first;
                                               written by the settling commit (voided rounds: not listed)
paigow:spectators:{owner}              hash    table id -> spectators connected to that process (expires)
paigow:table:{id}:fence                string  the table's fencing counter (last token handed out)
paigow:table:{id}:chat                 hash    the table chat's ``setting`` (absent: ``everyone``)
paigow:table:{id}:chat:messages        list    the last 100 chat messages (JSON), newest first
paigow:table:{id}:chat:seq             string  the last chat message id handed out
paigow:table:{id}:chat:muted           set     the player ids an operator muted at the table
paigow:table:{id}:chat:channel         pubsub  chat messages, deletions and setting changes (JSON)
paigow:rate:chat:{account}             string  a player's (id) or operator's (``op.<name>``) chat rate
                                               state (expires within a minute)
paigow:players                         set     every player id
paigow:player:{id}                     hash    ``name``, ``balance`` (cents), ``created_ms``,
                                               ``last_seen_ms``; registered ones also ``username``,
                                               ``pw`` (argon2id hash), ``registered`` (``1``)
paigow:player:{id}:sessions            set     the token hashes of the player's sessions (expires with
                                               the last of them)
paigow:session:{sha256(token)}         string  the player id of a session token (hashed at rest);
                                               PEXPIRE: lapses after ``session_idle_days`` unused
paigow:username:{name}                 string  the player id of a (case-folded) username
paigow:guests:seen                     zset    guest player id -> last seen (ms): collection order
paigow:guest:{id}:collecting           string  the process collecting that guest now (expires)
paigow:guests:collector                string  the process whose turn it is to look (expires)
paigow:sign-in:{kind}:{name}           hash    ``failures``, ``retry_ms``, ``locked_until_ms`` of a
                                               player or operator username (expires)
paigow:rate:{limit}:{address}          string  per-address rate limit state (expires within a minute)
paigow:settings                        hash    operator settings (``starting_balance_cents``)
paigow:operators                       set     every named operator's username
paigow:operator:{name}                 hash    ``pw``, ``disabled`` (0/1), ``created_ms``,
                                               ``last_sign_in_ms``
paigow:operator:{name}:sessions        set     the token hashes of the operator's sessions
paigow:operator-session:{sha256}       string  the operator username of an operator session token, or
                                               ``!disabled`` once revoked by disabling (PEXPIRE)
paigow:revocations                     pubsub  revoked sessions, so every process closes their sockets
paigow:history:{player id}             list    the player's last hands, newest first (JSON); an analysed
                                               hand's entry also holds its ``analysis`` (hand_analyses)
paigow:history:{player id}:analyses    hash    round id -> the stored analysis of the player's hand of that
                                               round (JSON), for the export; written with the list entry
paigow:practice:{player id}            hash    the player's practice deal (``deal_id``, ``cards``,
                                               ``dealer``, ``house_way``, ``answered``); PEXPIRE an hour
paigow:rounds                          stream  every settled or voided round, for export (JSON)
paigow:ledger                          stream  every money movement (JSON), append-only
paigow:audit                           stream  every operator action (JSON), append-only
paigow:bar:{table}:{player}            string  a player barred from sitting at a table (JSON ``Bar``);
                                               PEXPIREAT its ``until_ms``: the bar ends by itself
paigow:bars                            zset    ``{table}:{player}`` -> until_ms of every bar (read:
                                               those not yet ended; pruned as it is read)
paigow:money:issued                    string  cents given to players from outside the game
paigow:money:house                     string  the house's result in cents, all tables
=====================================  ======  ==================================================
"""

from __future__ import annotations

__all__ = [
    "AUDIT",
    "BARS",
    "DEADLINES",
    "GUESTS_SEEN",
    "GUEST_COLLECTOR",
    "HOUSE_NET",
    "LEDGER",
    "MONEY_ISSUED",
    "OPERATORS",
    "PLAYERS",
    "PREFIX",
    "REVOCATIONS",
    "ROUNDS",
    "SETTINGS",
    "SPECTATORS_PATTERN",
    "TABLES",
    "TABLE_CHANNEL_PATTERN",
    "TABLE_SEQ",
    "bar",
    "guest_collecting",
    "history",
    "history_analyses",
    "operator",
    "operator_session",
    "operator_sessions",
    "player",
    "player_sessions",
    "practice_deal",
    "probe_channel",
    "rate_limit",
    "session",
    "sign_in",
    "spectators",
    "table",
    "table_channel",
    "table_chat",
    "table_chat_channel",
    "table_chat_messages",
    "table_chat_muted",
    "table_chat_seq",
    "table_fence",
    "table_id_of_channel",
    "table_id_of_chat_channel",
    "table_lease",
    "table_log",
    "table_requests",
    "table_rounds",
    "username",
]

PREFIX = "paigow:"

TABLES = PREFIX + "tables"
TABLE_SEQ = PREFIX + "tables:seq"
DEADLINES = PREFIX + "deadlines"
PLAYERS = PREFIX + "players"
ROUNDS = PREFIX + "rounds"
LEDGER = PREFIX + "ledger"
AUDIT = PREFIX + "audit"
BARS = PREFIX + "bars"
MONEY_ISSUED = PREFIX + "money:issued"
HOUSE_NET = PREFIX + "money:house"
GUESTS_SEEN = PREFIX + "guests:seen"
GUEST_COLLECTOR = PREFIX + "guests:collector"
SETTINGS = PREFIX + "settings"
OPERATORS = PREFIX + "operators"
REVOCATIONS = PREFIX + "revocations"
STARTER_TABLES = PREFIX + "starter-tables"
"""Set (NX) by the first process that opens the starter tables of an empty Redis."""


def table(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}"


def table_log(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:log"


def table_channel(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:channel"


def table_lease(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:lease"


def table_requests(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:requests"


def table_rounds(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:rounds"


def table_fence(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:fence"


def probe_channel(listener: str) -> str:
    """A pub/sub listener's own channel, on which it publishes to itself to check it still hears the
    primary (``realtime.pubsub_probe``)."""
    return f"{PREFIX}probe:{listener}"


def table_id_of_channel(channel: str) -> str:
    """The table id in a ``table_channel`` name (for pattern subscriptions)."""
    inner = channel.removeprefix(f"{PREFIX}table:").removesuffix(":channel")
    if inner == channel or ":" in inner:
        raise ValueError(f"{channel!r} is not a table channel name")
    return inner


TABLE_CHANNEL_PATTERN = f"{PREFIX}table:*:channel"


def table_chat(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:chat"


def table_chat_messages(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:chat:messages"


def table_chat_seq(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:chat:seq"


def table_chat_muted(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:chat:muted"


def table_chat_channel(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:chat:channel"


def table_id_of_chat_channel(channel: str) -> str | None:
    """The table id in a ``table_chat_channel`` name; None when ``channel`` is not one."""
    inner = channel.removeprefix(f"{PREFIX}table:").removesuffix(":chat:channel")
    if inner == channel or ":" in inner or len(inner) + len(f"{PREFIX}table::chat:channel") != len(channel):
        return None
    return inner


def player(player_id: str) -> str:
    return f"{PREFIX}player:{player_id}"


def session(token_hash: str) -> str:
    return f"{PREFIX}session:{token_hash}"


def player_sessions(player_id: str) -> str:
    return f"{PREFIX}player:{player_id}:sessions"


def username(name: str) -> str:
    return f"{PREFIX}username:{name}"


def guest_collecting(player_id: str) -> str:
    return f"{PREFIX}guest:{player_id}:collecting"


def sign_in(kind: str, name: str) -> str:
    return f"{PREFIX}sign-in:{kind}:{name}"


def rate_limit(limit: str, address: str) -> str:
    return f"{PREFIX}rate:{limit}:{address}"


def operator(name: str) -> str:
    return f"{PREFIX}operator:{name}"


def operator_sessions(name: str) -> str:
    return f"{PREFIX}operator:{name}:sessions"


def operator_session(token_hash: str) -> str:
    return f"{PREFIX}operator-session:{token_hash}"


def bar(table_id: str, player_id: str) -> str:
    return f"{PREFIX}bar:{table_id}:{player_id}"


def history(player_id: str) -> str:
    return f"{PREFIX}history:{player_id}"


def history_analyses(player_id: str) -> str:
    """The analyses of the player's hands by round id; named after ``history`` so both share a slot."""
    return f"{history(player_id)}:analyses"


def practice_deal(player_id: str) -> str:
    return f"{PREFIX}practice:{player_id}"


def spectators(owner: str) -> str:
    """One server process's spectator counts per table (it rewrites the hash every second; it expires when
    the process dies)."""
    return f"{PREFIX}spectators:{owner}"


SPECTATORS_PATTERN = f"{PREFIX}spectators:*"
