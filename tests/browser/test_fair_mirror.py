"""The in-browser fairness check (client_web/js/fair.js, sha256.js) recomputes exactly what ``paigow.fair``
deals: commitment, dice, first position, the seven hands and the four discards."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from playwright.sync_api import Page

from paigow.fair import deal, new_commitment

pytestmark = pytest.mark.browser

SEEDS = [bytes(range(32)), hashlib.sha256(b"paigow").digest(), b"\xff" * 16]


@pytest.mark.parametrize("seed", SEEDS, ids=["counting", "hashed", "ones"])
@pytest.mark.parametrize("banker", [0, 4])
def test_browser_deal_equals_python_deal(module_page: Page, seed: bytes, banker: int) -> None:
    round_id = f"r-{banker}-ünï"
    js = module_page.evaluate(
        """async ([seed, roundId, banker]) => {
            const f = await import('/js/fair.js');
            const v = await f.verifyRound(seed, roundId, banker, {});
            return {commitment: v.commitment, dice: v.deal.dice, first: v.deal.first,
                    hands: v.deal.hands.map((h) => h.map((c) => c.text)),
                    discards: v.deal.discards.map((c) => c.text)};
        }""",
        [seed.hex(), round_id, banker],
    )
    d = deal(seed, round_id, banker)
    assert js["commitment"] == new_commitment(seed)
    assert tuple(js["dice"]) == d.dice
    assert js["first"] == d.first_position
    assert js["hands"] == [[str(c) for c in h] for h in d.hands]
    assert js["discards"] == [str(c) for c in d.discards]


def test_verify_reports_each_disagreement(module_page: Page) -> None:
    seed = SEEDS[1]
    d = deal(seed, "r1", 2)
    problems = module_page.evaluate(
        """async ([seed, dice, first, hand]) => {
            const f = await import('/js/fair.js');
            const c = await import('/js/cards.js');
            const s = await import('/js/sha256.js');
            const commitment = await f.commitmentOf(s.hexToBytes(seed));
            const good = await f.verifyRound(seed, 'r1', 2,
                {commitment, dice, first, hands: {3: hand.map(c.parseCard)}});
            const bad = await f.verifyRound(seed, 'r1', 2,
                {commitment: '00', dice: [1, 1, 1], first: (first + 1) % 7,
                 hands: {3: hand.slice(1).concat(['JK']).map(c.parseCard)}});
            return [good.problems, bad.problems];
        }""",
        [seed.hex(), list(d.dice), d.first_position, [str(c) for c in d.hands[3]]],
    )
    assert problems[0] == []
    bad = problems[1]
    assert any("commitment" in p for p in bad)
    assert any("dice" in p for p in bad)
    assert any("position" in p for p in bad)
    if "JK" not in [str(c) for c in d.hands[3]]:
        assert any("position 3" in p for p in bad)


def test_pure_js_sha256_and_hmac_fallback(module_page: Page) -> None:
    messages = [b"", b"abc", bytes(range(55)), bytes(range(56)), bytes(range(64)), bytes(range(200)) * 3]
    key = bytes(range(70))  # longer than a block: hashed first
    js = module_page.evaluate(
        """async ([messages, key]) => {
            const s = await import('/js/sha256.js');
            return messages.map((m) => [s.bytesToHex(s.sha256Sync(s.hexToBytes(m))),
                                        s.bytesToHex(s.hmacSync(s.hexToBytes(key), s.hexToBytes(m)))]);
        }""",
        [[m.hex() for m in messages], key.hex()],
    )
    expected = [[hashlib.sha256(m).hexdigest(), hmac.new(key, m, hashlib.sha256).hexdigest()]
                for m in messages]
    assert js == expected
