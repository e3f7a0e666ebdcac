"""The server's layers, read from its source with ``ast``: each layer imports only the layers below it, and
the modules import one another without a cycle (so any of them can be imported first).

    app.py, cli.py, commands/               the composition root and the console script: anything
    web/                                    the edge: HTTP, WebSocket, operator API, sessions
    realtime/                               the live side: TableService, fan-out, router, timers, presence
    store/                                  Redis persistence
    process/                                settings, Redis client, event loop, logs, metrics, tasks
    bots/                                   network clients of a running server: process/ only
    errors.py                               the one error tree: below every layer, imports none

The pure core ``paigow`` imports nothing of the server, its modules one another without a cycle either, and
the server nothing of the test harness
(``tests/support``, the package ``support``). Every import counts: at module level, inside a
function, and under ``if TYPE_CHECKING:`` (the server has none of those, and needs none).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server" / "paigow_server"
SHARED = ROOT / "shared" / "paigow"

ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "process": {"process", "errors"},
    "store": {"store", "process", "errors"},
    "realtime": {"realtime", "store", "process", "errors"},
    "web": {"web", "realtime", "store", "process", "errors"},
    "bots": {"bots", "process", "errors"},
}
"""What each layer may import (besides ``paigow``, the standard library and third parties)."""

TOP = {"top", "commands"}
"""The composition root (``app``, ``cli``, the package itself) and the sub-commands."""


def _module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(base: Path) -> dict[str, Path]:
    return {_module_name(p, base): p for p in sorted(base.rglob("*.py"))}


SERVER_MODULES = _modules(SERVER)


def _imported(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``name`` imports (absolute names, as written or resolved from relative imports),
    with the line; ``from package import module`` names the module too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, node.module] if node.module else anchor)
            else:
                base = node.module or ""
            yield base, node.lineno
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno


def _server_imports(name: str, path: Path) -> set[str]:
    """The server modules (and packages) ``name`` imports."""
    return {target for target, _ in _imported(name, path) if target in SERVER_MODULES and target != name}


GRAPH = {name: _server_imports(name, path) for name, path in SERVER_MODULES.items()}


def _layer(module: str) -> str:
    if module == "paigow_server.errors":
        return "errors"
    parts = module.split(".")
    if len(parts) >= 2 and (SERVER / parts[1]).is_dir():
        return parts[1]
    return "top"


def test_the_layers_are_the_folders() -> None:
    layers = {_layer(m) for m in SERVER_MODULES}
    assert layers == {*ALLOWED, *TOP}, "a new subpackage needs its place in ALLOWED"
    top = sorted(m for m in SERVER_MODULES if _layer(m) == "top")
    assert top == ["paigow_server", "paigow_server.app", "paigow_server.cli"]


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_the_layers_below_it(layer: str) -> None:
    wrong = sorted(f"{module} imports {target}" for module, targets in GRAPH.items()
                   if _layer(module) == layer for target in targets if _layer(target) not in ALLOWED[layer])
    assert wrong == [], f"{layer}/ may import only {sorted(ALLOWED[layer])}"


def test_the_pure_core_imports_nothing_of_the_server() -> None:
    wrong = sorted(f"{name}:{line} imports {target}" for name, path in _modules(SHARED).items()
                   for target, line in _imported(name, path) if target.split(".")[0] == "paigow_server")
    assert wrong == []


def test_the_product_imports_nothing_of_the_test_harness() -> None:
    """The harness (``support``) may use the server; the server and the core never the harness, nor
    anything under ``tests``."""
    product = {**SERVER_MODULES, **_modules(SHARED)}
    wrong = sorted(f"{name}:{line} imports {target}" for name, path in product.items()
                   for target, line in _imported(name, path) if target.split(".")[0] in {"support", "tests"})
    assert wrong == []
    assert not list(SERVER.glob("testing*.py")), "the test harness lives in tests/support"


def test_no_import_waits_for_type_checking() -> None:
    """``if TYPE_CHECKING:`` imports hide a cycle from the interpreter; the layers leave none to hide."""
    found = []
    for name, path in SERVER_MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                found.append(f"{name}:{node.lineno}")
    assert found == []


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (as a path that comes back to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)) is not None:
            return found
    return None


def test_the_server_modules_import_one_another_without_a_cycle() -> None:
    cycle = _cycle(GRAPH)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_the_imports_it_should() -> None:
    """A guard on the reader itself: known edges are found, relative or inside a function."""
    assert "paigow_server.web.sessions" in GRAPH["paigow_server.web.context"]
    assert "paigow_server.realtime.presence" in GRAPH["paigow_server.realtime.realtime"]
    assert "paigow_server.store.keys" in GRAPH["paigow_server.realtime.fanout"]
    assert "paigow_server.app" in GRAPH["paigow_server.commands.serve"]  # imported inside a function


CORE_MODULES = _modules(SHARED)


def _core_imports(name: str, path: Path) -> set[str]:
    """The core modules ``name`` imports; ``from paigow.table import commands`` names the module
    ``paigow.table.commands`` only (the package is imported already, whoever imports the module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            modules = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update(modules & CORE_MODULES.keys() or {node.module})
    return {target for target in found if target in CORE_MODULES and target != name}


def test_the_core_modules_import_one_another_without_a_cycle() -> None:
    graph = {name: _core_imports(name, path) for name, path in CORE_MODULES.items()}
    assert "paigow.table.operator_commands" in graph["paigow.table.home_commands"]
    assert "paigow.table.commands" in graph["paigow.table.machine"]  # from paigow.table import commands
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])
