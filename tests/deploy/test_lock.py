"""The hashed locks in requirements/ hold pyproject.toml's ranges, and what installs the product installs
from them (requirements/README.md)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _pins(lock: str) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) of every package the lock pins."""
    text = (ROOT / "requirements" / lock).read_text()
    pins: dict[str, tuple[str, list[str]]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        head = re.match(r"([A-Za-z0-9_.-]+)==([^\s;\\]+)", block)
        if head is None:
            continue
        pins[canonicalize_name(head[1])] = (head[2], re.findall(r"--hash=sha256:([0-9a-f]{64})", block))
    return pins


def _required(extras: tuple[str, ...]) -> list[Requirement]:
    wanted = list(PYPROJECT["project"]["dependencies"])
    for extra in extras:
        wanted += PYPROJECT["project"]["optional-dependencies"][extra]
    wanted += PYPROJECT["build-system"]["requires"]
    return [Requirement(line) for line in wanted]


@pytest.mark.parametrize(("lock", "extras"), [("serve.txt", ()), ("test.txt", ("test",))])
def test_every_range_is_pinned_within_it_with_hashes(lock: str, extras: tuple[str, ...]) -> None:
    pins = _pins(lock)
    assert pins, f"requirements/{lock} pins nothing"
    for name, (version, hashes) in pins.items():
        assert hashes, f"requirements/{lock}: {name}=={version} has no hash"
    for requirement in _required(extras):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"requirements/{lock} does not pin {requirement.name} ({requirement})"
        version = pins[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements/{lock} pins {name}=={version}, outside pyproject.toml's {requirement}")


def test_the_readme_ci_and_image_install_from_the_lock() -> None:
    readme = (ROOT / "README.md").read_text()
    serve = re.search(r"```sh\n(python3 -m venv .*paigow serve)\n```", readme)
    assert serve is not None, "the README's first command"
    assert "pip install --require-hashes -r requirements/serve.txt" in serve[1]
    assert "pip install --no-deps --no-build-isolation ." in serve[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q --require-hashes -r requirements/test.txt" in ci
    installs = re.findall(r"^python -m pip install .*$", ci, flags=re.MULTILINE)
    assert installs, "CI installs the project"
    assert all("--require-hashes" in line or "--no-deps" in line for line in installs), installs
    image = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "--require-hashes -r requirements/serve.txt" in image
