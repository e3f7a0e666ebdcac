"""deploy/: every file parses, references what exists, and agrees with the server's settings; and the
proxy configuration runs: nginx with deploy/nginx/paigow.conf in front of real ``paigow serve`` processes
on loopback, with bots playing through it."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import websockets
import yaml
from websockets.typing import Origin

from paigow.protocol.version import PROTOCOL_VERSION
from paigow_server.bots.player import Behaviour
from paigow_server.bots.run import BotsConfig, run_bots
from paigow_server.process.embedded_redis import free_port
from paigow_server.process.settings import SETTING_NAMES, env_name
from support.harness import ServerProcess, WsClient

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
KNOWN_ENV = {env_name(name) for name in SETTING_NAMES}


def load_all(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def k8s_objects() -> dict[tuple[str, str], dict[str, Any]]:
    objects: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in load_all(path):
            objects[(doc["kind"], doc["metadata"]["name"])] = doc
    return objects


def test_dockerfile_copies_existing_paths_runs_as_non_root_and_checks_health() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    copies = re.findall(r"^COPY (?!--from)(.+) \S+$", text, flags=re.MULTILINE)
    sources = [src for line in copies for src in line.split()]
    assert sources, "the Dockerfile copies the project"
    for src in sources:
        assert (ROOT / src).exists(), f"Dockerfile copies {src!r}, which is not in the repository"
    package_dirs = (ROOT / "pyproject.toml").read_text().split("package-dir")[1].split("\n")[0]
    for package_dir in re.findall(r'= "([^"]+)"', package_dirs):
        top = package_dir.split("/")[0]
        assert top in sources, f"the image must contain {top}/ (a package dir in pyproject.toml)"
    users = re.findall(r"^USER (\S+)", text, flags=re.MULTILINE)
    assert users
    assert not users[-1].startswith(("0", "root")), "the final stage runs as a non-root user"
    assert re.search(r"^HEALTHCHECK .*?/healthz", text, flags=re.MULTILINE | re.DOTALL)
    assert "pip install --no-deps --no-build-isolation ." in text  # the project, on the locked packages
    assert re.search(r'CMD \["serve", "--host", "0.0.0.0"', text)
    assert "python:3.11-slim" in text


def test_compose_runs_redis_three_servers_and_a_proxy() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    servers = [name for name, svc in services.items() if "serve" in svc.get("command", [])]
    assert sorted(servers) == ["server1", "server2", "server3"]
    for name in servers:
        command = services[name]["command"]
        assert command[command.index("--redis-url") + 1].startswith("redis://redis:")
        assert command[command.index("--host") + 1] == "0.0.0.0"
        unknown = set(services[name]["environment"]) - KNOWN_ENV
        assert not unknown, f"compose sets environment variables the server does not know: {unknown}"
        assert (DEPLOY / services[name]["build"]["context"] / services[name]["build"]["dockerfile"]).is_file()
    redis_svc = services["redis"]
    for mount in redis_svc["volumes"]:
        source = mount.split(":")[0]
        assert not source.startswith("./") or (DEPLOY / source).exists()
    proxy = services["proxy"]
    for mount in proxy["volumes"]:
        assert (DEPLOY / mount.split(":")[0]).exists()
    assert proxy["command"][:3] == ["nginx", "-c", "/etc/nginx/paigow/nginx.conf"]
    # both upstreams of upstream.conf list exactly the compose server services
    upstream = (DEPLOY / "nginx" / "upstream.conf").read_text()
    blocks = dict(re.findall(r"^upstream (\w+) \{(.*?)^\}", upstream, flags=re.MULTILINE | re.DOTALL))
    assert set(blocks) == {"paigow", "paigow_tables"}
    for block in blocks.values():
        assert sorted(re.findall(r"^\s*server (\w+):8000", block, flags=re.MULTILINE)) == sorted(servers)
    assert "hash $uri consistent;" in blocks["paigow_tables"], "a table's viewers share a process"


def test_every_deployment_logs_json_lines() -> None:
    """A terminal gets plain lines by default; the image, the compose files and the Kubernetes settings
    (../k8s's, which k8s-cluster and k8s-sentinel build on) set JSON lines for a log collector."""
    assert re.search(r"^\s+PAIGOW_LOG_FORMAT=json$", (DEPLOY / "Dockerfile").read_text(), flags=re.MULTILINE)
    for name in ("compose.yaml", "compose.cluster.yaml", "compose.sentinel.yaml"):
        services = yaml.safe_load((DEPLOY / name).read_text())["services"]
        servers = [svc for svc in services.values() if "serve" in svc.get("command", [])]
        assert servers, name
        assert all(svc["environment"]["PAIGOW_LOG_FORMAT"] == "json" for svc in servers), name
    assert k8s_objects()[("ConfigMap", "paigow-settings")]["data"]["PAIGOW_LOG_FORMAT"] == "json"


def test_the_runbook_names_only_settings_the_server_knows() -> None:
    named = set(re.findall(r"PAIGOW_[A-Z0-9_]+", (DEPLOY / "RUNBOOK.md").read_text()))
    assert named, "the runbook lists the settings"
    assert named <= KNOWN_ENV, f"the runbook names unknown settings: {sorted(named - KNOWN_ENV)}"


def test_every_deployment_names_the_hosts_it_answers_to() -> None:
    """A server answers only to its ``allowed_hosts``: each compose file's servers name the proxy's
    (localhost by default), the k8s settings the ingress's host."""
    for name in ("compose.yaml", "compose.sentinel.yaml", "compose.cluster.yaml"):
        services = yaml.safe_load((DEPLOY / name).read_text())["services"]
        for svc in (s for s in services.values() if "serve" in s.get("command", [])):
            hosts = svc["environment"]["PAIGOW_ALLOWED_HOSTS"]
            assert hosts == "${PAIGOW_ALLOWED_HOSTS:-localhost,127.0.0.1}", name
            origin = svc["environment"]["PAIGOW_ALLOWED_ORIGINS"].split(":-")[1].rstrip("}")
            assert urlsplit(origin).hostname in hosts, f"{name}: the allowed origin's host is allowed"
    objects = k8s_objects()
    settings = objects[("ConfigMap", "paigow-settings")]["data"]
    allowed = settings["PAIGOW_ALLOWED_HOSTS"].split(",")
    for ingress in ("paigow", "paigow-tables"):
        assert objects[("Ingress", ingress)]["spec"]["rules"][0]["host"] in allowed
    assert urlsplit(settings["PAIGOW_ALLOWED_ORIGINS"]).hostname in allowed


def redis_conf(text: str) -> dict[str, str]:
    pairs = (line.split(None, 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {key: value for key, value in pairs if key != "save"}


def test_redis_config_is_append_only_and_never_evicts() -> None:
    compose_conf = redis_conf((DEPLOY / "redis.conf").read_text())
    k8s_conf = redis_conf(k8s_objects()[("ConfigMap", "paigow-redis-config")]["data"]["redis.conf"])
    for conf in (compose_conf, k8s_conf):
        assert conf["appendonly"] == "yes"
        assert conf["appendfsync"] == "everysec"
        assert conf["maxmemory-policy"] == "noeviction"
        assert conf["dir"] == "/data"


def test_redis_config_is_accepted_by_redis_server(tmp_path: Path) -> None:
    from paigow_server.process.embedded_redis import find_redis_server

    text = (DEPLOY / "redis.conf").read_text().replace("dir /data", f"dir {tmp_path}")
    text = text.replace("port 6379", f"port {free_port()}").replace("bind 0.0.0.0", "bind 127.0.0.1")
    conf = tmp_path / "redis.conf"
    conf.write_text(text)
    # --test-memory is not it; redis-server exits non-zero at once on a bad directive, so start and stop it.
    process = subprocess.Popen([str(find_redis_server()), str(conf)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(1.0)  # still running after a second: the configuration was accepted
    finally:
        process.terminate()
        output = process.communicate(10)[0].decode()
    assert "Bad directive" not in output, output
    assert "FATAL" not in output, output


def test_kubernetes_manifests_fit_together() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    for resource in kustomization["resources"]:
        assert (K8S / resource).is_file(), resource
    objects = k8s_objects()
    deployment = objects[("Deployment", "paigow")]
    pod = deployment["spec"]["template"]
    container = pod["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["args"][:3] == ["serve", "--host", "0.0.0.0"]
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    port = container["ports"][0]
    assert port["containerPort"] == 8000
    env_sources = {ref.get("configMapRef", ref.get("secretRef"))["name"] for ref in container["envFrom"]}
    assert env_sources == {"paigow-settings", "paigow-operator"}
    settings = objects[("ConfigMap", "paigow-settings")]["data"]
    secret = load_all(K8S / "secret.example.yaml")[0]
    assert secret["metadata"]["name"] == "paigow-operator"
    unknown = (set(settings) | set(secret["stringData"])) - KNOWN_ENV
    assert not unknown, f"settings the server does not know: {unknown}"
    service = objects[("Service", "paigow")]
    assert service["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    assert service["spec"]["ports"][0]["targetPort"] == port["name"]
    ingress = objects[("Ingress", "paigow")]
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": "paigow", "port": {"name": service["spec"]["ports"][0]["name"]}}
    assert int(ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 600
    hash_by = "nginx.ingress.kubernetes.io/upstream-hash-by"
    assert hash_by not in ingress["metadata"]["annotations"], "the API and the client are not routed by path"
    tables = objects[("Ingress", "paigow-tables")]
    table_path = tables["spec"]["rules"][0]["http"]["paths"][0]
    assert table_path["path"] == "/ws/"
    assert table_path["backend"]["service"] == backend
    assert tables["metadata"]["annotations"][hash_by] == "$uri", "a table's viewers share a pod"
    assert int(tables["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 600
    redis_set = objects[("StatefulSet", "paigow-redis")]
    assert redis_set["spec"]["serviceName"] == "paigow-redis"
    assert redis_set["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    host = settings["PAIGOW_REDIS_URL"].split("//")[1].split(":")[0]
    assert host == "paigow-redis-0.paigow-redis", "the Redis URL names the StatefulSet's first pod"


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    assert found, "nginx is needed for the proxy tests: apt-get install nginx-light (.ci/run does)"
    return found


def nginx_config_for(tmp_path: Path, ports: list[int], listen: int) -> Path:
    """deploy/nginx copied with upstream.conf pointing at loopback ports; paigow.conf used verbatim but
    for its listen address, nginx.conf but for its pid file."""
    conf_dir = tmp_path / "nginx"
    shutil.copytree(DEPLOY / "nginx", conf_dir)
    lines = "".join(f"    server 127.0.0.1:{port} max_fails=2 fail_timeout=5s;\n" for port in ports)
    upstream = (f"upstream paigow_tables {{\n    hash $uri consistent;\n{lines}    keepalive 8;\n}}\n"
                f"upstream paigow {{\n    least_conn;\n{lines}    keepalive 8;\n}}\n")
    (conf_dir / "upstream.conf").write_text(upstream)
    main = (conf_dir / "nginx.conf").read_text()
    assert "pid /tmp/nginx.pid;" in main
    (conf_dir / "nginx.conf").write_text(main.replace("pid /tmp/nginx.pid;", f"pid {tmp_path}/nginx.pid;"))
    site = (conf_dir / "paigow.conf").read_text()
    assert "listen 8080;" in site
    (conf_dir / "paigow.conf").write_text(site.replace("listen 8080;", f"listen 127.0.0.1:{listen};"))
    return conf_dir / "nginx.conf"


def test_nginx_accepts_the_proxy_configuration(tmp_path: Path) -> None:
    conf = nginx_config_for(tmp_path, [free_port(), free_port()], free_port())
    result = subprocess.run([nginx_binary(), "-t", "-e", "stderr", "-p", str(tmp_path), "-c", str(conf)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    site = (DEPLOY / "nginx" / "paigow.conf").read_text()
    for block in re.findall(r"location [^{]*\{(.*?)\n    \}", site, flags=re.DOTALL):
        if "proxy_pass" in block:  # nginx inherits no proxy_set_header into a location that sets one
            for header in ("Host $http_host", "X-Forwarded-For $proxy_add_x_forwarded_for"):
                assert f"proxy_set_header {header};" in block, block
    assert "proxy_http_version 1.1;" in site
    assert "proxy_set_header Upgrade $http_upgrade;" in site
    assert "proxy_set_header Connection $paigow_connection;" in site


StartCluster = Callable[[int], Awaitable[list[ServerProcess]]]


@pytest.fixture
def nginx_proxy(tmp_path: Path) -> Iterator[Callable[[list[int]], str]]:
    """``nginx_proxy(ports)`` (blocking): nginx in front of the loopback ports; returns its base URL."""
    started: list[subprocess.Popen[bytes]] = []

    def start(ports: list[int]) -> str:
        listen = free_port()
        conf = nginx_config_for(tmp_path, ports, listen)
        log = tmp_path / "nginx.log"
        with log.open("wb") as out:
            process = subprocess.Popen([nginx_binary(), "-e", "stderr", "-p", str(tmp_path), "-c", str(conf),
                                        "-g", "daemon off;"], stdout=out, stderr=subprocess.STDOUT)
        started.append(process)
        url = f"http://127.0.0.1:{listen}"
        for _ in range(200):
            try:
                if httpx.get(url + "/nginx-healthz", timeout=1).status_code == 200:
                    return url
            except httpx.TransportError:
                pass
            assert process.poll() is None, log.read_text()
            time.sleep(0.05)
        raise AssertionError(f"nginx did not start: {log.read_text()}")

    yield start
    for process in started:
        process.terminate()
        process.wait(10)


async def test_bots_play_through_nginx_in_front_of_two_processes(
        cluster: StartCluster, nginx_proxy: Callable[[list[int]], str]) -> None:
    processes = await cluster(2)
    url = await asyncio.to_thread(nginx_proxy, [p.port for p in processes])
    async with httpx.AsyncClient(base_url=url) as client:
        assert (await client.get("/healthz")).json() == {"status": "ok"}
        assert (await client.get("/readyz")).status_code == 200
        assert (await client.get("/metrics")).status_code == 404, "metrics are scraped per process"
        assert (await client.get("/")).status_code == 200, "the browser client comes through the proxy"
    config = BotsConfig(url=url, operator_token=processes[0].operator_token, tables=2, players_per_table=3,
                        spectators=1, rounds=1, seed=3, timeout_s=60,
                        behaviour=Behaviour(drop_rate=0.2, bad_input_rate=0.2))
    result = await run_bots(config)
    assert result.completed_tables == 2, result.summary()
    assert result.money_ok, result.money_message
    assert result.stats.hidden_card_leaks == 0
    assert result.stats.latency_summary()["count"] > 0


def _spectators_on(process: ServerProcess) -> int:
    text = httpx.get(f"{process.url}/metrics", timeout=10).text
    found = re.search(r'^paigow_connections\{role="spectator"\} (\S+)$', text, flags=re.MULTILINE)
    return int(float(found.group(1))) if found else 0


async def test_nginx_routes_every_viewer_of_a_table_to_the_same_process(
        cluster: StartCluster, nginx_proxy: Callable[[list[int]], str]) -> None:
    processes = await cluster(2)
    url = await asyncio.to_thread(nginx_proxy, [p.port for p in processes])
    headers = {"Authorization": f"Bearer {processes[0].operator_token}"}
    async with httpx.AsyncClient(base_url=url, headers=headers) as client:
        opened = [await client.post("/api/operator/tables", json={"name": f"Routed {i}"}) for i in range(4)]
    table_ids = [response.json()["table_id"] for response in opened]
    ws_url = "ws" + url.removeprefix("http")
    viewers = []
    try:
        for table_id in table_ids:
            before = [await asyncio.to_thread(_spectators_on, p) for p in processes]
            for _ in range(3):
                viewers.append(await WsClient.connect(ws_url, table_id))
                assert viewers[-1].first["type"] == "snapshot"
            after = [await asyncio.to_thread(_spectators_on, p) for p in processes]
            grown = sorted(a - b for a, b in zip(after, before, strict=True))
            assert grown == [0, 3], f"table {table_id}: its three viewers were spread {grown}"
        # a page of the proxy's own origin: the Host nginx passes on is the one the browser asked by
        async with websockets.connect(f"{ws_url}/ws/tables/{table_ids[0]}", origin=Origin(url)) as page:
            await page.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
            assert json.loads(await page.recv())["type"] == "snapshot"
    finally:
        for viewer in viewers:
            await viewer.close()
