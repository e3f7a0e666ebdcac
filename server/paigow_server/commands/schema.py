"""``paigow schema``: write the JSON Schema of the wire protocol (for the browser client).

By default it writes ``protocol.schema.json`` inside the ``paigow_web`` package (``client_web/`` in the
repository); ``--output -`` prints it; ``--check`` writes nothing and exits 1 when the file is stale.
"""

from __future__ import annotations

import argparse
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

__all__ = ["default_schema_path", "register", "run"]

SCHEMA_FILE = "protocol.schema.json"


def default_schema_path() -> Path:
    return Path(str(files("paigow_web").joinpath(SCHEMA_FILE)))


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "schema", help="write the JSON Schema of the WebSocket protocol",
        description="Write the JSON Schema of every client and server message (see docs/protocol.md).")
    parser.add_argument("--output", "-o", default=None,
                        help=f"file to write ('-' for standard output; default: the client's {SCHEMA_FILE})")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the file differs from the current protocol")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paigow.protocol.schema import protocol_schema_text

    text = protocol_schema_text()
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    path = Path(args.output) if args.output else default_schema_path()
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            print(f"{path} is stale: run `paigow schema` and commit it", file=sys.stderr)
            return 1
        print(f"{path} is up to date")
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path} ({len(text.encode())} bytes)")
    return 0
