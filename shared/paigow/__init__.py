"""paigow: the pure Pai Gow Poker core (rules, table state machine, wire protocol, provably fair deal).

No I/O, no clock reads, no global random source, no asyncio: everything is values in, values out.
"""

__version__ = "0.1.0"
