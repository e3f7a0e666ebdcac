"""Argument types the sub-commands share: whole numbers in a range (``1_000`` and ``1,000`` allowed) and
seeds, each refusing bad text with a message that quotes it."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["seed_number", "whole_number"]


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low`` (and at most ``high``)."""
    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", "").replace(",", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            bound = f"at least {low:,}" if high is None else f"from {low:,} to {high:,}"
            raise argparse.ArgumentTypeError(f"{text!r} must be {bound}")
        return value

    return parse


def seed_number(text: str) -> int:
    """An argparse type: a seed, any whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number") from None
