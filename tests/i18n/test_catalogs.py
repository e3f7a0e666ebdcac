"""The language catalogs (docs/languages.md): each language has every key of the English catalog and no other,
with its plural forms by its own plural rules and no placeholder the English does not have; every English key
is used by the page and every key the page asks for exists; each glossary's terms are what the catalogs say.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "client_web"
I18N = WEB / "i18n"
GLOSSARY = ROOT / "docs" / "glossary"
LIST = json.loads((I18N / "languages.json").read_text(encoding="utf-8"))["languages"]
CODES = [entry["code"] for entry in LIST]
OTHERS = [code for code in CODES if code != "en"]
PLURALS = {entry["code"]: entry["plurals"] for entry in LIST}
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
PLACEHOLDER = re.compile(r"\{\{\s*([\w.]+)[^}]*\}\}|\$t\(([^)]*)\)")


def catalog(code: str) -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads((I18N / f"{code}.json").read_text(encoding="utf-8"))
    return data


def plural_heads(cat: dict[str, dict[str, str]]) -> set[str]:
    """`ns:head` of every counted key: English gives each one a `head_other` form."""
    return {f"{ns}:{key.removesuffix('_other')}" for ns, keys in cat.items() for key in keys
            if key.endswith("_other")}


def base(key: str, ns: str) -> str:
    """A key without its plural suffix (`seats_one` -> `seats`); a key like `choose_two` whose head has no
    `_other` form in English is not counted and stays as it is."""
    head, _, tail = key.rpartition("_")
    return head if head and tail in CATEGORIES and f"{ns}:{head}" in PLURAL_HEADS else key


def bases(cat: dict[str, dict[str, str]]) -> dict[str, set[str]]:
    """Every key as `ns:base`, with the plural forms it has (empty for a key without forms)."""
    out: dict[str, set[str]] = {}
    for ns, keys in cat.items():
        for key in keys:
            b = base(key, ns)
            forms = out.setdefault(f"{ns}:{b}", set())
            if b != key:
                forms.add(key.rpartition("_")[2])
    return out


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


ENGLISH = catalog("en")
PLURAL_HEADS = plural_heads(ENGLISH)
ENGLISH_BASES = bases(ENGLISH)


def test_the_list_names_each_language_once_with_a_catalog_and_a_glossary() -> None:
    assert CODES[0] == "en"
    assert len(set(CODES)) == len(CODES)
    for entry in LIST:
        assert entry["name"].strip(), entry
        assert set(entry["plurals"]) <= set(CATEGORIES), entry
        assert "other" in entry["plurals"], entry
        assert (I18N / f"{entry['code']}.json").is_file(), entry["code"]
        if entry["code"] != "en":
            assert (GLOSSARY / f"{entry['code']}.json").is_file(), entry["code"]
    assert "en-XA" not in CODES  # the pseudo-locale is the tests', never the menu's


def test_english_plural_keys_have_each_english_form() -> None:
    for key, forms in ENGLISH_BASES.items():
        assert not forms or forms == set(PLURALS["en"]), (key, forms)


@pytest.mark.parametrize("code", OTHERS)
def test_a_catalog_has_every_english_key_and_no_other(code: str) -> None:
    theirs = bases(catalog(code))
    assert sorted(set(ENGLISH_BASES) - set(theirs)) == [], f"{code} lacks these keys"
    assert sorted(set(theirs) - set(ENGLISH_BASES)) == [], f"{code} has keys English does not"
    for key, forms in ENGLISH_BASES.items():
        want = set(PLURALS[code]) if forms else set()
        assert theirs[key] == want, f"{code} {key}: forms {sorted(theirs[key])}, rules need {sorted(want)}"


@pytest.mark.parametrize("code", OTHERS)
def test_a_catalog_has_no_placeholder_the_english_does_not(code: str) -> None:
    english_by_base: dict[str, set[str]] = {}
    for ns, keys in ENGLISH.items():
        for key, text in keys.items():
            english_by_base.setdefault(f"{ns}:{base(key, ns)}", set()).update(placeholders(text))
    for ns, keys in catalog(code).items():
        for key, text in keys.items():
            assert isinstance(text, str), f"{code} {ns}:{key} is not a string"
            assert text.strip(), f"{code} {ns}:{key} is empty"
            extra = placeholders(text) - english_by_base.get(f"{ns}:{base(key, ns)}", set())
            assert not extra, f"{code} {ns}:{key}: placeholders not in English: {sorted(extra)}"


def page_sources() -> Iterator[tuple[Path, str]]:
    for path in sorted(WEB.rglob("*")):
        if path.suffix in {".js", ".html"} and "vendor" not in path.parts:
            yield path, path.read_text(encoding="utf-8")


# A key the page names: t("ns:key"), "ns:key" in a table, data-i18n="ns:key", data-i18n-attr="a=ns:key".
NS = "|".join(map(re.escape, ENGLISH))
LITERAL = re.compile(rf"""["'`=]\s*((?:{NS}):[\w.\-]+)(?=["'`;\s])""")
# A family asked for by a computed key: t(`errors:${code}`), t(`table:phase.${phase}`).
DYNAMIC = re.compile(rf"`((?:{NS}):[\w.\-]*)\$\{{")


def used_keys() -> tuple[set[str], set[str]]:
    literal: set[str] = set()
    prefixes: set[str] = set()
    for _, text in page_sources():
        literal.update(LITERAL.findall(text))
        prefixes.update(DYNAMIC.findall(text))
    return literal, prefixes


def named(full: str) -> str:
    """A key as the page names it (`ns:key`, maybe with a plural suffix) -> `ns:base`."""
    ns, key = full.split(":", 1)
    return f"{ns}:{base(key, ns)}"


def test_every_english_key_is_used_by_the_page() -> None:
    literal, prefixes = used_keys()
    literal_bases = {named(k) for k in literal}
    unused = [key for key in ENGLISH_BASES
              if key not in literal_bases and not any(key.startswith(p) for p in prefixes)]
    assert unused == [], "keys no page asks for"


def test_every_key_the_page_names_exists() -> None:
    literal, _ = used_keys()
    unknown = sorted(k for k in literal if named(k) not in ENGLISH_BASES)
    assert unknown == [], "keys the page names that the English catalog lacks"


def glossary(code: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((GLOSSARY / f"{code}.json").read_text(encoding="utf-8"))
    return data


TERMS = json.loads((GLOSSARY / "terms.json").read_text(encoding="utf-8"))["terms"]


@pytest.mark.parametrize("code", OTHERS)
def test_a_glossary_gives_every_term_with_its_source(code: str) -> None:
    entries = glossary(code)["terms"]
    assert isinstance(entries, dict)
    assert sorted(entries) == sorted(TERMS), f"{code}'s glossary terms"
    for term_id, entry in entries.items():
        assert entry["term"].strip(), (code, term_id)
        assert all(entry["source"].get(f) for f in ("title", "publisher")), (code, term_id, entry["source"])


@pytest.mark.parametrize("code", OTHERS)
def test_the_catalog_says_each_term_as_its_glossary_does(code: str) -> None:
    """Where an English string says a term (the terms list's `match`, in its namespaces), the language's
    string says one of the glossary's forms of it."""
    theirs = catalog(code)
    entries = glossary(code)["terms"]
    assert isinstance(entries, dict)
    wrong = []
    for term_id, term in TERMS.items():
        pattern = re.compile(term["match"], re.IGNORECASE)
        forms = [f.casefold() for f in entries[term_id].get("forms") or [entries[term_id]["term"]]]
        for ns in term.get("namespaces", list(ENGLISH)):
            for key, text in ENGLISH.get(ns, {}).items():
                said = theirs.get(ns, {}).get(key)
                if said is None or not pattern.search(text):
                    continue
                if not any(f in said.casefold() for f in forms):
                    wrong.append(f"{ns}:{key} ({term_id}): {said!r}")
    assert wrong == [], f"{code} strings that do not use the glossary's term"


@pytest.mark.parametrize("code", CODES)
def test_a_catalog_names_each_key_once(code: str) -> None:
    """JSON keeps the last of two equal keys without a word (a merge can leave both): one of them is never
    shown, and a translator may have fixed the other."""
    twice: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        names = [name for name, _ in items]
        twice.extend(sorted({name for name in names if names.count(name) > 1}))
        return dict(items)

    json.loads((I18N / f"{code}.json").read_text(encoding="utf-8"), object_pairs_hook=pairs)
    assert twice == []
