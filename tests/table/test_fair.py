"""paigow.fair: commitment, deterministic shuffle and dice, the deal by position, verification."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from paigow import fair
from paigow.rules.cards import DECK

SEED = bytes(range(32))


def test_commitment_is_sha256_of_the_seed() -> None:
    assert fair.new_commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_short_or_non_hex_seed_is_refused() -> None:
    with pytest.raises(fair.FairError, match="at least 16 bytes"):
        fair.deck_order(b"short", "r")
    with pytest.raises(fair.FairError, match="not hexadecimal"):
        fair.seed_from_hex("xyz")


def test_deck_is_a_deterministic_permutation_per_round() -> None:
    a = fair.deck_order(SEED, "t-1")
    assert a == fair.deck_order(SEED, "t-1")
    assert sorted(c.index for c in a) == list(range(53))
    assert a != fair.deck_order(SEED, "t-2")
    assert a != fair.deck_order(bytes(32), "t-1")
    assert a != DECK


def test_stream_matches_the_documented_construction() -> None:
    # The first dice word is the first 4 bytes of HMAC(seed, b"dice\0" + round_id + b"\0" + 0u64).
    digest = hmac.new(SEED, b"dice\x00t-1\x00" + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    words = [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4)]
    expected = [w % 6 + 1 for w in words if w < 2**32 - 2**32 % 6][:3]
    assert fair.roll_dice(SEED, "t-1") == tuple(expected)


@pytest.mark.parametrize(("banker", "total", "first"), [
    (0, 8, 0), (0, 15, 0), (0, 14, 6), (0, 3, 2), (0, 18, 3), (3, 8, 3), (3, 15, 3), (2, 14, 1), (6, 9, 0),
])
def test_first_position_counts_from_the_banker_as_one(banker: int, total: int, first: int) -> None:
    assert fair.first_position(banker, total) == first


def test_first_position_rejects_bad_values() -> None:
    with pytest.raises(fair.FairError, match=r"outside 3\.\.18"):
        fair.first_position(0, 2)
    with pytest.raises(fair.FairError, match=r"outside 0\.\.6"):
        fair.first_position(7, 10)


def test_deal_gives_seven_packets_counterclockwise_from_the_first_position() -> None:
    d = fair.deal(SEED, "t-9", 4)
    deck = fair.deck_order(SEED, "t-9")
    assert d.dice == fair.roll_dice(SEED, "t-9")
    assert d.first_position == (4 + sum(d.dice) - 1) % 7
    for k in range(7):
        assert d.hands[(d.first_position + k) % 7] == deck[7 * k:7 * k + 7]
    assert d.discards == deck[49:]
    dealt = [c.index for h in d.hands for c in h] + [c.index for c in d.discards]
    assert sorted(dealt) == list(range(53))
    assert len(d.discards) == 4


def test_verify_accepts_the_true_values_and_names_each_mismatch() -> None:
    d = fair.deal(SEED, "t-3", 2)
    good = fair.verify(SEED, "t-3", commitment=fair.new_commitment(SEED), banker_position=2, dice=d.dice,
                       first=d.first_position, hands={p: d.hands[p] for p in (0, 2, 5)})
    assert good.ok
    assert good.problems == ()
    other = fair.deal(bytes(32), "t-3", 2)
    bad = fair.verify(SEED, "t-3", commitment="00" * 32, banker_position=2,
                      dice=(7, 7, 7), first=(d.first_position + 1) % 7, hands={5: other.hands[5]})
    assert not bad.ok
    assert len(bad.problems) == 4
    assert "commitment" in bad.problems[0]
    assert "dice (7, 7, 7)" in bad.problems[1]
    assert "position 5" in bad.problems[3]
