"""The published House Ways, one module each, over one shared engine.

``engine`` owns the machinery every way uses: grouping the seven cards by rank (the joker counted as an
ace), the straight / flush search, and the decision tree that the shapes of hands share (five aces,
quads, full houses, straights and flushes, trips, three pair, two pair, one pair, no pair). Each way's
module holds only what that casino publishes differently, as data (``engine.Way``): its clause enum, when
two pair and four of a kind stay together, and its exceptions.

* ``trump_plaza``: Trump Plaza, Atlantic City (docs/rules.md §7, ``HouseWayClause``), the default;
* ``foxwoods``: Foxwoods, Connecticut (docs/rules.md §7a, ``FoxwoodsClause``);
* ``ballys``: Bally's Atlantic City (docs/rules.md §7b, ``BallysClause``).

``paigow.rules.house_way`` is the public face: it picks the way from ``HouseRules.house_way``.
"""
