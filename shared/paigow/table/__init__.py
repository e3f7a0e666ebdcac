"""paigow.table: the seven-position Pai Gow Poker table as a pure, deterministic state machine.

Commands in, events out: ``decide(state, command, seed=...)`` returns events or raises ``Rejection``;
``evolve(state, event)`` applies one event; ``apply`` does both and adds one to the version. Views per
viewer come from ``view_for`` / ``event_for``. Nothing here reads a clock or a global random source.
"""
