"""Every function, constant or class a ``client_web`` module exports is used: imported by another module from
that module, used by the module itself, named by an HTML file, or called by a browser test's page script
(``const m = await import('/js/x.js'); m.name(...)``, ``const { name } = await import(...)``). An export
nothing uses is dead code the next reader has to understand. Read from the files as text; no browser."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client_web"
BROWSER_TESTS = Path(__file__).resolve().parent

_EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)", re.M)
_IMPORT = re.compile(r"""\bimport\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']""")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")


def _code(path: Path) -> str:
    """A module's text without its comments (a comment naming a function does not use it)."""
    return _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", path.read_text()))


def _imported() -> set[tuple[Path, str]]:
    """(module, name) for every name some module imports from that module."""
    found: set[tuple[Path, str]] = set()
    for path in CLIENT.rglob("*.js"):
        for names, source in _IMPORT.findall(_code(path)):
            module = (path.parent / source).resolve()
            for item in names.split(","):
                name = item.split(" as ")[0].strip()
                if name:
                    found.add((module, name))
    return found


def _used_by_a_test(name: str, tests: str) -> bool:
    word = re.escape(name)
    member = re.search(rf"\.{word}(?![\w$])", tests)
    destructured = re.search(rf"\{{[^}}]*(?<![\w$]){word}(?![\w$])[^}}]*\}}\s*=\s*await import\(", tests)
    return member is not None or destructured is not None


def test_every_export_is_used() -> None:
    imported = _imported()
    html = "\n".join(p.read_text() for p in CLIENT.rglob("*.html"))
    tests = "\n".join(p.read_text() for p in BROWSER_TESTS.glob("*.py") if p != Path(__file__).resolve())
    unused = []
    for path in sorted(CLIENT.rglob("*.js")):
        code = _code(path)
        for name in _EXPORT.findall(code):
            if ((path.resolve(), name) in imported or len(_word(name).findall(code)) > 1
                    or _word(name).search(html) or _used_by_a_test(name, tests)):
                continue
            unused.append(f"{path.relative_to(ROOT)}: {name}")
    assert not unused, "exported and used nowhere:\n" + "\n".join(unused)


def test_the_scan_reads_the_forms_the_client_writes(tmp_path: Path) -> None:
    """The regular expressions read the forms the client writes: ``export function``, ``export const``, an
    import over several lines with an alias."""
    module = "export function a() {}\nexport const b = 1;\n// a\nexport async function c() { return b; }\n"
    assert _EXPORT.findall(module) == ["a", "b", "c"]
    js = tmp_path / "m.js"
    js.write_text(module)
    assert _word("a").findall(_code(js)) == ["a"]  # the comment does not count
    lines = 'import {\n  a,\n  c as d,\n} from "./m.js";'
    assert _IMPORT.findall(lines) == [("\n  a,\n  c as d,\n", "./m.js")]
