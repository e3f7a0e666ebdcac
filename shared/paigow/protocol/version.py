"""The protocol version. Bump it for any change a client written against the previous version could not
read (a renamed or removed field, a new required field, a changed meaning); adding an optional field or a
new server message type that old clients may ignore does not need a bump."""

from __future__ import annotations

__all__ = ["PROTOCOL_VERSION", "SUPPORTED_PROTOCOLS"]

PROTOCOL_VERSION = 2
"""2: after the snapshot, each change is a ``patch`` (the viewer's events and a JSON Patch of its view)
instead of an ``events`` message with the whole view (version 1, no longer spoken)."""
SUPPORTED_PROTOCOLS: frozenset[int] = frozenset({2})
"""The versions this server speaks (``hello.protocol`` must be one of them)."""
