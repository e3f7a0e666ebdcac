// "Always set my hand by the House Way": a setting of this browser (localStorage, table_app.js keeps it), one
// tap on or off, in the setter beside the dealt hand and in the seat's options before the deal.

import { el } from "./api.js";
import { t } from "./i18n.js";

/** The box and what it does; `id`: the box's id (one per panel: the setter's and the seat options' may both show). */
export function alwaysHouseWayToggle(ctx, way, id = "always-house-way") {
  const box = el("input", { type: "checkbox", id, "aria-describedby": `${id}-why`, checked: ctx.alwaysHouseWay ? true : null });
  box.addEventListener("change", () => ctx.setAlwaysHouseWay(box.checked));
  return el("div", { class: "always-hw" },
    el("label", { class: "toggle-line", for: id }, box, " ", t("table:always_house_way.label")),
    el("p", { class: "hint", id: `${id}-why`, text: t("table:always_house_way.why", { way }) }));
}
