"""Every Redis key and channel name the server uses, in one place.

All names start with ``paigow:``. Ids are server-made (``t1``, ``p_…``) and never contain ``:`` or braces.
Every key of a table carries the table id as a hash tag (``paigow:table:{t1}...``) and every other key the
tag ``{global}`` (``paigow:{global}:...``): on a Redis Cluster a table's keys share one hash slot, so its
commit is one script, and so do all the others, so every other script is one too (docs/cluster.md). Below,
``paigow:table:{id}`` is the table key with its tag (the braces are in the name: ``paigow:table:{t1}``),
``G:`` stands for ``paigow:{global}:`` and a ``{...}`` after it is a plain part of the name
(``G:player:p_1``). Channels are not keys and carry no tag (``paigow:table:t1:channel``). ``renamed``
maps the names of the first, untagged layout to these (``migration``).

=====================================  ======  ==================================================
key                                    type    holds
=====================================  ======  ==================================================
G:tables                               zset    table id -> creation number (listing order)
G:tables:seq                           string  the last table number handed out
G:deadlines                            zset    table id -> its next deadline (ms; 0 = now), only tables
                                               with one; written after each commit, repaired by the sweep
                                               from the table's ``deadline`` (the timers read it)
paigow:table:{id}                      hash    ``state`` (JSON TableState), ``version``, ``deadline`` (the
                                               state's next deadline, ms; '' = none)
paigow:table:{id}:log                  list    the last commits, JSON ``{"version", "events"}``
paigow:table:<id>:channel              pubsub  each commit's JSON ``{"version", "events"}``
paigow:table:{id}:lease                string  ``"<owner> <token>"`` of the process driving it
paigow:table:{id}:requests             zset    request id -> the version its commit wrote: the last 1,000
                                               forwarded commands, written by the commit (run once)
paigow:table:{id}:rounds               list    the table's last 100 settled rounds' public records (JSON
                                               RoundRecord, as in ``round_settled``), newest first;
                                               written by the settling commit (voided rounds: not listed);
                                               a home game with its own chips: its last 2,001
paigow:table:{id}:round-times          hash    a home game's round number -> when it settled (ms),
                                               written after its settling commit (``history``)
G:spectators:{owner}                   hash    table id -> spectators connected to that process (expires)
paigow:table:{id}:fence                string  the table's fencing counter (last token handed out)
paigow:table:{id}:outbox               list    the commits' consequences outside the table's slot not
                                               yet applied in ``{global}`` (JSON, ``seq`` first; ``outbox``)
paigow:table:{id}:outbox:seq           string  the last outbox ``seq`` handed out
paigow:table:{id}:holds                hash    hold id -> ``consumed`` | ``void``: the table's mark of each
                                               buy-in hold, written once (``holds``)
paigow:table:{id}:chat                 hash    the table chat's ``setting`` (absent: ``everyone``)
paigow:table:{id}:chat:messages        list    the last 100 chat messages (JSON), newest first
paigow:table:{id}:chat:seq             string  the last chat message id handed out
paigow:table:{id}:chat:muted           set     the player ids an operator muted at the table
paigow:table:<id>:chat:channel         pubsub  chat messages, deletions and setting changes (JSON)
G:rate:chat:{account}                  string  a player's (id) or operator's (``op.<name>``) chat rate
                                               state (expires within a minute)
G:players                              set     every player id but the fresh guests'
G:player:{id}                          hash    ``name``, ``balance`` (cents), ``created_ms``,
                                               ``last_seen_ms``, ``top_up_ms`` (the last free top-up);
                                               registered ones also ``username``,
                                               ``pw`` (argon2id hash), ``registered`` (``1``); a fresh
                                               guest ``fresh`` (``1``) and a PEXPIRE (fresh_guests)
G:guests:fresh                         zset    fresh guest id -> when it lapses (ms), for the operator's
                                               search (expires with the last of them)
G:player:{id}:sessions                 set     the token hashes of the player's sessions (expires with
                                               the last of them)
G:player:{id}:waitlists                hash    table id -> when the player joined its waiting list (ms),
                                               while on it; ``:sat`` -> ``<ms> <table id>`` of their
                                               last sit anywhere. Written by the tables' commits
                                               (``seating_effects``); expires a day after the last list
                                               is left (``waitlists``)
G:session:{sha256(token)}              string  the player id of a session token (hashed at rest);
                                               PEXPIRE: lapses after ``session_idle_days`` unused
G:username:{name}                      string  the player id of a (case-folded) username, or a closed
                                               account's ``!closed:<until ms>`` (PEXPIREAT until then)
G:guests:seen                          zset    guest player id -> last seen (ms): collection order
G:guest:{id}:collecting                string  the process collecting that guest now (expires)
G:guests:collector                     string  the process whose turn it is to look (expires)
G:sign-in:{kind}:{name}                hash    a player or operator username's failed sign-ins from
                                               devices it has not signed in from: ``failures``,
                                               ``since_ms``, ``retry_ms``, ``pending_ms``, and an
                                               operator's last reset ``reset_ms`` (expires; sign_ins)
G:sign-in:{kind}:{name}:from:{prefix}  hash    the same counter for one client address prefix
                                               (``198.51.100.0/24``, ``2001:db8::/64``; expires)
G:sign-in:{kind}:{name}:device:{id}    hash    the same counter for one device token of the account
                                               (expires)
G:device-key                           string  the HMAC-SHA-256 key that signs device tokens (hex, made
                                               once; deleting it forgets every device)
G:rate:{limit}:{address}               string  per-address rate limit state (expires within a minute)
G:settings                             hash    operator settings (``starting_balance_cents``,
                                               ``top_up_hours``)
G:operators                            set     every named operator's username
G:operator:{name}                      hash    ``pw``, ``disabled`` (0/1), ``created_ms``,
                                               ``last_sign_in_ms``
G:operator:{name}:sessions             set     the token hashes of the operator's sessions
G:operator-session:{sha256}            string  the operator username of an operator session token, or
                                               ``!disabled`` once revoked by disabling (PEXPIRE)
paigow:revocations                     pubsub  revoked sessions, so every process closes their sockets
paigow:play-sessions                   pubsub  a player id whose play-session figures changed (written by
                                               the play accounting's script; play_session_push)
G:history:{player id}                  list    the player's last hands, newest first (JSON); an analysed
                                               hand's entry also holds its ``analysis`` (hand_analyses)
G:history:{player id}:analyses         hash    round id -> the stored analysis of the player's hand of that
                                               round (JSON), for the export; written with the list entry
G:practice:{player id}                 hash    the player's practice deal (``deal_id``, ``cards``,
                                               ``dealer``, ``house_way``, ``answered``); PEXPIRE an hour
G:rounds                               stream  every settled or voided round, for export (JSON),
                                               appended as the tables' outbox entries are applied
G:ledger                               stream  every money movement (JSON), append-only
G:audit                                stream  every operator action (JSON), append-only
paigow:table:{id}:home                 hash    a private table's ``code`` and ``short`` (its invite),
                                               ``creator`` (player id), ``created_ms`` (home_tables)
paigow:table:{id}:home:access          set     the player ids admitted to a private table (kept after it
                                               closes: they may read its rounds)
G:invite:{sha256(code)}                string  the private table a long invite code opens (deleted with a
                                               new code or the table's closing)
G:invite-short:{SHORT}                 string  the private table a short code opens (the same)
G:home:tables                          zset    every private table id -> created_ms
G:home:open                            zset    the private tables not yet seen closed -> created_ms
G:home:by:{player}                     zset    the private tables a player created -> created_ms
G:home:creating                        string  the creation holding the turn to count the caps and create
                                               (a random token; PX 5 s)
G:bar:{table}:{player}                 string  a player barred from sitting at a table (JSON ``Bar``);
                                               PEXPIREAT its ``until_ms``: the bar ends by itself
G:bars                                 zset    ``{table}:{player}`` -> until_ms of every bar (read:
                                               those not yet ended; pruned as it is read)
G:player:{id}:rg                       hash    the account's responsible-play state: ``block`` (JSON
                                               ``PlayBlock``: a break or self-exclusion, kept after it
                                               ends; play_blocks); ``limits`` (JSON
                                               name -> cents/minutes or null), ``pending`` (JSON name ->
                                               {value, asked_ms, effective_ms}: a loosening waiting),
                                               ``reality_check_minutes``; a session in progress:
                                               ``sess_start_ms``, ``sess_net_cents``, ``sess_wager_cents``,
                                               ``sess_tables`` (JSON); ``seat:<table>`` -> sat ms per table
                                               sat at; ``limits_hit`` (count), ``time_hit_ms``
                                               (play_limits, play_accounting)
G:player:{id}:rg:totals                hash    ``wager:<period>`` / ``net:<period>`` (D2026-12-06,
                                               W2026-49, M2026-12; older ones pruned when written);
                                               ``open:<table>`` JSON {round, cents}: money at risk in a
                                               round not yet settled (play_limits)
G:player:{id}:rg:sessions              list    the player's ended sessions, newest first (200 kept): JSON
                                               {start_ms, end_ms, net_cents, wagered_cents, tables,
                                               ended_by}
G:rg:time-limits                       zset    player id -> ms its session time limit is reached
G:rg:limits-gen                        string  counted up each time a player with no limit gets one (every
                                               process's "no limit" cache holds for one value; play_risk)
G:rg:blocks                            zset    player id -> until_ms of every block (pruned of ended ones
                                               when a block starts)
G:closing                              zset    player id -> when its closing began (ms): closed accounts
                                               not yet finished (account_closure)
G:closed-players                       set     every player id whose closing finished
G:money:issued                         string  cents given to players from outside the game
G:money:house                          string  the house's result in cents, all tables
G:money:top-ups                        string  cents given as free top-ups, all time (part of the issued
                                               cents when given; ``top_ups``)
G:rate:top-ups:{network}               string  an address network's top-up allowance (the cell rate state
                                               of ``top_ups_per_address_per_day``; expires within a day)
G:holds                                hash    hold id -> JSON ``{player_id, table_id, amount_cents,
                                               at_ms}``: buy-ins taken from balances, not yet seated
G:outbox-applied                       hash    table id -> the last outbox ``seq`` applied
G:live-hand:{sha256}                   string  ``"<table id> <round id>"`` of a seated player's hand in
                                               play, by the SHA-256 of its sorted card texts; written
                                               before the deal is seen, deleted when the round ends
                                               (PX 6 h safety; ``live_hands``)
G:floor:{res}:{start}                   hash    the floor figures (docs/floor.md: ``rounds``, ``handle``,
                                               ``win``, ``win_sq``, ``theo_micro``...) of every casino-money
                                               round settled or voided in the bucket starting at ``start``
                                               (ms, UTC) of resolution ``res`` (``m`` minute: PEXPIREAT
                                               48 h after; ``h`` hour: 90 days; ``d`` day: 400 days);
                                               HINCRBY by the settling commit (``floor_stats``)
G:floor:{res}:{start}:t:{table}        hash    the same for one table
G:floor:{res}:{start}:tables           hash    ``<table>:<figure>`` -> the ``rounds``, ``handle``, ``win``
                                               and ``theo_micro`` of each table in the bucket (the same
                                               writes and expiry)
G:schema                               string  the key layout (``migration.SCHEMA_VERSION``)
=====================================  ======  ==================================================
"""

from __future__ import annotations

__all__ = [
    "AUDIT",
    "BARS",
    "DEADLINES",
    "DEVICE_KEY",
    "FRESH_GUESTS",
    "GUESTS_SEEN",
    "GUEST_COLLECTOR",
    "HOME_CREATING",
    "HOME_OPEN",
    "HOME_TABLES",
    "HOUSE_NET",
    "LEDGER",
    "MONEY_ISSUED",
    "OPERATORS",
    "PLAYERS",
    "PLAY_SESSIONS",
    "PREFIX",
    "REVOCATIONS",
    "RG_BLOCKS",
    "RG_LIMITS_GEN",
    "ROUNDS",
    "SETTINGS",
    "SPECTATORS_PATTERN",
    "SPECTATOR_COUNTERS",
    "TABLES",
    "TABLE_CHANNEL_PATTERN",
    "TABLE_SEQ",
    "TOP_UPS_TOTAL",
    "bar",
    "floor_bucket",
    "floor_tables",
    "guest_collecting",
    "history",
    "history_analyses",
    "home_by",
    "invite",
    "invite_short",
    "live_hand",
    "operator",
    "operator_session",
    "operator_sessions",
    "player",
    "player_sessions",
    "practice_deal",
    "probe_channel",
    "rate_limit",
    "rg",
    "rg_sessions",
    "rg_totals",
    "session",
    "sign_in",
    "sign_in_device",
    "sign_in_from",
    "spectators",
    "table",
    "table_channel",
    "table_chat",
    "table_chat_channel",
    "table_chat_messages",
    "table_chat_muted",
    "table_chat_seq",
    "table_fence",
    "table_home",
    "table_home_access",
    "table_id_of_channel",
    "table_id_of_chat_channel",
    "table_lease",
    "table_log",
    "table_requests",
    "table_round_times",
    "table_rounds",
    "username",
    "waitlists",
]

PREFIX = "paigow:"
GLOBAL_TAG = "{global}"
GLOBAL = f"{PREFIX}{GLOBAL_TAG}:"
"""The prefix of every key that is not a table's: all in the hash slot of ``{global}``."""

TABLES = GLOBAL + "tables"
TABLE_SEQ = GLOBAL + "tables:seq"
DEADLINES = GLOBAL + "deadlines"
PLAYERS = GLOBAL + "players"
ROUNDS = GLOBAL + "rounds"
LEDGER = GLOBAL + "ledger"
AUDIT = GLOBAL + "audit"
BARS = GLOBAL + "bars"
RG_BLOCKS = GLOBAL + "rg:blocks"
CLOSING = GLOBAL + "closing"
CLOSED_PLAYERS = GLOBAL + "closed-players"
RG_TIME_LIMITS = GLOBAL + "rg:time-limits"
RG_LIMITS_GEN = GLOBAL + "rg:limits-gen"
MONEY_ISSUED = GLOBAL + "money:issued"
HOUSE_NET = GLOBAL + "money:house"
TOP_UPS_TOTAL = GLOBAL + "money:top-ups"
GUESTS_SEEN = GLOBAL + "guests:seen"
FRESH_GUESTS = GLOBAL + "guests:fresh"
GUEST_COLLECTOR = GLOBAL + "guests:collector"
SETTINGS = GLOBAL + "settings"
DEVICE_KEY = GLOBAL + "device-key"
OPERATORS = GLOBAL + "operators"
HOLDS = GLOBAL + "holds"
OUTBOX_APPLIED = GLOBAL + "outbox-applied"
SCHEMA = GLOBAL + "schema"
"""The key-name layout the data is in (``migration.SCHEMA_VERSION``); absent: the first, untagged one."""
REVOCATIONS = PREFIX + "revocations"
PLAY_SESSIONS = PREFIX + "play-sessions"
STARTER_TABLES = GLOBAL + "starter-tables"
"""Set (NX) by the first process that opens the starter tables of an empty Redis."""


def table(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}"


def table_log(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:log"


def table_channel(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:channel"


def table_lease(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:lease"


def table_requests(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:requests"


def table_rounds(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:rounds"


def table_round_times(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:round-times"


def table_fence(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:fence"


def table_outbox(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:outbox"


def table_outbox_seq(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:outbox:seq"


def table_holds(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:holds"


def floor_tables(resolution: str, start_ms: int) -> str:
    """A floor bucket's per-table figures (``floor_stats``)."""
    return f"{GLOBAL}floor:{resolution}:{start_ms}:tables"


def floor_bucket(resolution: str, start_ms: int, table_id: str | None = None) -> str:
    """A floor bucket (``floor_stats``): the deployment's, or one table's."""
    base = f"{GLOBAL}floor:{resolution}:{start_ms}"
    return base if table_id is None else f"{base}:t:{table_id}"


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
    return f"{PREFIX}table:{{{table_id}}}:chat"


def table_chat_messages(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:chat:messages"


def table_chat_seq(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:chat:seq"


def table_chat_muted(table_id: str) -> str:
    return f"{PREFIX}table:{{{table_id}}}:chat:muted"


def table_chat_channel(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}:chat:channel"


def table_id_of_chat_channel(channel: str) -> str | None:
    """The table id in a ``table_chat_channel`` name; None when ``channel`` is not one."""
    inner = channel.removeprefix(f"{PREFIX}table:").removesuffix(":chat:channel")
    if inner == channel or ":" in inner or len(inner) + len(f"{PREFIX}table::chat:channel") != len(channel):
        return None
    return inner


def player(player_id: str) -> str:
    return f"{GLOBAL}player:{player_id}"


def session(token_hash: str) -> str:
    return f"{GLOBAL}session:{token_hash}"


def player_sessions(player_id: str) -> str:
    return f"{GLOBAL}player:{player_id}:sessions"


def waitlists(player_id: str) -> str:
    """The waiting lists the player is on, and their last sit (``store.waitlists``)."""
    return f"{GLOBAL}player:{player_id}:waitlists"


def username(name: str) -> str:
    return f"{GLOBAL}username:{name}"


def guest_collecting(player_id: str) -> str:
    return f"{GLOBAL}guest:{player_id}:collecting"


def sign_in(kind: str, name: str) -> str:
    return f"{GLOBAL}sign-in:{kind}:{name}"


def sign_in_from(kind: str, name: str, prefix: str) -> str:
    return f"{sign_in(kind, name)}:from:{prefix}"


def sign_in_device(kind: str, name: str, device_id: str) -> str:
    return f"{sign_in(kind, name)}:device:{device_id}"


def rate_limit(limit: str, address: str) -> str:
    return f"{GLOBAL}rate:{limit}:{address}"


def operator(name: str) -> str:
    return f"{GLOBAL}operator:{name}"


def operator_sessions(name: str) -> str:
    return f"{GLOBAL}operator:{name}:sessions"


def operator_session(token_hash: str) -> str:
    return f"{GLOBAL}operator-session:{token_hash}"


HOME_TABLES = GLOBAL + "home:tables"
HOME_OPEN = GLOBAL + "home:open"
HOME_CREATING = GLOBAL + "home:creating"


def table_home(table_id: str) -> str:
    return f"{table(table_id)}:home"


def table_home_access(table_id: str) -> str:
    return f"{table(table_id)}:home:access"


def invite(code_hash: str) -> str:
    return f"{GLOBAL}invite:{code_hash}"


def invite_short(short: str) -> str:
    return f"{GLOBAL}invite-short:{short}"


def home_by(player_id: str) -> str:
    return f"{GLOBAL}home:by:{player_id}"


def rg(player_id: str) -> str:
    return f"{GLOBAL}player:{player_id}:rg"


def rg_totals(player_id: str) -> str:
    return f"{GLOBAL}player:{player_id}:rg:totals"


def rg_sessions(player_id: str) -> str:
    return f"{GLOBAL}player:{player_id}:rg:sessions"


def bar(table_id: str, player_id: str) -> str:
    return f"{GLOBAL}bar:{table_id}:{player_id}"


def history(player_id: str) -> str:
    return f"{GLOBAL}history:{player_id}"


def history_analyses(player_id: str) -> str:
    """The analyses of the player's hands by round id; named after ``history`` so both share a slot."""
    return f"{history(player_id)}:analyses"


def live_hand(fingerprint: str) -> str:
    """A live hand's index entry, by the SHA-256 of its cards (``store.live_hands``)."""
    return f"{GLOBAL}live-hand:{fingerprint}"


def practice_deal(player_id: str) -> str:
    return f"{GLOBAL}practice:{player_id}"


def spectators(owner: str) -> str:
    """One server process's spectator counts per table (it rewrites the hash every second; it expires when
    the process dies)."""
    return f"{GLOBAL}spectators:{owner}"


SPECTATORS_PATTERN = f"{GLOBAL}spectators:*"
SPECTATOR_COUNTERS = f"{GLOBAL}spectator_counters"
"""The processes whose spectator counts are in Redis: owner → until when (ms) its hash lives (a sorted set:
a reader finds every hash without scanning the keyspace)."""


def renamed(old: str) -> str | None:
    """The name under today's layout of a key named under the first, untagged one (``paigow:table:t1:log``
    -> ``paigow:table:{t1}:log``, ``paigow:player:p_1`` -> ``paigow:{global}:player:p_1``); None when
    ``old`` is not such a name (not ours, or already tagged)."""
    if not old.startswith(PREFIX) or "{" in old:
        return None
    rest = old.removeprefix(PREFIX)
    if rest.startswith("table:"):
        table_id, sep, suffix = rest.removeprefix("table:").partition(":")
        if not table_id:
            return None
        return f"{PREFIX}table:{{{table_id}}}{sep}{suffix}"
    if rest.startswith(("tables", "starter-tables")) or rest.split(":", 1)[0] in _GLOBAL_FIRST_PARTS:
        return f"{GLOBAL}{rest}"
    return None


_GLOBAL_FIRST_PARTS = frozenset({
    "deadlines", "players", "rounds", "ledger", "audit", "bars", "money", "guests", "guest", "settings",
    "operators", "operator", "operator-session", "player", "session", "username", "sign-in", "rate", "bar",
    "history", "spectators", "practice"})
"""The first part of every untagged key name of the first layout (``paigow:<part>...``) but tables'."""
