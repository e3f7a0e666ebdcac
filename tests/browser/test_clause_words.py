"""The words of a House Way clause (docs/protocol.md, "The words of a House Way clause"): the page reads the
server's English clause text back into its parts (hand_eval.js ``clauseWords``) and words each from the
catalog. Every clause of the three House Ways, with each of its groups and hows, reads back as the server
wrote it in English; a text the grammar does not know says only that the House Way set the hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from paigow.rules.house_way import BallysClause, FoxwoodsClause, HouseWayClause
from paigow.rules.house_way_text import pair_group

pytestmark = pytest.mark.browser

SPLITTING = ("TWO_PAIR", "THREE_PAIR", "FOUR_OF_A_KIND")
GROUPS = sorted({pair_group(rank) for rank in range(2, 15)})


def clause_texts() -> list[str]:
    """Every text clause_text can write, for every clause of every House Way."""
    texts: list[str] = []
    for enum in (HouseWayClause, FoxwoodsClause, BallysClause):
        for clause in enum:
            words = clause.name.lower().replace("_", " ")
            if clause.name not in SPLITTING:
                texts.append(words)
                continue
            for how in ("split", "kept together"):
                texts.append(f"{words}: {how}")
                if clause.name == "TWO_PAIR":
                    texts.extend(f"{words}, {a} + {b}: {how}" for a in GROUPS for b in GROUPS)
    return sorted(set(texts))


def test_every_clause_reads_back_as_the_server_wrote_it(module_page: Page) -> None:
    texts = clause_texts()
    words = module_page.evaluate("""async (texts) => {
      const h = await import('/js/hand_eval.js');
      return texts.map((x) => h.clauseWords(x));
    }""", texts)
    assert words == texts
    assert not module_page.evaluate("[...window.__i18n.missing].filter((k) => k.startsWith('game:'))")


def test_a_clause_the_page_does_not_know_is_said_as_the_house_ways(module_page: Page) -> None:
    words = module_page.evaluate("""async () => {
      const h = await import('/js/hand_eval.js');
      const texts = ['a new clause: split', 'two pair, tiny + high: split', ''];
      return texts.map((x) => h.clauseWords(x));
    }""")
    assert words == ["set by the House Way", "set by the House Way", ""]
