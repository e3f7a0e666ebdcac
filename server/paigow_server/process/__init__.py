"""The process plumbing: settings, the Redis client (and a private Redis), the event loop, the garbage
collector policy, structured logs, metrics and background tasks. It imports nothing else of the server."""
