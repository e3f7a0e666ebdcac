"""Browser fixtures: Debian's Chromium driven by Playwright (never a downloaded browser), the client's static
files on a local HTTP server, a real ``paigow serve`` on the private Redis, and a folder for screenshots.

Every page of every browser context the suite opens is watched for Content Security Policy violations
(``CspWatch``): a test during which Chromium reports one fails, whatever the test asserts itself."""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)
from tests.browser.wire import WirePlayer

from paigow_server.process.embedded_redis import EmbeddedRedis
from support.harness import ServerProcess
from support.rigged import RiggedServer

OPERATOR_TOKEN = "browser-operator-token-0123456789"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# Every browser context of the suite comes from 127.0.0.1: the per-address limits are raised so that the
# suite's many sign-ups never trip them (the test of the limit starts a server of its own), and passwords
# are hashed with small argon2id parameters to spare the two cores.
BROWSER_ENV = {"PAIGOW_STARTING_BALANCE_CENTS": "100000", "PAIGOW_SESSIONS_PER_MINUTE": "10000",
               "PAIGOW_SIGN_INS_PER_MINUTE": "10000", "PAIGOW_ARGON2_MEMORY_KIB": "1024"}
AUTO_CHIPS = {"auto_approve": True}
"""A home game's own chips (issue 31) with every buy-in approved at once: for the tests whose sits are not
about buy-ins (``POST /api/home/tables``'s ``chips``)."""
expect.set_options(timeout=15_000)  # a loaded CI machine shares two cores between the server and Chromium

CSP_REPORTER = """document.addEventListener('securitypolicyviolation', (e) => {
  console.error(`CSP violation: ${e.effectiveDirective} refused ${e.blockedURI || 'inline'} at `
    + `${e.sourceFile || location.href}:${e.lineNumber} ${e.sample || ''}`);
}, true);"""
"""Run in every page before its own scripts: each violation the page's policy reports becomes a console
error (Chromium logs most of them itself too, as "Refused to ... Content Security Policy ...")."""


class CspWatch:
    """The Content Security Policy violations reported by the pages of the watched browser contexts."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.add_init_script(CSP_REPORTER)
        context.on("page", lambda page: page.on("console", lambda msg: self._console(page, msg)))
        return context

    def _console(self, page: Page, msg: ConsoleMessage) -> None:
        if msg.text.startswith("CSP violation") or "Content Security Policy" in msg.text:
            self.seen.append(f"{page.url}: {msg.text}")

    def take(self) -> list[str]:
        """The violations seen so far, forgotten (a test that provokes some on purpose takes them)."""
        seen, self.seen = self.seen, []
        return seen


CSP = CspWatch()


@pytest.fixture(autouse=True)
def no_csp_violation() -> Iterator[CspWatch]:
    """Fails the test if any page reported a Content Security Policy violation while it ran."""
    CSP.take()
    yield CSP
    seen = CSP.take()
    if seen:
        pytest.fail("Content Security Policy violations:\n" + "\n".join(seen), pytrace=False)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    path = shutil.which("chromium")
    assert path is not None, "Debian's chromium is required for the browser tests (apt-get install chromium)"
    b = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    new_context = b.new_context

    def watched_context(*args: Any, **kwargs: Any) -> BrowserContext:
        return CSP.watch(new_context(*args, **kwargs))

    b.new_context = watched_context  # type: ignore[method-assign]  # every context, the tests' own too
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
    page.wait_for_selector("html[data-ready]", state="attached")  # its module has worded the page
    yield page
    context.close()


@pytest.fixture(scope="session")
def browser_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private redis-server for the browser tests (never the system Redis)."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("browser-redis"), appendonly=False)
    server.start()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def paigow_server(browser_redis: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real ``paigow serve`` on the private Redis, shared by the browser tests (each opens a table)."""
    process = ServerProcess(data_dir=tmp_path_factory.mktemp("paigow-serve"), redis_url=browser_redis,
                            operator_token=OPERATOR_TOKEN, env=BROWSER_ENV)
    process.start()
    yield process
    process.kill()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where the tests save screenshots for review (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


class Site:
    """The live server as the tests use it: operator calls over HTTP, and browser pages signed in by name."""

    def __init__(self, server: ServerProcess, browser: Browser, artifacts: Path) -> None:
        self.url = server.url
        self.server = server
        self.browser = browser
        self.artifacts = artifacts
        self.headers = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []
        """Uncaught exceptions and console errors of every page of the test."""

    def open_table(self, name: str, **timers: int) -> str:
        """Open a table through the operator API; the reject foul policy, the default limits and no Fortune
        bonus (a new table has it on unless told: these tests play without it; test_fortune.py with it)."""
        res = httpx.post(f"{self.url}/api/operator/tables", headers=self.headers, timeout=10,
                         json={"name": name, "timers": timers, "rules": {"fortune_enabled": False}})
        assert res.status_code == 201, res.text
        table_id: str = res.json()["table_id"]
        return table_id

    def table_action(self, table_id: str, action: str, reason: str = "a test voids it") -> None:
        """pause, resume, open, close or void (with its required ``reason``), through the operator API."""
        body = {"reason": reason} if action == "void" else {}
        res = httpx.post(f"{self.url}/api/operator/tables/{table_id}/{action}", headers=self.headers,
                         json=body, timeout=10)
        assert res.status_code == 200, res.text

    def page(self, *, width: int = 1366, height: int = 860) -> Page:
        context = self.browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(20_000)
        context.on("page", self._watch)
        self.contexts.append(context)
        page = context.new_page()
        self._wait_for_the_lobby(page)
        return page

    def _wait_for_the_lobby(self, page: Page) -> None:
        """The lobby's modules wait for the language's catalog before they answer a click: after opening the
        lobby, ``goto`` and ``reload`` wait until it says it is ready (``<html data-ready>``)."""
        goto, reload = page.goto, page.reload
        site = urlsplit(self.url).netloc

        def ready() -> None:
            where = urlsplit(page.url)
            if where.netloc == site and where.path in ("", "/"):
                page.wait_for_function("() => document.documentElement.dataset.ready === '1'")

        def lobby_goto(url: str, **kw: Any) -> Any:
            response = goto(url, **kw)
            ready()
            return response

        def lobby_reload(**kw: Any) -> Any:
            response = reload(**kw)
            ready()
            return response

        page.goto = lobby_goto  # type: ignore[method-assign]
        page.reload = lobby_reload  # type: ignore[method-assign]

    def _watch(self, page: Page) -> None:
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        page.on("console", lambda msg: self._console(page, msg))

    def _console(self, page: Page, msg: ConsoleMessage) -> None:
        # HTTP errors the tests provoke on purpose (a wrong token, a missing reason) are logged by Chromium.
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            self.errors.append(f"{page.url}: {msg.text}")

    def player(self, name: str, **size: int) -> Page:
        """A new browser context whose player entered ``name`` in the lobby."""
        page = self.page(**size)
        page.goto(f"{self.url}/")
        page.fill("#display-name", name)
        page.click("#name-submit")
        page.wait_for_selector("#signed-in:not([hidden])")
        return page

    @staticmethod
    def unlabelled(page: Page) -> list[str]:
        """Visible controls and card images without a name a screen reader could announce."""
        found: list[str] = page.evaluate("""() => {
            const named = (e) => (e.getAttribute('aria-label') || e.textContent || '').trim() !== ''
                || (e.labels && e.labels.length > 0) || e.getAttribute('title');
            return [...document.querySelectorAll('button, input, select, a, [role=img], svg.card-svg')]
                .filter((e) => e.getClientRects().length && !e.closest('#pg-card-defs') && !named(e))
                .map((e) => e.outerHTML.slice(0, 80));
        }""")
        return found

    def shot(self, page: Page, name: str, *, full_page: bool = False) -> None:
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)  # let pops and flips finish
        page.screenshot(path=str(self.artifacts / f"{name}.png"), full_page=full_page)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def site(paigow_server: ServerProcess, browser: Browser, artifacts: Path) -> Iterator[Site]:
    s = Site(paigow_server, browser, artifacts)
    yield s
    s.close()


@pytest.fixture
def make_site(browser: Browser, artifacts: Path,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Site]]:
    """A factory: a ``Site`` on its own ``paigow serve`` and its own private Redis, started with the given
    ``PAIGOW_*`` settings (a tiny session lifetime, a tight rate limit), and with ``rigs`` the deals a test
    chooses for some tables' rounds (``support.rigged.RiggedServer``); all stopped after the test."""
    started: list[tuple[EmbeddedRedis, ServerProcess, Site]] = []

    def make(env: dict[str, str], rigs: dict[str, dict[int, str]] | None = None) -> Site:
        redis = EmbeddedRedis(tmp_path_factory.mktemp("strict-redis"), appendonly=False)
        redis.start()
        options: dict[str, Any] = {"data_dir": tmp_path_factory.mktemp("strict-serve"),
                                   "redis_url": redis.url, "operator_token": OPERATOR_TOKEN,
                                   "env": {**BROWSER_ENV, **env}}
        process = ServerProcess(**options) if rigs is None else RiggedServer(rigs=rigs, **options)
        try:
            process.start()
        except Exception:
            redis.stop()
            raise
        s = Site(process, browser, artifacts)
        started.append((redis, process, s))
        return s

    yield make
    for redis, process, s in started:
        s.close()
        process.kill()
        redis.stop()


@pytest.fixture
def wire(site: Site) -> Iterator[Callable[..., WirePlayer]]:
    """A factory: ``wire(table_id, name, invite=None, token=None)`` is a guest (or, with ``token``, that
    session's account) at that table over the wire (tests/browser/wire.py), to fill the other seats without a
    browser each; all closed after the test."""
    players: list[WirePlayer] = []

    def make(table_id: str, name: str, invite: str | None = None, token: str | None = None) -> WirePlayer:
        players.append(WirePlayer(site.url, table_id, name, invite, token))
        return players[-1]

    yield make
    for player in players:
        player.close()
