"""Browser fixtures: Debian's Chromium driven by Playwright (never a downloaded browser), the client's static
files on a local HTTP server, a real ``paigow serve`` on the private Redis, and a folder for screenshots."""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from paigow_server.embedded_redis import EmbeddedRedis
from paigow_server.testing import ServerProcess

OPERATOR_TOKEN = "browser-operator-token-0123456789"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    path = shutil.which("chromium")
    assert path is not None, "Debian's chromium is required for the browser tests (apt-get install chromium)"
    b = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    yield b
    b.close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def static_site() -> Iterator[str]:
    """The installed ``paigow_web`` files over plain HTTP on a free loopback port; yields the base URL."""
    root = Path(str(files("paigow_web")))
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def module_page(browser: Browser, static_site: str) -> Iterator[Page]:
    """A page on the static site, ready for ``import('/js/...')`` in ``page.evaluate``."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{static_site}/verify/")
    yield page
    context.close()


@pytest.fixture(scope="module")
def browser_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private redis-server for one test module (never the system Redis)."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("browser-redis"), appendonly=False)
    server.start()
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def paigow_server(browser_redis: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real ``paigow serve`` on the private Redis for one test module."""
    process = ServerProcess(data_dir=tmp_path_factory.mktemp("paigow-serve"), redis_url=browser_redis,
                            operator_token=OPERATOR_TOKEN,
                            env={"PAIGOW_STARTING_BALANCE_CENTS": "100000"})
    process.start()
    yield process
    process.kill()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where the tests save screenshots for review (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
