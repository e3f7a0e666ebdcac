// The floor's charts (operator_floor.js): uPlot, vendored (client_web/vendor/README.md), drawn as wide as the
// box that holds them (a ResizeObserver sizes them again when the box changes: a phone turned, a window
// resized), each with its legend in the catalog's words beside it and its figures in a <table> with a caption
// under it (folded in a <details>): the chart is a picture of the table, named as such for a screen reader.
// Numbers, money and times on the axes through Intl, in the page's language; times in the answer's time zone.

import uPlot from "../vendor/uplot/uPlot.esm.js";
import { el } from "./api.js";
import { locale, t } from "./i18n.js";

/** The colours, readable on the console's dark panels (base.css), told apart by shape too: a theoretical
 * line is dashed, a band is a filled area, handle is bars. */
export const COLOURS = {
  gold: "#e8c46a",
  blue: "#7cc7ff",
  green: "#5ee08b",
  band: "rgba(124, 199, 255, 0.18)",
  bandEdge: "rgba(124, 199, 255, 0.5)",
  bars: "rgba(94, 224, 139, 0.45)",
};
const AXIS = { stroke: "#b9b3a2", grid: "rgba(255, 255, 255, 0.08)", ticks: "rgba(255, 255, 255, 0.15)" };
const FONT = '12px "DejaVu Sans", system-ui, sans-serif';
const DAY = 86_400_000;

const COMPACT_MONEY = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 1 });
const COMPACT = new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 1 });

/** Axis numbers: dollars (compact: "$1.2K") or counts. */
const axisNumber = (kind) => (v) => (kind === "money" ? COMPACT_MONEY.format(v) : COMPACT.format(v)).replace("-", "−");

/** Times of a window in its zone: a minute's or hour's point by its time (with the day when the window spans
 * days), a day's by its date. */
function timeFormat(zone, bucketMs, spanMs) {
  const options = bucketMs >= DAY ? { month: "short", day: "numeric" }
    : spanMs > DAY ? { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" } : { hour: "numeric", minute: "2-digit" };
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
}

/** The time axis's labels: a tick at midnight in a window of days by its date alone ("Dec 3"), another by
 * ``fmt``; a label that would run past either end of the chart left out (uPlot centres each on its tick). */
function timeLabels(fmt, zone) {
  const date = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: zone });
  // Never shown: it only tells a midnight tick ("00:00") from another.
  const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone });
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = FONT;
  return (self, splits) => splits.map((s) => {
    const at = new Date(s * 1000);
    const text = fmt.resolvedOptions().day && clock.format(at) === "00:00" ? date.format(at) : fmt.format(at);
    const x = self.bbox.left / uPlot.pxRatio + self.valToPos(s, "x");
    const half = measure.measureText(text).width / 2;
    return x - half < 0 || x + half > self.width ? null : text;
  });
}

/** The width a y axis needs for its longest label. */
function axisSize(self, values, axisIdx, cycleNum) {
  const axis = self.axes[axisIdx];
  if (cycleNum > 1) return axis._size; // settled: no new round of sizing
  self.ctx.font = FONT;
  const widest = Math.max(0, ...(values ?? []).map((v) => self.ctx.measureText(v).width));
  return Math.ceil(widest + axis.ticks.size + axis.gap * 2 + 4);
}

function yAxis(kind, side = 3) {
  return { scale: kind === "right" ? "right" : "y", side, font: FONT, stroke: AXIS.stroke, size: axisSize,
    grid: { show: side === 3, stroke: AXIS.grid, width: 1 }, ticks: { stroke: AXIS.ticks, width: 1 } };
}

/**
 * The uPlot options of a chart: ``series`` [{key, label, colour, dash?, fill?, bars?, right?}], ``band`` the
 * keys of its low and high edges, the y axes' kinds ("money" | "count"), the x axis's time format.
 */
function options(spec, fmt, zone, width, height, data) {
  const series = [{}];
  for (const [i, s] of spec.series.entries()) {
    series.push({ label: s.label, stroke: s.colour, width: s.width ?? 2, dash: s.dash, fill: s.fill,
      scale: s.right ? "right" : "y", points: { show: !s.bars && isolated(data[i + 1]), size: 6, fill: s.colour },
      paths: s.bars ? uPlot.paths.bars({ size: [0.7, 40] }) : undefined });
  }
  const at = (key) => spec.series.findIndex((s) => s.key === key) + 1;
  const axes = [{ font: FONT, stroke: AXIS.stroke, space: 90, grid: { stroke: AXIS.grid, width: 1 },
    ticks: { stroke: AXIS.ticks, width: 1 }, values: timeLabels(fmt, zone) },
  { ...yAxis("y"), values: (self, splits) => splits.map(axisNumber(spec.y)) }];
  if (spec.right) axes.push({ ...yAxis("right", 1), values: (self, splits) => splits.map(axisNumber(spec.right)) });
  return {
    width, height, series, axes,
    bands: spec.band ? [{ series: [at(spec.band[1]), at(spec.band[0])], fill: COLOURS.band }] : [],
    scales: { x: { time: true }, right: { auto: true } },
    legend: { show: false }, // the legend is the page's own, in the catalog's words
    cursor: { show: false },
    select: { show: false },
  };
}

/** Whether a line has a point with no neighbour to join (a minute with rounds between minutes without):
 * then its points are drawn, or it would not show at all. */
const isolated = (values) => values.some((v, i) => v != null && values[i - 1] == null && values[i + 1] == null);

/** A chart's height for its width: wide and low on a laptop, taller than half its width on a phone. */
const heightFor = (width) => Math.round(Math.min(300, Math.max(190, width * 0.42)));

/** The legend: a swatch drawn like its line (solid, dashed, a band, bars) and the catalog's words. */
function legend(spec) {
  return el("ul", { class: "floor-legend" }, ...spec.series.filter((s) => !s.edge).map((s) => el("li", {},
    el("span", { class: `swatch ${s.swatch}`, "aria-hidden": "true" }), s.label)));
}

/** The chart's figures as a table: a caption, the time and each series' value, formatted as the page says them. */
function dataTable(spec, rows, fmt) {
  const head = el("tr", {}, el("th", { scope: "col", text: t("console:floor.col.time") }),
    ...spec.columns.map((c) => el("th", { scope: "col", class: "num", text: c.label })));
  const body = rows.map((r) => el("tr", {}, el("th", { scope: "row", class: "nowrap", text: fmt.format(new Date(r.start_ms)) }),
    ...spec.columns.map((c) => el("td", { class: "num", "data-label": c.label, "data-key": c.key, text: c.format(r[c.key]) }))));
  return el("details", { class: "floor-data" },
    el("summary", { text: t("console:floor.data.show") }),
    el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("console:floor.data.region", { chart: spec.title }) },
      el("table", { class: "data stack", id: `${spec.id}-table` },
        el("caption", { text: spec.caption }), el("thead", {}, head), el("tbody", {}, ...body))));
}

const plots = new Map();

/** Draw (or draw again) the chart ``spec`` of ``rows`` (the answer's series) into its figure in ``host``;
 * ``zone`` and ``bucketMs`` as the answer gives them. */
export function drawChart(host, spec, rows, { zone, bucketMs, spanMs }) {
  plots.get(spec.id)?.destroy();
  const fmt = timeFormat(zone, bucketMs, spanMs);
  const box = el("div", { class: "floor-chart", id: spec.id, role: "img", "aria-label": t("console:floor.chart.label", { chart: spec.title }) });
  const open = host.querySelector(`#${spec.id}-table`)?.closest("details")?.open ?? false;
  const figure = el("figure", { class: "floor-figure", "data-chart": spec.id },
    el("figcaption", {}, el("h3", { text: spec.title }), el("p", { class: "hint", text: spec.hint })),
    legend(spec), box, dataTable(spec, rows, fmt));
  figure.querySelector("details").open = open;
  const old = host.querySelector(`[data-chart="${spec.id}"]`);
  if (old) old.replaceWith(figure);
  else host.append(figure);
  const data = [rows.map((r) => r.start_ms / 1000), ...spec.series.map((s) => rows.map((r) => s.value(r)))];
  const width = Math.max(200, box.clientWidth);
  const plot = new uPlot(options(spec, fmt, zone, width, heightFor(width), data), data, box);
  let drawn = width;
  const observer = new ResizeObserver(() => {
    const w = Math.floor(box.clientWidth);
    if (w > 0 && Math.abs(w - drawn) >= 2) {
      drawn = w;
      plot.setSize({ width: w, height: heightFor(w) });
    }
  });
  observer.observe(box);
  const destroy = plot.destroy.bind(plot);
  plot.destroy = () => { observer.disconnect(); destroy(); };
  plots.set(spec.id, plot);
}

