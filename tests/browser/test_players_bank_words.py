"""The words of a home game whose players bank in turn (issue 31, "Banking among friends"): a declined or
timed-out bank offer passes on (never "the house banks"), a round nobody banked says so, and the table's
tags say the players bank in turn and what the commission is (none: no "0% commission"; 5% at a home
game: taken as commission, not by a house). Checked on explain.js and variant_tags.js themselves."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

WORDS_JS = """async () => {
  const x = await import('/js/explain.js');
  const v = await import('/js/variant_tags.js');
  const name = () => 'Maya';
  const view = (rules) => ({ rules, seats: [], phase: 'bank_offer', round: null,
    home: { host_player_id: 'p_ann' } });
  const said = (rules, ev, me = 'p_ann') => x.describeEvents([ev], view(rules), me, name).map((s) => s.text);
  const tags = (t) => v.variantTags(t).map((tag) => [tag.key, tag.text, tag.title]);
  return {
    passed: said({ players_bank_in_turn: true },
      { kind: 'bank_declined', player_id: 'p_maya', timed_out: false }),
    passedMine: said({ players_bank_in_turn: true },
      { kind: 'bank_declined', player_id: 'p_ann', timed_out: true }),
    houseBanks: said({}, { kind: 'bank_declined', player_id: 'p_maya', timed_out: false }),
    noBanker: x.voidText('no_banker'),
    otherVoid: x.voidText('operator: dealer error'),
    closedBeforeBets: x.describeEvents([{ kind: 'round_voided', round_id: 'h_x-3', reason: 'the table closed',
      returned_bets: [], returned_bonuses: [] }], view({}), 'p_ann', name).map((s) => s.text),
    closedWithBets: x.describeEvents([{ kind: 'round_voided', round_id: 'h_x-3', reason: 'the table closed',
      returned_bets: [{ position: 2, player_id: 'p_maya', amount_cents: 500 }] }], view({}), 'p_ann', name)
      .map((s) => s.text),
    friends: tags({ commission_form: 'commissioned', commission_bps: 0, player_banking: true,
      players_bank_in_turn: true }),
    fivePercentHome: tags({ commission_form: 'commissioned', commission_bps: 500, private: true }),
    casino: tags({ commission_form: 'commissioned', commission_bps: 500 }),
  };
}"""


def test_players_banking_in_turn_are_told_the_bank_passes_on_and_the_commission_in_plain_words(
        module_page: Page) -> None:
    words = module_page.evaluate(WORDS_JS)
    assert words["passed"] == ["Maya declined the bank: it passes on."]
    assert words["passedMine"] == ["Time ran out on the bank offer: the bank passes on."]
    assert words["houseBanks"] == ["Maya declined the bank: the house banks."]
    assert words["noBanker"] == "Nobody could or would bank this round: the bank passes on."
    assert words["otherVoid"] == "The round was voided (operator: dealer error): every bet was returned."
    assert words["closedBeforeBets"] == ["The round was voided (the table closed) before any bet was made."]
    assert words["closedWithBets"] == ["The round was voided (the table closed): every bet was returned."]
    friends = {key: (text, title) for key, text, title in words["friends"]}
    assert friends["commission"] == ("No commission",
                                     "A winning bet is paid even money: no commission is taken.")
    assert friends["players_bank"][0] == "Players bank in turn"
    assert "house dealer plays no hand" in friends["players_bank"][1]
    home = {key: title for key, _, title in words["fivePercentHome"]}
    assert home["commission"] == "5% of every winning bet is taken as commission."
    casino = {key: title for key, _, title in words["casino"]}
    assert casino["commission"] == "The house takes 5% of every winning bet: the classic game."
    assert "players_bank" not in casino
