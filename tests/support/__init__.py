"""The test harness: handles on the app and on real server processes, real Redis topologies on loopback
(Sentinel, Cluster), table drivers and the checks the multi-process tests run. Not part of the product:
pytest finds it through ``pythonpath = ["tests"]`` (pyproject.toml), the benchmarks through a line that
puts ``tests/`` on ``sys.path``."""
