"""Every five-card hand against the reference evaluator. Not a test: ~5-10 CPU minutes per wheel setting.

Run ``python tests/rules/reference_exhaustive.py second`` (or ``low``). For all 2,869,685 hands it checks that
``hand_value`` and the reference evaluator of ``test_hand_value_reference.py`` agree on category and
tie-break ranks, that equal reference strengths have equal keys and that keys order like the reference,
then prints the category counts used in ``test_hand_counts.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from itertools import combinations, pairwise
from pathlib import Path

from paigow.rules.cards import DECK
from paigow.rules.hand_value import HandCategory, high_key, high_value
from paigow.rules.house_rules import HouseRules, WheelRank


def main(wheel: WheelRank) -> int:
    spec = importlib.util.spec_from_file_location("reference", Path(__file__).with_name(
        "test_hand_value_reference.py"))
    assert spec is not None
    assert spec.loader is not None
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    rules = HouseRules(wheel=wheel)
    counts: Counter[int] = Counter()
    bad = 0
    key_of: dict[object, int] = {}
    for combo in combinations(range(53), 5):
        category, ranks, strength = ref.reference([DECK[i] for i in combo], wheel)
        key = high_key(combo, rules)
        value = high_value(key)
        counts[category] += 1
        if (value.category, value.ranks) != (category, ranks) or key_of.setdefault(strength, key) != key:
            bad += 1
            print("mismatch:", [str(DECK[i]) for i in combo], value, category, ranks)
    ordered = sorted(key_of.items())
    bad += sum(1 for (_, k1), (_, k2) in pairwise(ordered) if k1 >= k2)
    print(f"wheel={wheel}: {bad} mismatches, {len(ordered)} classes of equal hands")
    for category in sorted(counts, reverse=True):
        print(f"{HandCategory(category).name:16} {counts[category]:>9,}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(WheelRank(sys.argv[1] if len(sys.argv) > 1 else "second")))
