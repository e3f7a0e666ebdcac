"""Every error code the server can send has its sentence in the English catalog (`errors:<CODE>`, or the
plural family `errors:<CODE>_one` / `_other` of a wait), so that the page words each refusal in the
player's language (client_web/js/errors.js) and never shows the English `message`; a sentence that uses a
value the refusal may lack has `errors:<CODE>.plain`, said without it.

The codes are read from the code itself: the wire's ``ErrorCode`` and ``RejectCode``, and every HTTP code
the server's source names where an error answer is made: an ``ApiError`` / ``retry_after`` / other error
class called with a code literal, a ``code`` or ``http_code`` class attribute, an ``{"error": "CODE"}``
body, and a ``(status, "CODE")`` pair of a refusal table.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from paigow.protocol.codes import ErrorCode
from paigow.table.rejections import RejectCode

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server" / "paigow_server"
NOT_SENT = ("bots",)
"""Parts of the server package that read error answers (the bots are clients) and send none."""
CODE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
ERRORS = json.loads((ROOT / "client_web" / "i18n" / "en.json").read_text(encoding="utf-8"))["errors"]


def _literal(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
        return node.value
    return None


def _called(node: ast.Call) -> str:
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else ""


def _codes_in(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _called(node)
            if name == "retry_after" or name.endswith(("Error", "Refused")):
                args = [*node.args[:2], *(k.value for k in node.keywords if k.arg in ("code", "http_code"))]
                found |= {code for arg in args if (code := _literal(arg)) is not None}
        elif isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name | ast.Attribute) and getattr(t, "id", getattr(t, "attr", ""))
                   in ("code", "http_code") for t in node.targets) and (code := _literal(node.value)):
                found.add(code)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "error" and (code := _literal(value)):
                    found.add(code)
        elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
            status, code_node = node.elts
            if (isinstance(status, ast.Constant) and type(status.value) is int and 400 <= status.value < 600
                    and (code := _literal(code_node))):
                found.add(code)
    return found


def http_codes() -> set[str]:
    found: set[str] = set()
    for path in SERVER.rglob("*.py"):
        if path.relative_to(SERVER).parts[0] in NOT_SENT:
            continue
        found |= _codes_in(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def worded(code: str) -> bool:
    if f"{code}_other" in ERRORS:
        return f"{code}_one" in ERRORS and f"{code}.plain" in ERRORS
    return code in ERRORS


def test_the_scan_finds_the_http_codes_it_should() -> None:
    """The scan sees each way the source makes an error answer (a guard against it finding nothing)."""
    assert {"USERNAME_TAKEN", "SIGN_IN_BACKOFF", "BAD_OPERATOR_TOKEN", "TOP_UP_TOO_SOON", "NOT_FOUND",
            "UNSUPPORTED_MEDIA_TYPE", "UNAVAILABLE", "INVALID_USERNAME", "ANALYSIS_BUSY"} <= http_codes()


def test_every_wire_code_is_worded() -> None:
    assert sorted(c.value for c in [*ErrorCode, *RejectCode] if not worded(c.value)) == []


def test_every_http_code_is_worded() -> None:
    assert sorted(c for c in http_codes() if not worded(c)) == []


def test_the_page_s_own_codes_are_worded() -> None:
    assert worded("NETWORK")
    assert "unknown" in ERRORS


def test_a_wait_is_said_with_its_count() -> None:
    for key, text in ERRORS.items():
        if key.endswith(("_one", "_other")):
            assert "{{count}}" in text, key


def test_a_sentence_with_values_has_a_plain_one_without_them() -> None:
    """errors.js says `.plain` when the refusal lacks a value (an older server, a caller with the code
    alone); `unknown` always has its code."""
    for key, text in ERRORS.items():
        code = key.rpartition("_")[0] if key.endswith(("_one", "_other")) else key
        if "{{" in text and key != "unknown":
            assert f"{code}.plain" in ERRORS, key
        if key.endswith(".plain"):
            assert "{{" not in text, key
