"""The live side of one server process: the ``TableService`` (the only caller of the table state machine),
the fan-out of every commit to the table feeds of this process's viewers, the router and leases between
processes, the table timers, spectator counts, the guest collector and each player's presence.

It knows nothing of HTTP or WebSockets (``paigow_server.web`` drives it); below it are only
``paigow_server.store`` and ``paigow_server.process``.
"""
