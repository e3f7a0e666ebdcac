"""Writes ``analysis_exact.json`` beside this file: ``paigow analyze --exact --json CARDS --house-way W``
for each hand below (a few of every shape, with and without the joker), as the exact reference that
``tests/rules/test_analysis.py`` checks the Monte Carlo against.

Run from the repository root: ``python tests/rules/data/make_analysis_exact.py`` (about a second a hand).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HANDS: list[tuple[str, str, str]] = [
    # (shape, cards, House Way)
    ("no pair", "As Kd Qh 9c 7d 5s 2h", "trump_plaza"),
    ("no pair, joker", "JK Kd Qh 9c 7d 5s 2h", "trump_plaza"),
    ("one pair", "8s 8d Kh Qc 7d 4s 2h", "trump_plaza"),
    ("one pair, joker", "JK As Kh Qc 7d 4s 2h", "trump_plaza"),
    ("two pair", "Js Jd 4h 4c Ad 9s 2h", "trump_plaza"),
    ("two pair, joker", "JK Ad 9h 9c 5d 3s 2h", "trump_plaza"),
    ("three pair", "Ks Kd 8h 8c 5d 5s 2h", "trump_plaza"),
    ("three pair, joker", "JK Ad Qh Qc 6d 6s 2h", "trump_plaza"),
    ("trips", "7s 7d 7h Kc Jd 4s 2h", "trump_plaza"),
    ("trips, joker", "JK As Ad Kc Jd 4s 2h", "trump_plaza"),
    ("straight", "9s 8d 7h 6c 5d Ks 2h", "trump_plaza"),
    ("straight, joker", "JK 8d 7h 6c 5d Ks 2h", "trump_plaza"),
    ("flush", "Ah Jh 8h 5h 3h Kc 9d", "trump_plaza"),
    ("flush, joker", "JK Jh 8h 5h 3h Kc 9d", "trump_plaza"),
    ("full house", "Qs Qd Qh 6c 6d As 3h", "trump_plaza"),
    ("full house, joker", "JK As Ad 6c 6d Ks 3h", "trump_plaza"),
    ("quads", "9s 9d 9h 9c Ad Ks 2h", "trump_plaza"),
    ("quads, joker", "JK As Ad Ac Kd 7s 2h", "trump_plaza"),
    ("straight flush", "9h 8h 7h 6h 5h Kc 2d", "trump_plaza"),
    ("five aces", "JK As Ad Ah Ac Kd 2h", "trump_plaza"),
    ("two pair", "Js Jd 4h 4c Ad 9s 2h", "foxwoods"),
    ("one pair, straight", "Kc Kd Qh Js Td 9c 3h", "foxwoods"),
    ("two pair", "Ts Td 6h 6c Kd 9s 2h", "ballys_ac"),
    ("quads", "Qs Qd Qh Qc Kd 7s 2h", "ballys_ac"),
]


def main() -> None:
    hands = []
    for shape, cards, way in HANDS:
        command = [sys.executable, "-m", "paigow_server.cli", "analyze", "--exact", "--json", cards,
                   "--house-way", way]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        data = json.loads(out)
        del data["seconds"]
        hands.append({"shape": shape, "command": f"paigow analyze --exact --json {cards!r} --house-way {way}",
                      **data})
        print(f"{shape:22} {cards:24} {way:12} best EV {data['best']['ev']:+.4f}", file=sys.stderr)
    path = Path(__file__).with_name("analysis_exact.json")
    path.write_text(json.dumps({"made_by": "python tests/rules/data/make_analysis_exact.py",
                                "hands": hands}, indent=1) + "\n")


if __name__ == "__main__":
    main()
