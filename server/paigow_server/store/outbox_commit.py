"""The commit on a Redis Cluster (``TableRepo(outbox=True)`` runs it on one Redis, for its tests).

The script runs on the table's keys only (one hash slot: ``keys``, docs/cluster.md). A buy-in first takes
its money from the balance into a hold (``holds``), which the script consumes (refusing a voided one); a
refused commit releases its holds. The script appends what the commit causes outside the table as one entry
of the table's outbox (``CommitWrites``), delivered afterwards to the ``{global}`` slot (``outbox``, exactly
once), with the deadline index; a commit with an outbox entry is published only then, so a viewer shown it
finds its money and history where they go (one without is published by the script). What a dead process
leaves (an entry, a hold, an index entry) is finished by ``TableRepo.sweep``. The hands a commit deals are
put in the live-hand index (``live_hands``) before the script, so the index stands before anyone may see
them (a refused commit leaves them there: ``live_hands``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from redis.asyncio import Redis
from redis.exceptions import RedisError

from paigow.ledger.accounts import EntryKind, LedgerEntry, hold_account
from paigow.ledger.effects import Effects
from paigow.protocol.projection import ViewerUpdate
from paigow.table.events import Event
from paigow.table.state import TableState
from paigow_server.store import keys
from paigow_server.store.codec import commit_to_json, state_to_json
from paigow_server.store.commit_result import CommitResult, deadline_arg, result_of
from paigow_server.store.confirmed import CONFIRM_SCRIPT, SAVE_CONFIRMED_LUA
from paigow_server.store.direct_commit import compact as _compact
from paigow_server.store.direct_commit import entry_json as _entry_json
from paigow_server.store.direct_commit import record_json as _record_json
from paigow_server.store.durability import Durability, OutcomeUnknown, confirmed_eval
from paigow_server.store.history import rounds_kept
from paigow_server.store.holds import Hold, Holds, HoldUnconfirmed
from paigow_server.store.live_hands import LiveHands
from paigow_server.store.outbox import Outbox, OutboxEntry
from paigow_server.store.seating_effects import SeatingEffect

__all__ = ["REQUESTS_KEPT", "CommitWrites", "OutboxCommits", "writes_of"]

log = logging.getLogger("paigow_server.tables")

REQUESTS_KEPT = 1_000
"""Request ids of forwarded commands remembered per table (each with the version its commit wrote)."""

# Every key in the table's slot ({table_id}): the commit is one atomic script on any topology.
# KEYS: 1 table hash, 2 event log, 3 fence counter, 4 the table's request ids, 5 the table's rounds list,
#       6 outbox, 7 outbox seq, 8 hold marks
# ARGV: 1 expected version, 2 new version, 3 state JSON, 4 commit JSON, 5 log length, 6 channel,
#       7 fencing token ('' = none), 8 next deadline of the new state ('' = none), 9 the command's
#       request id ('' = none), 10 request ids kept, 11 outbox entry without its seq ('' = none),
#       12 JSON list of settled round records for the table's list, 13 rounds kept, 14 JSON list of the
#       hold ids the commit consumes, 15 '1' under ``Durability`` (keep the confirmed state:
#       ``confirmed.SAVE_CONFIRMED_LUA``), else ''
#       (channel '' = publish nothing: the caller publishes once replicas confirmed the commit)
# Answers {'OK', seq of the outbox entry (0: none)} or {reason, 0}.
_COMMIT = SAVE_CONFIRMED_LUA + """
local current = redis.call('HGET', KEYS[1], 'version')
if not current or current ~= ARGV[1] then return {'CONFLICT', 0} end
if ARGV[7] ~= '' then
  if (redis.call('GET', KEYS[3]) or '0') ~= ARGV[7] then return {'FENCED', 0} end
end
if ARGV[9] ~= '' and redis.call('ZSCORE', KEYS[4], ARGV[9]) then return {'DUPLICATE', 0} end
local holds = cjson.decode(ARGV[14])
for _, hold_id in ipairs(holds) do
  if redis.call('HEXISTS', KEYS[8], hold_id) == 1 then return {'HOLD_VOID', 0} end
end
for _, hold_id in ipairs(holds) do redis.call('HSET', KEYS[8], hold_id, 'consumed') end
if ARGV[15] == '1' then save_confirmed(KEYS[1], KEYS[7], current, #cjson.decode(ARGV[12])) end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'version', ARGV[2], 'deadline', ARGV[8])
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[5]), -1)
for _, record in ipairs(cjson.decode(ARGV[12])) do
  redis.call('LPUSH', KEYS[5], record)
  redis.call('LTRIM', KEYS[5], 0, tonumber(ARGV[13]) - 1)
end
local seq = 0
if ARGV[11] ~= '' then
  seq = redis.call('INCR', KEYS[7])
  redis.call('RPUSH', KEYS[6], '{"seq":' .. seq .. ',' .. ARGV[11])
end
if ARGV[9] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[9])
  redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -tonumber(ARGV[10]) - 1)
end
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[6], ARGV[4]) end
return {'OK', seq}
"""


@dataclass(frozen=True, slots=True)
class CommitWrites:
    """What a commit writes beside the state: the outbox entry for the ``{global}`` slot and the settled
    rounds' records for the table's own list (both JSON texts, made once per commit)."""

    outbox: OutboxEntry
    table_rounds: list[str]
    buy_ins: list[LedgerEntry]
    """The buy-ins (player -> seat): each needs a hold before the commit (``holds``)."""


def writes_of(table_id: str, effects: Effects, hold_ids: Sequence[str] = (),
              seating: Sequence[SeatingEffect] = ()) -> CommitWrites:
    """The effects (and the ``seating`` effects) as the commit writes them. ``hold_ids``: the hold of each
    buy-in (``buy_ins`` order); each buy-in's ledger entry then moves the money from its hold to the seat."""
    outbox = OutboxEntry(table_id, house_cents=effects.house_delta_cents, holds=list(hold_ids),
                         seating=list(seating))
    buy_ins = [entry for entry in effects.ledger if entry.kind is EntryKind.BUY_IN]
    held = iter(hold_ids)
    for entry in effects.ledger:
        if entry.kind is EntryKind.BUY_IN:
            hold_id = next(held, None)
            if hold_id is not None:
                entry = replace(entry, from_account=hold_account(hold_id))
        elif entry.kind is EntryKind.CASH_OUT and entry.player_id is not None:
            outbox.credits.append((entry.player_id, entry.amount_cents))
        outbox.ledger.append(entry.to_json())
    records: dict[int, str] = {}
    for history in effects.history:
        outbox.history.append((history.player_id, _entry_json(history.record, records)))
    for record in effects.rounds:
        outbox.rounds.append(_entry_json(record, records))
    table_rounds = [_record_json(record["round"], records) for record in effects.rounds
                    if record["status"] == "settled"]  # a void is no round result: not in the table's list
    return CommitWrites(outbox, table_rounds, buy_ins)


class OutboxCommits:
    """Commits through holds and the table's outbox (see the module)."""

    def __init__(self, redis: Redis, *, durability: Durability, holds: Holds, outbox: Outbox,
                 log_length: int, set_deadline: Callable[[str, int | str], Awaitable[None]]) -> None:
        self.redis = redis
        self.durability = durability
        self.holds = holds
        self.outbox = outbox
        self.log_length = log_length
        self._set_deadline = set_deadline
        self._commit = redis.register_script(_COMMIT)
        self.live_hands = LiveHands(redis)

    async def commit(self, before: TableState, after: TableState, events: Sequence[Event], effects: Effects,
                     seating: Sequence[SeatingEffect], *, fence: int | None, now_ms: int,
                     request_id: str | None, updates: Mapping[str, ViewerUpdate] | None,
                     views: Mapping[str, str] | None) -> CommitResult:
        """``TableRepo.commit`` on a Cluster: the holds, the script, then the outbox entry's delivery."""
        now = now_ms
        table_id = after.table_id
        holds: list[Hold] = []
        live = [e for e in seating if e[0] == "live"]  # written now, not by the outbox entry: before the
        seating = [e for e in seating if e[0] != "live"]  # state is written, and so before it is seen
        writes = writes_of(table_id, effects, seating=seating)
        for buy_in in writes.buy_ins:
            try:
                hold = None if buy_in.player_id is None else await self.holds.reserve(  # at the real time:
                    buy_in.player_id, table_id, buy_in.amount_cents)  # the sweep's 30 s are wall-clock
            except HoldUnconfirmed as exc:
                log.warning("a hold for %s at %s was not confirmed by a replica: %s", buy_in.player_id,
                            table_id, exc)
                await self._release_quietly(holds)
                return CommitResult.UNCONFIRMED
            if hold is None:
                await self._release(holds)
                return CommitResult.INSUFFICIENT_BALANCE
            holds.append(hold)
        if holds:
            writes = writes_of(table_id, effects, [h.hold_id for h in holds], seating)
        try:
            await self.live_hands.mark(live)
            result, seq, commit_json = await self._write(before, after, events, writes, fence=fence,
                                                         request_id=request_id, updates=updates, views=views)
        except BaseException:
            await self._release_quietly(holds)  # the commit may have run: a void then refunds nothing
            raise
        if result is not CommitResult.OK:
            await self._release_quietly(holds)
            return result
        await self._after(before, after, writes, seq, commit_json, now)
        return result

    async def _write(self, before: TableState, after: TableState, events: Sequence[Event],
                     writes: CommitWrites, *, fence: int | None, request_id: str | None,
                     updates: Mapping[str, ViewerUpdate] | None,
                     views: Mapping[str, str] | None) -> tuple[CommitResult, int, str]:
        table_id = after.table_id
        commit_json = commit_to_json(after.version, events, updates, views=views)
        confirm = self.durability.replica_acks > 0
        # A commit with consequences elsewhere is published once they are delivered (``_after``): a viewer
        # shown a cash-out finds the chips in the balance, a settlement in the history.
        channel = keys.table_channel(table_id) if writes.outbox.empty() else ""
        script_keys = [keys.table(table_id), keys.table_log(table_id), keys.table_fence(table_id),
                       keys.table_requests(table_id), keys.table_rounds(table_id),
                       keys.table_outbox(table_id),
                       keys.table_outbox_seq(table_id), keys.table_holds(table_id)]
        script_args: list[str | int] = [
            before.version, after.version, state_to_json(after), commit_json, self.log_length,
            "" if confirm else channel, "" if fence is None else fence, deadline_arg(after),
            request_id or "", REQUESTS_KEPT, "" if writes.outbox.empty() else writes.outbox.body_json(),
            _compact(writes.table_rounds), rounds_kept(after), _compact(writes.outbox.holds),
            "1" if confirm else ""]
        if not confirm:
            reply = await self._commit(keys=script_keys, args=script_args)
            return result_of(reply[0]), int(reply[1]), commit_json
        try:
            reply, acked = await confirmed_eval(
                self.redis, self._commit, script_keys, script_args, self.durability,
                publish=(channel, commit_json) if channel else None,
                confirm=("EVAL", CONFIRM_SCRIPT, 2, keys.table(table_id), keys.table_outbox_seq(table_id),
                         after.version))
        except OutcomeUnknown:
            return CommitResult.UNCONFIRMED, 0, commit_json
        result = result_of(reply[0])
        if result is CommitResult.OK and acked < self.durability.replica_acks:
            return CommitResult.UNCONFIRMED, 0, commit_json
        return result, int(reply[1]), commit_json

    async def _after(self, before: TableState, after: TableState, writes: CommitWrites, seq: int,
                     commit_json: str, now_ms: int) -> None:
        """What follows a written commit outside the table's slot: its deadline index entry (when it
        changed), its outbox entry's delivery, then (a commit with an outbox entry) its publication.
        The index and the delivery may fail without undoing the commit: the sweep delivers the outbox and
        repairs the index (``sweep``); the commit is published all the same."""
        table_id = after.table_id
        deadline = deadline_arg(after)
        if deadline != deadline_arg(before):
            try:
                await self._set_deadline(table_id, deadline)
            except (RedisError, OSError) as exc:
                log.warning("deadline index of %s not written after version %d: %s (the sweep repairs "
                            "it)", table_id, after.version, exc)
        if not seq:
            return
        publish: tuple[str, str] | None = (keys.table_channel(table_id), commit_json)
        try:
            await self.outbox.after_commit(table_id, f'{{"seq":{seq},{writes.outbox.body_json()}',
                                           now_ms=now_ms, publish=publish)
            publish = None
        except (RedisError, OSError) as exc:
            log.warning("outbox entry %d of %s not delivered after version %d: %s (the sweep delivers it)",
                        seq, table_id, after.version, exc)
        if publish is not None:
            try:
                await self.redis.publish(*publish)
            except (RedisError, OSError) as exc:  # the feeds' version check catches up
                log.warning("commit of %s version %d not published: %s", table_id, after.version, exc)

    async def _release(self, holds: Sequence[Hold]) -> None:
        for hold in holds:
            await self.holds.release(hold)

    async def _release_quietly(self, holds: Sequence[Hold]) -> None:
        try:
            await self._release(holds)
        except (RedisError, OSError) as exc:
            log.warning("holds %s not released now (the sweep releases them): %s",
                        [h.hold_id for h in holds], exc)
