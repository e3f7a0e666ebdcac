"""``paigow bots``: bot players and spectators over real WebSockets, for load runs and soak tests.

``stats`` (counters and latency percentiles), ``api`` (the HTTP calls: sessions, operator), ``player`` (one
bot's connection and its decisions), ``run`` (tables full of bots, the live display, the money check).
"""
