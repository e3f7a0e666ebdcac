"""The browser's patch.js applies the patches ``paigow.protocol.patch.diff`` writes exactly as
``apply_patch`` does, and refuses the same broken ones."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Page

from paigow.protocol.patch import PatchError, apply_patch, diff

pytestmark = pytest.mark.browser

KEYS = ["a", "b", "seats", "you", "~", "/", "a/b", "~1", "", "é", "0", "__proto__"]


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth >= 3 or roll < 0.4:
        return rng.choice([None, True, False, 0, 1, -7, 2**53, 1.5, -0.25, "", "x", "Kd", "é/~"])
    if roll < 0.7:
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(KEYS): _random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def _mutate(rng: random.Random, value: Any) -> Any:
    """A document near ``value`` (so that the patches are small and deep, like a view's)."""
    if rng.random() < 0.15:
        return _random_json(rng)
    if isinstance(value, dict):
        kept = [(k, v) for k, v in value.items() if rng.random() > 0.1]
        out = {k: _mutate(rng, v) if rng.random() < 0.5 else v for k, v in kept}
        if rng.random() < 0.3:
            out[rng.choice(KEYS)] = _random_json(rng)
        return out
    if isinstance(value, list):
        return [_mutate(rng, v) if rng.random() < 0.5 else v for v in value]
    return value


def _typed(value: Any) -> Any:
    """Each leaf with its JSON type (JSON has one number type; JS writes 1.0 as 1; member order is free)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return ("number" if number else type(value).__name__, value)


def test_the_browser_applies_every_patch_as_python_does(module_page: Page) -> None:
    rng = random.Random(20261201)
    cases = []
    for _ in range(600):
        old = _random_json(rng)
        new = _mutate(rng, old)
        cases.append({"old": old, "ops": diff(old, new), "new": new})
    assert sum(len(c["ops"]) for c in cases) > 150
    results: list[str] = module_page.evaluate(
        """async (text) => {
            const p = await import('/js/patch.js');
            return JSON.parse(text).map((c) => JSON.stringify(p.applyPatch(c.old, c.ops)));
        }""", json.dumps(cases))
    for case, text in zip(cases, results, strict=True):
        assert json.loads(text) == apply_patch(case["old"], case["ops"]) == case["new"]
        assert _typed(json.loads(text)) == _typed(case["new"]), "the same JSON types"


def test_the_browser_refuses_the_patches_python_refuses(module_page: Page) -> None:
    broken = [
        ({"a": 1}, [{"op": "move", "path": "/a", "from": "/b"}]),
        ({"a": 1}, [{"op": "replace", "path": "/b", "value": 1}]),
        ({"a": [1]}, [{"op": "replace", "path": "/a/01", "value": 2}]),
        ({"a": [1]}, [{"op": "replace", "path": "/a/1", "value": 2}]),
        ({"a": 1}, [{"op": "replace", "path": "/a/b", "value": 2}]),
        ({"a": 1}, [{"op": "remove", "path": ""}]),
        ({"a": 1}, [{"op": "add", "path": "a", "value": 2}]),
    ]
    for doc, ops in broken:
        with pytest.raises(PatchError):
            apply_patch(doc, ops)
    errors: list[str] = module_page.evaluate(
        """async (broken) => {
            const p = await import('/js/patch.js');
            return broken.map(([doc, ops]) => {
                try { p.applyPatch(doc, ops); return 'applied'; }
                catch (e) { return e instanceof p.PatchError ? 'PatchError' : String(e); }
            });
        }""", [list(b) for b in broken])
    assert errors == ["PatchError"] * len(broken)
