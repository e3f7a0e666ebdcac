"""Redis persistence: every key name in ``keys``; tables (compare-and-set commits with their money and
history effects), accounts, sessions' tokens, the ledger, hand history and the operator audit log; and the
rest of what the server does with Redis behind small interfaces: pub/sub (``channels``), the table leases'
scripts (``leases``), spectator counts, rate counters. Only this package (and ``process/redis_client.py``,
which makes the client) imports ``redis``; every Redis failure leaves it as ``errors.StoreUnavailable``."""
