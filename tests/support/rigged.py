"""``RiggedServer``: ``paigow serve`` whose named tables are dealt what a test asks (``rigged_serve.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.harness import ServerProcess

__all__ = ["RiggedServer"]

LAUNCHER = Path(__file__).resolve().with_name("rigged_serve.py")


class RiggedServer(ServerProcess):
    """A ``ServerProcess`` running ``rigged_serve.py``; ``rigs``: ``{table name: {round number: rig}}``
    (the rigs: ``rigged_serve.RIGS``)."""

    def __init__(self, *, rigs: dict[str, dict[int, str]], **kwargs: Any) -> None:
        deals = {table: {str(n): rig for n, rig in rounds.items()} for table, rounds in rigs.items()}
        super().__init__(env={**kwargs.pop("env", {}), "RIGGED_DEALS": json.dumps(deals)}, **kwargs)

    def command(self) -> list[str]:
        python, _, _, *args = super().command()  # python -m paigow_server.cli serve ...
        return [python, str(LAUNCHER), *args]
