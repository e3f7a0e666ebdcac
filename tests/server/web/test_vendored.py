"""The vendored browser libraries (client_web/vendor/README.md): every file its table names is in the
installed client with its licence beside it, says the version the table pins where the library writes it in
its header, and is served to the pages as a script or a stylesheet under the pages'
Content Security Policy."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

from support.harness import AppHandle

WEB = Path(str(files("paigow_web")))
ROW = re.compile(r"^\| \[(?P<name>[^\]]+)\]\([^)]*\) \| (?P<version>[\d.]+) \| (?P<files>[^|]+) \|",
                 re.MULTILINE)
TYPES = {".js": "text/javascript", ".css": "text/css"}


def vendored() -> list[tuple[str, str, list[str]]]:
    """(library, version, its files under vendor/) for each row of the README's table."""
    text = (WEB / "vendor" / "README.md").read_text(encoding="utf-8")
    return [(m["name"], m["version"], re.findall(r"`([^`]+)`", m["files"])) for m in ROW.finditer(text)]


def test_the_table_names_each_library() -> None:
    assert [name for name, _, _ in vendored()] == ["i18next", "uPlot"]


def test_each_file_is_installed_with_its_licence() -> None:
    for name, _, paths in vendored():
        assert paths, name
        for path in paths:
            assert (WEB / "vendor" / path).is_file(), (name, path)
            assert (WEB / "vendor" / path).parent.joinpath("LICENSE").is_file(), (name, path)


def test_uplot_is_the_pinned_version_as_its_header_says() -> None:
    version = next(v for name, v, _ in vendored() if name == "uPlot")
    head = (WEB / "vendor" / "uplot" / "uPlot.esm.js").read_text(encoding="utf-8")[:400]
    assert f"(v{version})" in head
    assert "MIT" in (WEB / "vendor" / "uplot" / "LICENSE").read_text(encoding="utf-8")


async def test_the_files_are_served_as_scripts_and_stylesheets_under_the_pages_policy(
        app_client: AppHandle) -> None:
    for name, _, paths in vendored():
        for path in paths:
            res = await app_client.client.get(f"/vendor/{path}")
            assert res.status_code == 200, (name, path)
            assert res.headers["content-type"].startswith(TYPES[Path(path).suffix]), (path, res.headers)
            assert "script-src 'self'" in res.headers["content-security-policy"], path
            assert res.content == (WEB / "vendor" / path).read_bytes(), path
