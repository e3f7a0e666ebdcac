"""paigow.ledger: the money rules of a commit, pure.

``accounts``: the ledger's accounts and entries (``LedgerEntry``, ``EntryKind``, ``derived_balances``);
``effects``: what a commit's events do to balances, the ledger, the hand history and the rounds export
(``effects_of``); ``fortune_entries``: the entries of a round's Fortune and Envy bonuses.
"""
