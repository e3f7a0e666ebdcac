"""The ``paigow`` console script: one sub-command per module in ``paigow_server.commands``.

Each command module exposes ``register(subparsers)``, which adds its parser and sets ``run`` (a function of
the parsed arguments returning the exit code) as a default. Modules are imported only when named.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import cast

# name -> (module under paigow_server.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("serve", "run the table server"),
    "schema": ("schema", "write the JSON Schema of the WebSocket protocol"),
    "split": ("split", "set seven cards the House Way"),
    "sim": ("sim", "simulate player against dealer, both by the House Way (a Dragon hand, a player bank)"),
    "analyze": ("analyze", "every legal split of seven cards against the House Way dealer"),
    "fortune": ("fortune", "exact odds of the Fortune bonus side bet"),
    "odds": ("odds", "exact odds of the commission-free forms and the Queen's Dragon"),
    "verify": ("verify", "recompute a round's dice and hands from its revealed seed"),
    "bots": ("bots", "bot players over WebSockets against a running server (load and soak runs)"),
}

Runner = Callable[[argparse.Namespace], int]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paigow", description="Pai Gow Poker table server and tools")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(f"paigow_server.commands.{module}").register(sub)
        else:
            sub.add_parser(name, help=help_text)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    name = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(name if name in COMMANDS else None)
    args = parser.parse_args(args_list)
    run = cast(Runner, args.run)
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
