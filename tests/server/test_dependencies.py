"""Every third-party module the product imports (``shared/paigow``, ``server/paigow_server``,
``client_web``) comes from a distribution in pyproject's ``[project] dependencies``, not only from the test
extras: ``pip install .`` must be enough for every ``paigow`` command."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN = {"paigow", "paigow_server", "paigow_web"}
THROUGH = {"pydantic_core": "pydantic"}
"""Modules of a distribution that a declared one pins exactly (pydantic pins its pydantic-core)."""


def _imported_top_modules() -> set[str]:
    found: set[str] = set()
    for folder in ("shared/paigow", "server/paigow_server", "client_web"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    return found - OWN - set(sys.stdlib_module_names)


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_module_the_product_imports_is_a_runtime_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {_normalised(re.split(r"[\s\[<>=!~;]", spec, maxsplit=1)[0])
                for spec in project["dependencies"]}
    providers = packages_distributions()
    modules = _imported_top_modules()
    assert {"httpx", "redis", "starlette"} <= modules, "the scan finds the product's imports"
    missing = {module: providers.get(module, ["?"]) for module in modules
               if THROUGH.get(module) not in declared
               and not any(_normalised(d) in declared for d in providers.get(module, []))}
    assert not missing, f"imported by the product but not in [project] dependencies: {missing}"


def test_every_package_of_the_source_is_installed() -> None:
    """``pip install .`` (not editable, as CI and a new user install) takes only the packages pyproject
    lists: each folder of ``shared/paigow`` and ``server/paigow_server`` with an ``__init__.py`` is one."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = set()
    for root, top in (("shared", "paigow"), ("server", "paigow_server")):
        for init in (ROOT / root / top).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(ROOT / root).parts))
    assert found <= listed, f"not installed by pip install .: {sorted(found - listed)}"


def test_every_folder_of_the_product_is_a_listed_package() -> None:
    """``pip install .`` warns of each importable folder that ``packages`` does not list (setuptools'
    BuildBackendWarning, a screenful per folder on a newcomer's first install): every folder under the
    three roots is listed, the client's too (they hold data only)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = set()
    for package, folder in setuptools["package-dir"].items():
        base = ROOT / folder
        for path in [base, *(p for p in base.rglob("*") if p.is_dir())]:
            parts = path.relative_to(base).parts
            if any(part.startswith((".", "_")) or not part.isidentifier() for part in parts):
                continue  # __pycache__, node_modules-like or hidden folders are not importable
            found.add(".".join((package, *parts)))
    assert found - listed == set(), "folders pyproject's [tool.setuptools] packages does not list"
