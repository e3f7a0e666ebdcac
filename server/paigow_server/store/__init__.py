"""Redis persistence: every key name in ``keys``; tables (compare-and-set commits with their money and
history effects), accounts, sessions' tokens, the ledger, hand history and the operator audit log."""
