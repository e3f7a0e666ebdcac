from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from paigow_server.testing import ServerProcess


def test_serve_answers_health_checks_and_exits_cleanly_on_sigterm(server_process: ServerProcess) -> None:
    server_process.start()
    assert httpx.get(server_process.url + "/healthz").json() == {"status": "ok"}
    assert httpx.get(server_process.url + "/readyz").json() == {"status": "ready"}
    assert server_process.terminate() == 0
    output = server_process.output()
    assert f"serving on {server_process.url}" in output
    assert "operator token" not in output  # it was given, so it is not printed


def test_serve_without_redis_url_runs_a_private_redis_and_prints_a_generated_token(tmp_path: Path) -> None:
    server = ServerProcess(data_dir=tmp_path / "data", redis_url=None)
    server.start()
    try:
        assert httpx.get(server.url + "/readyz").json() == {"status": "ready"}
    finally:
        assert server.terminate() == 0
    output = server.output()
    assert "operator token (generated for this run): " in output
    assert (tmp_path / "data" / "appendonly.aof").exists()
    assert (tmp_path / "data" / "redis.log").exists()


def test_bad_settings_stop_the_start_with_a_clear_message() -> None:
    result = subprocess.run([sys.executable, "-m", "paigow_server.cli", "serve", "--port", "99999"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "--port='99999': must be a whole number from 1 to 65535" in result.stderr


def test_help_lists_every_option_with_its_environment_variable() -> None:
    result = subprocess.run([sys.executable, "-m", "paigow_server.cli", "serve", "--help"],
                            capture_output=True, text=True, timeout=60, check=True)
    for option, variable in (("--redis-url", "PAIGOW_REDIS_URL"), ("--data-dir", "PAIGOW_DATA_DIR"),
                             ("--operator-token", "PAIGOW_OPERATOR_TOKEN"), ("--port", "PAIGOW_PORT")):
        assert option in result.stdout
        assert variable in result.stdout
