"""``Settings``: every knob of ``paigow serve``, from command-line options over ``PAIGOW_*`` variables.

``load_settings(cli, env)`` takes the raw text of each source (the command line wins), parses and checks
every value, and raises ``SettingsError`` naming the source (``--port`` or ``PAIGOW_PORT``), the bad text
and the rule it breaks. ``Settings(...)`` built directly (tests) is checked the same way.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import re
import secrets
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from paigow.rules.house_rules import MAX_CENTS
from paigow_server.errors import ServerError
from paigow_server.process.redis_client import check_redis_url, is_cluster_url, is_sentinel_url

__all__ = ["ENV_PREFIX", "MAX_HELP_NOTICE", "MAX_TOP_UP_HOURS", "Settings", "SettingsError",
           "check_help_notice", "generate_operator_token", "load_settings"]

ENV_PREFIX = "PAIGOW_"
_LOG_LEVELS = ("debug", "info", "warning", "error")
_LOG_FORMATS = ("plain", "json")
_LOG_FORMAT_ALIASES = {"text": "plain"}
"""The earlier name of the plain format, still read."""
MIN_OPERATOR_TOKEN_LENGTH = 16
MAX_HELP_NOTICE = 1_000
"""The most characters a help notice may have (``help_notice``, and the operator's)."""
MAX_TOP_UP_HOURS = 8_760
"""The longest wait between two top-ups a setting may ask for: a year."""
LOOPBACK_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "[::1]")
"""The ``Host`` names allowed when ``allowed_hosts`` is not set (with a bind address that names one host)."""
_WILDCARD_BINDS = frozenset({"0.0.0.0", "::", "[::]"})
_HOST_NAME = re.compile(r"(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*")


class SettingsError(ServerError, ValueError):
    """A setting is malformed or out of range; the message names the source, the text and the rule."""


def generate_operator_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    redis_url: str | None = None
    """``None``: start a private redis-server with its data in ``data_dir``."""
    data_dir: Path = Path("paigow-data")
    redis_replica_acks: int | None = None
    """Replicas that must acknowledge each table commit (``WAIT``) before it counts; ``None`` (auto): 1 with
    a ``redis+sentinel://`` URL, else 0 (``replica_acks``)."""
    redis_ack_timeout_ms: int = 500
    """How long a commit waits for those acknowledgements before it is answered ``UNCONFIRMED``."""
    operator_token: str = field(default_factory=generate_operator_token, repr=False)
    operator_token_generated: bool = False
    """True when nobody gave a token: ``paigow serve`` prints the generated one once."""
    allowed_origins: tuple[str, ...] = ()
    """Origins allowed to open WebSockets besides the server's own (same origin is always allowed);
    ``"*"`` allows any."""
    allowed_hosts: tuple[str, ...] | None = None
    """The names the server answers to in the ``Host`` header (the port is not compared): exact names or
    addresses (``[::1]`` for IPv6), ``*.example.com`` for any name under it, ``"*"`` for any. Any other
    ``Host`` is refused with 400, the WebSocket upgrade too (``web.hosts``). ``None``: ``LOOPBACK_HOSTS``
    and the bind address when it names one host (``trusted_hosts``)."""
    starting_balance_cents: int = 100_000
    top_up_hours: float = 24.0
    """A player whose balance is below every open table's minimum may take a free top-up back to the
    starting balance once in this many hours; 0: no top-ups. The operator's ``PUT /api/operator/settings``
    overrides it at runtime (``store.top_ups``). Fractions allowed."""
    top_ups_per_address_per_day: int = 20
    """Top-ups per address network (``limit_ipv4_prefix``) per day, every account of it together (a steady
    rate with bursts of as many): many guests of one network refilling."""
    grace_seconds: int = 60
    """A dropped player's time to come back before the House Way sets their hand (new tables' default)."""
    max_frame_bytes: int = 16_384
    messages_per_second: int = 20
    connections_per_player: int = 4
    event_log_length: int = 500
    log_level: str = "info"
    log_format: str = "plain"
    """``plain``: one line a person reads (the terminal); ``json``: one JSON object per line, for a
    deployment's log collector (the deploy/ configurations set it)."""
    starter_tables: int = 0
    """Tables opened at start when Redis holds none, so a new server is playable at once (``paigow serve``
    opens one unless told otherwise)."""
    ws_compression: bool = False
    """permessage-deflate on WebSocket frames. Off by default: compressing every per-viewer push took
    about a fifth of a loaded server's CPU (benchmarks/README.md, "Load"), and table messages are small."""
    session_idle_days: float = 30.0
    """A session token lapses after this long unused (sliding: every use extends it). Fractions allowed."""
    guest_retention_days: float = 7.0
    fresh_guest_minutes: float = 60.0
    """A new guest is kept tiny (no ledger entry, no index) and lapses after this long unused, until it first
    sits, chats, is credited or is kept (``store.fresh_guests``). Fractions allowed."""
    """A guest account unseen this long, with no open connection, is collected (its money to the bank)."""
    guest_collect_seconds: int = 600
    """How often a process looks for guests to collect."""
    sign_in_max_wait_minutes: int = 15
    """The longest a sign-in waits after failed ones (the wait doubles with each failure, up to this;
    nothing locks an account: docs/http-api.md, "Failed sign-ins")."""
    operator_session_hours: float = 12.0
    """An operator session token lapses after this long unused (sliding)."""
    sessions_per_minute: int = 10
    """New sessions (guests and registrations) per client address per minute (as a steady rate, with
    bursts of as many)."""
    sign_ins_per_minute: int = 10
    """Sign-in attempts (players and operators) per client address per minute."""
    chat_per_minute: int = 10
    """Table chat messages per account per minute (a steady rate, with bursts of as many), all tables and
    processes together."""
    analyses_per_minute: int = 10
    """Split analyses (``POST /api/analyze`` and a played hand's analysis) per account per minute."""
    analysis_workers: int = 1
    """Processes that run split analyses, off the event loop (each analysis takes about a second of CPU)."""
    analysis_queue_per_client: int = 2
    """Analyses one account, or one address network (``limit_ipv4_prefix``), may have waiting or running in a
    process at once; past it, ``429 ANALYSIS_QUEUE_FULL`` (the queue takes clients in turn)."""
    guests_per_minute: int = 120
    """New guests per minute on the whole deployment (every address together; a steady rate with bursts of
    as many); past it, ``429 RATE_LIMITED``."""
    limit_ipv4_prefix: int = 24
    """Per-address limits count an IPv4 client in its network of this many bits (24: a /24)."""
    limit_ipv6_prefix: int = 64
    """Per-address limits count an IPv6 client in its network of this many bits (64: a /64)."""
    chat_per_address_per_minute: int = 20
    """Table chat messages per address network per minute, every account of it together."""
    account_settings_per_minute: int = 10
    """Changes of an account's own settings (its language: ``PUT /api/account/language``; a break or
    self-exclusion: ``POST /api/account/break`` / ``exclusion``) per account per minute."""
    data_downloads_per_hour: int = 6
    """Downloads of a player's own data (``GET /api/account/data``) per account per hour, refused ones too."""
    practice_deals_per_minute: int = 30
    """Practice deals per account, and per address network, per minute."""
    round_reads_per_minute: int = 120
    """``GET /api/tables/{id}/rounds`` per address network per minute."""
    home_tables_per_account: int = 3
    """Private tables (home games) one account may have open at once."""
    home_tables_max: int = 200
    """Private tables open on the whole deployment at once."""
    home_idle_close_minutes: int = 30
    """A private table with nobody seated closes after this long."""
    home_host_grace_seconds: int = 120
    """A host who left keeps the role this long before it passes to the player seated longest."""
    home_max_bet_cents: int = 100_000
    """The highest ``max_bet_cents`` a host may give a private table."""
    home_max_buy_in_cents: int = 1_000_000
    """The most a buy-in, a rebuy or a host's correction may be at a home game with its own chips (the
    bound of its ``max_buy_in_cents``)."""
    seat_offer_seconds: int = 30
    """How long a waiting-list offer holds a free seat (new tables, public and private)."""
    invite_lookups_per_minute: int = 10
    """``POST /api/invites/resolve`` per address network, and per account, per minute."""
    short_code_lookups_per_minute: int = 300
    """Short-code look-ups on the whole deployment per minute, every address together (a botnet's bound)."""
    host_messages_per_minute: int = 30
    """``host_*`` messages at private tables per sender (an account; a connection without a session: its
    address network) per minute, refused ones too: each is audited, so this bounds what one sender writes."""
    spectators_per_address: int = 20
    """Token-less (spectator) table connections per address network in one process; past it, close 4429."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or CIDR networks of the deployment's proxies: only a request from one of them has its
    ``X-Forwarded-For`` read (the rightmost address that is not itself a trusted proxy)."""
    argon2_memory_kib: int = 47_104
    """argon2id memory per password hash (KiB); see ``passwords.py`` for why these three values."""
    argon2_time_cost: int = 1
    argon2_parallelism: int = 1
    responsible_play: bool = True
    """The deployment's responsible-play set (docs/responsible-play.md; on: the regulated set): the help
    notice at sign-in and sign-out, and no live aid (``no_live_aid``)."""
    no_live_aid: bool | None = None
    """``POST /api/analyze`` refuses seven cards that are a seated player's live hand (``409 LIVE_HAND``)
    until their round settles; ``None`` (auto): as ``responsible_play``."""
    help_notice: str = ""
    """The help notice shown at sign-in and after signing out (plain text, at most ``MAX_HELP_NOTICE``
    characters; empty: none), until an operator sets one with ``PUT /api/operator/settings``."""
    limits_timezone: str = "UTC"
    """The IANA time zone of the players' limits' periods (docs/responsible-play.md, "Limits"): a day starts
    at 00:00, a week on Monday 00:00, a month on the 1st at 00:00, in this zone."""
    session_limit_pause_minutes: int = 60
    """After a session time limit ended a player's session, sitting again anywhere is refused
    (``TIME_LIMIT_REACHED``) for this long."""
    reality_check_minutes: int = 60
    """The deployment's default reality-check interval for a player who set none (0: off by default; else
    5..1440)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            check = _CHECKS.get(f.name)
            if check is not None:
                message = check(getattr(self, f.name))
                if message is not None:
                    raise SettingsError(f"{f.name}={getattr(self, f.name)!r}: {message}")
        if self.redis_replica_acks and self.redis_url is not None and is_cluster_url(self.redis_url):
            raise SettingsError(f"redis_replica_acks={self.redis_replica_acks}: replica acknowledgements "
                                "are not supported on a redis+cluster:// URL (auto or 0: none)")

    @property
    def replica_acks(self) -> int:
        if self.redis_replica_acks is not None:
            return self.redis_replica_acks
        return 1 if self.redis_url is not None and is_sentinel_url(self.redis_url) else 0

    @property
    def refuses_live_aid(self) -> bool:
        """``no_live_aid`` in force: its own value, or ``responsible_play``'s when auto."""
        return self.responsible_play if self.no_live_aid is None else self.no_live_aid

    @property
    def session_idle_ms(self) -> int:
        return max(1, round(self.session_idle_days * 86_400_000))

    @property
    def fresh_guest_ms(self) -> int:
        return max(1, round(self.fresh_guest_minutes * 60_000))

    @property
    def guest_retention_ms(self) -> int:
        return max(1, round(self.guest_retention_days * 86_400_000))

    @property
    def operator_session_ms(self) -> int:
        return max(1, round(self.operator_session_hours * 3_600_000))

    @property
    def trusted_hosts(self) -> tuple[str, ...]:
        """``allowed_hosts`` as the ``Host`` check compares them (lower case, IPv6 in brackets), or the
        default: the loopback names, and ``host`` unless it is a wildcard bind (0.0.0.0, ::)."""
        if self.allowed_hosts is not None:
            return tuple(_host_pattern(h) for h in self.allowed_hosts)
        bound = () if self.host in _WILDCARD_BINDS else (_host_pattern(self.host),)
        return tuple(dict.fromkeys(LOOPBACK_HOSTS + bound))

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def _int_range(low: int, high: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if type(value) is not int or not low <= value <= high:
            return f"must be a whole number from {low} to {high}"
        return None

    return check


def _check_redis_url(value: Any) -> str | None:
    return None if value is None else check_redis_url(str(value))


def _check_origins(value: Any) -> str | None:
    for origin in value:
        if origin == "*":
            continue
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
            return f"each origin must look like https://example.com[:port], not {origin!r}"
    return None


def _host_pattern(text: str) -> str:
    """One ``allowed_hosts`` entry as the check compares it: lower case, a bare IPv6 address in brackets."""
    host = text.strip().lower()
    with contextlib.suppress(ValueError):
        return f"[{ipaddress.IPv6Address(host.strip('[]'))}]"
    return host


def _is_ipv6(host: str) -> bool:
    if not (host.startswith("[") and host.endswith("]")):
        return False
    try:
        ipaddress.IPv6Address(host[1:-1])
    except ValueError:
        return False
    return True


def _check_hosts(value: Any) -> str | None:
    if value is None:
        return None
    if not value:
        return "must name at least one host (or * for any)"
    for text in value:
        host = _host_pattern(text)
        if host != "*" and not _is_ipv6(host) and _HOST_NAME.fullmatch(host) is None:
            return (f"each entry must be a host name or address without scheme or port (paigow.example.com, "
                    f"*.example.com, 10.0.0.5, [::1]) or *, not {text!r}")
    return None


def _check_networks(value: Any) -> str | None:
    for text in value:
        try:
            ipaddress.ip_network(text, strict=False)
        except ValueError:
            return f"each entry must be an IP address or a CIDR network such as 10.0.0.0/8, not {text!r}"
    return None


def _float_range(low: float, high: float) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if (type(value) not in (int, float) or not math.isfinite(value) or not low < value <= high):
            return f"must be a number over {low:g} and at most {high:g}"
        return None

    return check


def _check_hours(value: Any) -> str | None:
    if type(value) not in (int, float) or not math.isfinite(value) or not 0 <= value <= MAX_TOP_UP_HOURS:
        return f"must be a number from 0 (off) to {MAX_TOP_UP_HOURS:g}"
    return None


def _check_token(value: Any) -> str | None:
    if len(value) < MIN_OPERATOR_TOKEN_LENGTH or any(c.isspace() for c in value):
        return f"must be at least {MIN_OPERATOR_TOKEN_LENGTH} characters without spaces"
    return None


def _check_timezone(value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return "must be an IANA time zone name such as UTC or Europe/London"
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        return "must be an IANA time zone name such as UTC or Europe/London"
    return None


def check_help_notice(value: Any) -> str | None:
    """Why ``value`` cannot be a help notice (None: it can): plain text of at most ``MAX_HELP_NOTICE``
    characters, no control character but line breaks and tabs."""
    if not isinstance(value, str):
        return "must be a text"
    if len(value) > MAX_HELP_NOTICE:
        return f"must be at most {MAX_HELP_NOTICE:,} characters, not {len(value):,}"
    if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in value):
        return "must be plain text: no control characters but line breaks and tabs"
    return None


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in choices else f"must be one of {', '.join(choices)}"

    return check


_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "host": lambda v: None if v and not any(c.isspace() for c in v) else "must be a host name or address",
    "port": _int_range(1, 65_535),
    "redis_url": _check_redis_url,
    "redis_replica_acks": lambda v: None if v is None else _int_range(0, 16)(v),
    "redis_ack_timeout_ms": _int_range(1, 60_000),
    "operator_token": _check_token,
    "allowed_origins": _check_origins,
    "allowed_hosts": _check_hosts,
    "starting_balance_cents": _int_range(0, MAX_CENTS),
    "top_up_hours": _check_hours,
    "top_ups_per_address_per_day": _int_range(1, 1_000_000),
    "grace_seconds": _int_range(1, 3_600),
    "max_frame_bytes": _int_range(256, 16 * 1024 * 1024),
    "messages_per_second": _int_range(1, 10_000),
    "connections_per_player": _int_range(1, 100),
    "event_log_length": _int_range(10, 1_000_000),
    "log_level": _one_of(_LOG_LEVELS),
    "log_format": _one_of(_LOG_FORMATS),
    "starter_tables": _int_range(0, 50),
    "ws_compression": lambda v: None if type(v) is bool else "must be true or false",
    "session_idle_days": _float_range(0, 3_650),
    "guest_retention_days": _float_range(0, 3_650),
    "fresh_guest_minutes": _float_range(0, 10_080),
    "guest_collect_seconds": _int_range(1, 86_400),
    "sign_in_max_wait_minutes": _int_range(1, 1_440),
    "operator_session_hours": _float_range(0, 24 * 30),
    "sessions_per_minute": _int_range(1, 1_000_000),
    "sign_ins_per_minute": _int_range(1, 1_000_000),
    "chat_per_minute": _int_range(1, 10_000),
    "analyses_per_minute": _int_range(1, 1_000_000),
    "analysis_workers": _int_range(1, 64),
    "analysis_queue_per_client": _int_range(1, 1_000),
    "guests_per_minute": _int_range(1, 1_000_000),
    "limit_ipv4_prefix": _int_range(8, 32),
    "limit_ipv6_prefix": _int_range(16, 128),
    "chat_per_address_per_minute": _int_range(1, 100_000),
    "account_settings_per_minute": _int_range(1, 10_000),
    "data_downloads_per_hour": _int_range(1, 3_600),
    "practice_deals_per_minute": _int_range(1, 1_000_000),
    "round_reads_per_minute": _int_range(1, 1_000_000),
    "spectators_per_address": _int_range(1, 100_000),
    "home_tables_per_account": _int_range(0, 1_000),
    "home_tables_max": _int_range(0, 1_000_000),
    "home_idle_close_minutes": _int_range(1, 10_080),
    "home_host_grace_seconds": _int_range(0, 86_400),
    "home_max_bet_cents": _int_range(1, MAX_CENTS),
    "home_max_buy_in_cents": _int_range(1, MAX_CENTS),
    "seat_offer_seconds": _int_range(5, 3_600),
    "invite_lookups_per_minute": _int_range(1, 1_000_000),
    "short_code_lookups_per_minute": _int_range(1, 1_000_000),
    "host_messages_per_minute": _int_range(1, 10_000),
    "trusted_proxies": _check_networks,
    "argon2_memory_kib": _int_range(8, 4 * 1024 * 1024),
    "argon2_time_cost": _int_range(1, 20),
    "argon2_parallelism": _int_range(1, 16),
    "responsible_play": lambda v: None if type(v) is bool else "must be true or false",
    "no_live_aid": lambda v: None if v is None or type(v) is bool else "must be true, false or auto",
    "help_notice": check_help_notice,
    "limits_timezone": _check_timezone,
    "session_limit_pause_minutes": _int_range(0, 525_600),
    "reality_check_minutes": lambda v: (None if type(v) is int and (v == 0 or 5 <= v <= 1440)
                                        else "must be 0 (off) or 5..1440"),
}


def _parse_int(text: str) -> int:
    return int(text.strip().replace("_", ""))


def _parse_bool(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _parse_origins(text: str) -> tuple[str, ...]:
    return tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())


def _parse_list(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _parse_float(text: str) -> float:
    return float(text.strip().replace("_", ""))


_PARSERS: dict[str, Callable[[str], Any]] = {
    "port": _parse_int,
    "redis_url": lambda t: t.strip() or None,
    "redis_replica_acks": lambda t: None if t.strip().lower() == "auto" else _parse_int(t),
    "redis_ack_timeout_ms": _parse_int,
    "data_dir": lambda t: Path(t).expanduser(),
    "allowed_origins": _parse_origins,
    "allowed_hosts": _parse_list,
    "starting_balance_cents": _parse_int,
    "top_up_hours": _parse_float,
    "top_ups_per_address_per_day": _parse_int,
    "grace_seconds": _parse_int,
    "max_frame_bytes": _parse_int,
    "messages_per_second": _parse_int,
    "connections_per_player": _parse_int,
    "event_log_length": _parse_int,
    "log_level": lambda t: t.strip().lower(),
    "log_format": lambda t: _LOG_FORMAT_ALIASES.get(t.strip().lower(), t.strip().lower()),
    "starter_tables": _parse_int,
    "ws_compression": _parse_bool,
    "session_idle_days": _parse_float,
    "guest_retention_days": _parse_float,
    "fresh_guest_minutes": _parse_float,
    "guest_collect_seconds": _parse_int,
    "sign_in_max_wait_minutes": _parse_int,
    "operator_session_hours": _parse_float,
    "sessions_per_minute": _parse_int,
    "sign_ins_per_minute": _parse_int,
    "chat_per_minute": _parse_int,
    "analyses_per_minute": _parse_int,
    "analysis_workers": _parse_int,
    "analysis_queue_per_client": _parse_int,
    "guests_per_minute": _parse_int,
    "limit_ipv4_prefix": _parse_int,
    "limit_ipv6_prefix": _parse_int,
    "chat_per_address_per_minute": _parse_int,
    "account_settings_per_minute": _parse_int,
    "data_downloads_per_hour": _parse_int,
    "practice_deals_per_minute": _parse_int,
    "round_reads_per_minute": _parse_int,
    "spectators_per_address": _parse_int,
    "home_tables_per_account": _parse_int,
    "home_tables_max": _parse_int,
    "home_idle_close_minutes": _parse_int,
    "home_host_grace_seconds": _parse_int,
    "home_max_bet_cents": _parse_int,
    "home_max_buy_in_cents": _parse_int,
    "seat_offer_seconds": _parse_int,
    "invite_lookups_per_minute": _parse_int,
    "short_code_lookups_per_minute": _parse_int,
    "host_messages_per_minute": _parse_int,
    "trusted_proxies": _parse_list,
    "argon2_memory_kib": _parse_int,
    "argon2_time_cost": _parse_int,
    "argon2_parallelism": _parse_int,
    "responsible_play": _parse_bool,
    "no_live_aid": lambda t: None if t.strip().lower() in ("", "auto") else _parse_bool(t),
    "session_limit_pause_minutes": _parse_int,
    "reality_check_minutes": _parse_int,
}

SETTING_NAMES: tuple[str, ...] = tuple(
    f.name for f in fields(Settings) if f.name != "operator_token_generated")


def env_name(name: str) -> str:
    return ENV_PREFIX + name.upper()


def option_name(name: str) -> str:
    return "--" + name.replace("_", "-")


def load_settings(cli: Mapping[str, str | None], env: Mapping[str, str]) -> Settings:
    """Settings from command-line texts (``None`` = not given) over ``PAIGOW_*`` environment texts."""
    unknown = sorted(k for k in env if k.startswith(ENV_PREFIX) and k[len(ENV_PREFIX):].lower()
                     not in SETTING_NAMES)
    if unknown:
        raise SettingsError(f"unknown environment variable {unknown[0]}; known: "
                            + ", ".join(env_name(n) for n in SETTING_NAMES))
    values: dict[str, Any] = {}
    for name in SETTING_NAMES:
        given = cli.get(name)
        source = option_name(name) if given is not None else env_name(name)
        text = given if given is not None else env.get(env_name(name))
        if text is None:
            continue
        try:
            values[name] = _PARSERS.get(name, str)(text)
        except ValueError:
            kind = ("true or false" if name in ("ws_compression", "responsible_play")
                    else "true, false or auto" if name == "no_live_aid"
                    else "a whole number or auto" if name == "redis_replica_acks"
                    else "a number" if _PARSERS.get(name) is _parse_float else "a whole number")
            raise SettingsError(f"{source}={text!r}: must be {kind}") from None
        message = _CHECKS[name](values[name]) if name in _CHECKS else None
        if message is not None:
            raise SettingsError(f"{source}={text!r}: {message}")
    if "operator_token" not in values:
        values["operator_token_generated"] = True
    return Settings(**values)
