"""``deploy/grafana/floor-dashboard.json``: valid JSON, every panel on the dashboard's Prometheus datasource
variable, every metric a name the server exports and every ``figure``/``kind`` one it counts."""

from __future__ import annotations

import json
import re
from pathlib import Path

from paigow.ledger.floor_figures import FloorFigures
from paigow_server.process.metrics import Metrics

DASHBOARD = Path(__file__).parents[2] / "deploy" / "grafana" / "floor-dashboard.json"


def _exported() -> tuple[set[str], str]:
    metrics = Metrics()
    metrics.count_floor(FloorFigures(voided=1))
    metrics.count_floor(FloorFigures(rounds=1, handle=1_000, win=-50, theo_micro=27_000_000, commission=25,
                                     fortune_handle=500, fortune_win=500, qd_handle=100, qd_win=-5_000,
                                     player_banked=1, co_banked=1, seated=3))
    metrics.count_floor(FloorFigures(rounds=1, handle=1_000, win=50, fortune_win=-10, qd_win=100))
    metrics.connections.labels(role="player").inc()
    metrics.connections.labels(role="spectator").inc()
    text = metrics.render().decode()
    return {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and line[0] != "#"}, text


def test_the_dashboard_reads_only_what_the_server_exports() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert [v["name"] for v in dashboard["templating"]["list"] if v["type"] == "datasource"] == ["datasource"]
    names, text = _exported()
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(exprs) >= 10
    for panel in dashboard["panels"]:
        assert panel["datasource"]["uid"] == "${datasource}"
        assert all(t["datasource"]["uid"] == "${datasource}" for t in panel["targets"])
    for expr in exprs:
        for metric in re.findall(r"\b(paigow_\w+)\{", expr):
            assert metric in names, metric
        for label, value in re.findall(r'(figure|kind|role)="(\w+)"', expr):
            assert f'{label}="{value}"' in text, (label, value)
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(set(ids)) == len(ids)
