"""paigow_server: the thin adapter around ``paigow`` (Starlette, WebSockets, Redis)."""
