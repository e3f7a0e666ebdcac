"""The web edge: the HTTP JSON API, the table WebSocket, the operator API, and who is asking (player
sessions, sign-in, passwords, operator credentials, per-address limits).

``context.AppContext`` holds the services the handlers reach (``context_of(request)``). The edge drives the
live side (``paigow_server.realtime``) and reads and writes Redis through ``paigow_server.store``; nothing
below it imports it.
"""
