"""deploy/ under Sentinel: ``compose.sentinel.yaml``, ``sentinel/`` (the data nodes' and the sentinels'
configuration) and the Kubernetes variant ``k8s-sentinel/`` fit together and agree with the server; and the
configuration files run: a primary, a replica and a sentinel started from them on loopback make a working
topology that refuses writes without a replica in sync."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import yaml

from paigow_server.process.embedded_redis import EmbeddedRedis, free_port
from paigow_server.process.redis_client import check_redis_url, parse_sentinel_url
from paigow_server.process.settings import SETTING_NAMES, env_name

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SENTINEL = DEPLOY / "sentinel"
K8S_SENTINEL = DEPLOY / "k8s-sentinel"
KNOWN_ENV = {env_name(name) for name in SETTING_NAMES}


def directives(text: str) -> dict[str, list[str]]:
    """A Redis configuration's directives (``key -> [value, ...]``, the last one wins in Redis)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.strip().partition(" ")
            found.setdefault(key, []).append(value)
    return found


def test_the_sentinel_compose_runs_three_data_nodes_three_sentinels_and_the_servers_on_them() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.sentinel.yaml").read_text())
    services = compose["services"]
    sentinels = sorted(name for name in services if name.startswith("sentinel"))
    data = sorted(name for name in services if name.startswith("redis-"))
    assert sentinels == ["sentinel1", "sentinel2", "sentinel3"]
    assert data == ["redis-a", "redis-b", "redis-c"]
    servers = [name for name, svc in services.items() if "serve" in svc.get("command", [])]
    assert sorted(servers) == ["server1", "server2", "server3"]
    for name in servers:
        command = services[name]["command"]
        url = command[command.index("--redis-url") + 1]
        assert check_redis_url(url) is None, url
        parsed = parse_sentinel_url(url)
        assert sorted(host for host, _ in parsed.sentinels) == sentinels
        assert parsed.service_name == "paigow"
        environment = services[name]["environment"]
        assert not set(environment) - KNOWN_ENV, "compose sets variables the server does not know"
        assert environment["PAIGOW_REDIS_REPLICA_ACKS"] == "1", "no command accepted before a replica has it"
    for name in [*data, *sentinels]:
        for mount in services[name]["volumes"]:
            source = mount.split(":")[0]
            assert not source.startswith("./") or (DEPLOY / source).exists(), f"{name} mounts {source}"
    assert services["redis-a"]["command"][-1].endswith("/redis-primary.conf")
    assert services["redis-b"]["command"][-1].endswith("/redis-replica.conf")
    sentinel = directives((SENTINEL / "sentinel.conf").read_text())
    monitor = sentinel["sentinel"][[v.split()[0] for v in sentinel["sentinel"]].index("monitor")].split()
    assert monitor[1:] == ["paigow", "redis-a", "6379", "2"], "the sentinels watch redis-a with quorum 2"
    replica = directives((SENTINEL / "redis-replica.conf").read_text())
    assert replica["replicaof"] == ["redis-a 6379"]
    for conf in ("redis-primary.conf", "redis-replica.conf"):
        found = directives((SENTINEL / conf).read_text())
        assert found["min-replicas-to-write"] == ["1"], conf
        assert int(found["min-replicas-max-lag"][-1]) <= 5, conf
        assert found["include"] == ["/usr/local/etc/redis/redis.conf"], "the common settings of redis.conf"


def _k8s(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def test_the_kubernetes_sentinel_variant_replaces_the_one_redis_and_points_the_servers_at_the_sentinels(
        ) -> None:
    kustomization = yaml.safe_load((K8S_SENTINEL / "kustomization.yaml").read_text())
    assert "../k8s" in kustomization["resources"]
    for resource in kustomization["resources"]:
        assert (K8S_SENTINEL / resource).exists(), resource
    deleted = {(doc["kind"], doc["metadata"]["name"]) for doc in
               (yaml.safe_load(p["patch"]) for p in kustomization["patches"] if "patch" in p)
               if doc.get("$patch") == "delete"}
    assert deleted == {("StatefulSet", "paigow-redis"), ("ConfigMap", "paigow-redis-config")}
    objects = {(doc["kind"], doc["metadata"]["name"]): doc
               for doc in _k8s(K8S_SENTINEL / "redis-sentinel.yaml")}
    data = objects[("StatefulSet", "paigow-redis-ha")]
    sentinels = objects[("StatefulSet", "paigow-sentinel")]
    assert data["spec"]["replicas"] == 3
    assert sentinels["spec"]["replicas"] == 3
    assert objects[("Service", "paigow-sentinel")]["spec"]["selector"].items() <= \
        sentinels["spec"]["template"]["metadata"]["labels"].items()
    base_service = next(doc for doc in _k8s(DEPLOY / "k8s" / "redis.yaml") if doc["kind"] == "Service")
    assert data["spec"]["serviceName"] == base_service["metadata"]["name"]
    assert base_service["spec"]["selector"].items() <= data["spec"]["template"]["metadata"]["labels"].items()
    config = objects[("ConfigMap", "paigow-redis-sentinel-config")]["data"]
    redis_conf = directives(config["redis.conf"])
    assert redis_conf["min-replicas-to-write"] == ["1"]
    assert redis_conf["appendonly"] == ["yes"]
    assert redis_conf["maxmemory-policy"] == ["noeviction"]
    pod0 = f"{data['metadata']['name']}-0.{data['spec']['serviceName']}"
    assert f"sentinel monitor paigow {pod0} 6379 2" in config["sentinel.conf"]
    assert pod0 in config["start-redis.sh"]
    settings_patch = next(p["path"] for p in kustomization["patches"] if "path" in p)
    settings = yaml.safe_load((K8S_SENTINEL / settings_patch).read_text())
    assert settings["metadata"]["name"] == "paigow-settings"
    assert not set(settings["data"]) - KNOWN_ENV
    parsed = parse_sentinel_url(settings["data"]["PAIGOW_REDIS_URL"])
    service = sentinels["spec"]["serviceName"]
    assert [host for host, _ in parsed.sentinels] == [f"paigow-sentinel-{i}.{service}" for i in range(3)]
    assert settings["data"]["PAIGOW_REDIS_REPLICA_ACKS"] == "1"


def _local(text: str, folder: Path, replace: dict[str, str]) -> Path:
    for old, new in replace.items():
        text = text.replace(old, new)
    path = folder / "node.conf"
    path.write_text(text)
    return path


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[list[EmbeddedRedis]]:
    started: list[EmbeddedRedis] = []
    yield started
    for node in reversed(started):
        node.stop()


@pytest.mark.failover
def test_the_sentinel_configuration_files_run_and_refuse_writes_without_a_replica(
        tmp_path: Path, nodes: list[EmbeddedRedis]) -> None:
    common = (DEPLOY / "redis.conf").read_text()
    common = re.sub(r"^(bind|port|dir) .*$", "", common, flags=re.MULTILINE)
    (tmp_path / "common.conf").write_text(common)
    include = {"/usr/local/etc/redis/redis.conf": str(tmp_path / "common.conf")}
    primary_port = free_port()
    folders = [tmp_path / name for name in ("a", "b", "s")]
    for folder in folders:
        folder.mkdir()
    primary_conf = _local((SENTINEL / "redis-primary.conf").read_text(), folders[0], include)
    primary = EmbeddedRedis(folders[0], port=primary_port, config_file=primary_conf)
    nodes.append(primary)
    primary.start()
    client = redis.Redis(port=primary_port, socket_timeout=5)
    try:
        assert client.config_get("min-replicas-to-write") == {"min-replicas-to-write": "1"}
        with pytest.raises(redis.ResponseError, match="NOREPLICAS"):
            client.set("k", "v")  # no replica yet: the primary refuses the write
        replica = EmbeddedRedis(folders[1], config_file=_local(
            (SENTINEL / "redis-replica.conf").read_text(), folders[1],
            {**include, "replicaof redis-a 6379": f"replicaof 127.0.0.1 {primary_port}"}))
        nodes.append(replica)
        replica.start()
        sentinel_conf = _local((SENTINEL / "sentinel.conf").read_text(), folders[2],
                               {"redis-a 6379": f"127.0.0.1 {primary_port}", "port 26379": "",
                                "dir /data": ""})
        sentinel = EmbeddedRedis(folders[2], appendonly=False, config_file=sentinel_conf,
                                 extra_args=("--sentinel",))
        nodes.append(sentinel)
        sentinel.start()
        deadline = time.monotonic() + 20
        while True:
            try:
                assert client.set("k", "v")  # the replica is in sync: writes go through
                break
            except redis.ResponseError:
                assert time.monotonic() < deadline, "the replica never came in sync"
                time.sleep(0.1)
        assert client.wait(1, 2000) == 1, "the replica acknowledges the write"
        asked = redis.Redis(port=sentinel.port, socket_timeout=5, decode_responses=True)
        try:
            assert asked.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "paigow") == [
                "127.0.0.1", str(primary_port)]
        finally:
            asked.close()
    finally:
        client.close()
