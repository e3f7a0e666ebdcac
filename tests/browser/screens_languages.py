"""Screenshots of a whole round in each language, to look at (issue 32): not a test. It starts its own private
Redis and ``paigow serve`` (as the browser tests do: tests/browser/conftest.py) and Debian's Chromium, then,
for each language at 390x844, a guest in that language sits at a new table beside a player over the wire and
plays a round: the lobby, betting, the dice and the deal, setting, the showdown, the coach's "How did I set
it?", then the bank offered in round 2 (tests/browser/i18n_walk.py's round walk). The pictures go to
``--out`` as ``<language>-<nn>-<phase>.png``.

    .venv/bin/python tests/browser/screens_languages.py --out /tmp/shots
    .venv/bin/python tests/browser/screens_languages.py --out /tmp/shots --languages es,ko --size 360x740
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from tests.browser.conftest import BROWSER_ENV, CHROMIUM_ARGS, OPERATOR_TOKEN, Site  # noqa: E402
from tests.browser.i18n_check import LANGUAGES  # noqa: E402
from tests.browser.i18n_walk import guest, round_walk  # noqa: E402
from tests.browser.wire import WirePlayer  # noqa: E402

from paigow_server.process.embedded_redis import EmbeddedRedis  # noqa: E402
from support.harness import ServerProcess  # noqa: E402

SHOWN = ("lobby", "betting", "dealt", "setting", "showdown", "coach", "bank-offer")
"""The phases photographed, in order (the walk's others pass unphotographed)."""


@contextmanager
def served(work: Path) -> Iterator[ServerProcess]:
    """A private Redis and ``paigow serve`` on it, as the browser tests start them; both stopped after."""
    (work / "redis").mkdir()
    redis = EmbeddedRedis(work / "redis", appendonly=False)
    redis.start()
    server = ServerProcess(data_dir=work / "serve", redis_url=redis.url, operator_token=OPERATOR_TOKEN,
                           env=BROWSER_ENV)
    try:
        server.start(timeout_s=90)
        yield server
    finally:
        server.kill()
        redis.stop()


def shoot(site: Site, lang: str, out: Path, width: int, height: int) -> list[Path]:
    """One language's round, photographed at each phase of ``SHOWN``; the pictures' paths."""
    players: list[WirePlayer] = []
    shots: list[Path] = []

    def wire(table_id: str, name: str) -> WirePlayer:
        players.append(WirePlayer(site.url, table_id, name))
        return players[-1]

    def at(page: Page, phase: str) -> None:
        if phase not in SHOWN:
            return
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(400)  # pops and flips end
        path = out / f"{lang}-{SHOWN.index(phase) + 1:02d}-{phase}.png"
        page.screenshot(path=str(path))
        shots.append(path)

    try:
        page = guest(site, lang, width=width, height=height)
        at(page, "lobby")
        round_walk(site, wire, page, at, name="Jade Dragon", history=False)
    finally:
        for player in players:
            player.close()
        site.close()
        site.contexts.clear()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="the folder for the pictures")
    parser.add_argument("--languages", default=",".join(LANGUAGES),
                        help="comma-separated codes (default: all six; en-XA is the pseudo-locale)")
    parser.add_argument("--size", default="390x844", help="the viewport, WIDTHxHEIGHT (default 390x844)")
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("Debian's chromium is required (apt-get install chromium)", file=sys.stderr)
        return 2
    fonts = subprocess.run(["fc-list"], capture_output=True, text=True, check=False).stdout
    if "Noto Sans CJK" not in fonts:
        print("warning: no Noto Sans CJK font (apt-get install fonts-noto-cjk): Chinese and Korean are boxes",
              file=sys.stderr)
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="screens-languages-")))
        server = stack.enter_context(served(work))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        site = Site(server, browser, args.out)
        for lang in args.languages.split(","):
            shots = shoot(site, lang, args.out, width, height)
            print(f"{lang}: {len(shots)} pictures, {', '.join(p.name for p in shots)}")
        if site.errors:
            print("errors on the pages:\n" + "\n".join(site.errors), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
