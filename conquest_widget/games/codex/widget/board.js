// The Codex board in the page (an ES module for anywidget; board.py is its kernel side).
// The kernel syncs ``scene`` once, then sends only what changed as a custom message
// {patch: {key: value}, drop: [key]}; this module merges it into the model's scene (never
// sent back: the kernel ignores a scene from the page) and every view draws it again.  A
// click goes back as one message {click: target}.  Every text goes in with textContent:
// nothing from the kernel is ever read as markup.
const SVG = "http://www.w3.org/2000/svg";
const FACTIONS = ["ember", "tide", "grove", "sun"];
const LETTER = { e: "ember", t: "tide", g: "grove", s: "sun" };
const COLOUR = { ember: "#c0392b", tide: "#2e6fb7", grove: "#2e8b57", sun: "#d4a017" };
// board.py's plot_style: empty, lit, Joker, conquered
const EMPTY_FILL = "#f4eedd", LEGAL = "#ff8f00", JOKER_FILL = "#ffe082", REMOVE = "#d50000", BORDER = "#3b2f1e";
const DIE_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685";
// the board's size in the page (px): six territories in two rows of three, numbers above and below
const WIDTH = 600, HEIGHT = 400, MARGIN = 22;

// a text of the scene: a string, a number, [key, {field: text}] filled into the template
// T[key], or ["+", sep, text...] (the texts joined, the empty ones left out); null: none
function fmt(scene, text) {
  if (text === null || text === undefined || text === "") return "";
  if (typeof text === "string" || typeof text === "number") return String(text);
  if (!Array.isArray(text)) return "";
  if (text[0] === "+") return text.slice(2).map((x) => fmt(scene, x)).filter((x) => x).join(String(text[1]));
  const fields = text[1] || {};
  const template = (scene.T || {})[text[0]] || "";
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? fmt(scene, fields[k]) : m));
}

function money(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function signed(n) {
  return (n >= 0 ? "+" : "") + money(n);
}

function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null && text !== "") e.textContent = String(text);
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  return e;
}

function button(cls, text, enabled, target, send) {
  const b = node("button", "cw-btn " + cls, text);
  b.type = "button";
  b.disabled = !enabled;
  if (enabled) b.addEventListener("click", () => send(target));
  return b;
}

function factionButton(cls, text, faction, target, send) {
  const b = button(cls, text, true, target, send);
  b.style.background = COLOUR[faction];
  b.style.color = "white";
  return b;
}

// ------------------------------------------------------------ the grid
// plot p -> [territory, row, col, x, y] (k x k plots a territory, 3 territories a row)
function locate(k, p) {
  const w = 3 * k, y = Math.floor(p / w), x = p % w;
  return [Math.floor(y / k) * 3 + Math.floor(x / k) + 1, (y % k) + 1, (x % k) + 1, x, y];
}

function plotStyle(scene, p) {
  const k = scene.k;
  const [t, r, c] = locate(k, p);
  const cell = LETTER[(scene["b" + t] || "")[(r - 1) * k + (c - 1)]];
  const pv = scene.pv;
  if (pv && pv.p === p) return [COLOUR[pv.f], "0.75", "#000000", 4, "6 3"];
  if (!cell) {
    if ((scene.lg || []).includes(p)) {
      const faction = scene.d ? scene.d[1] : "";
      return faction ? [COLOUR[faction], "0.45", LEGAL, 3, null] : [JOKER_FILL, "0.8", LEGAL, 3, null];
    }
    return [EMPTY_FILL, "0.95", "#b8ad94", 1, null];
  }
  if (pv && (pv.rm || []).includes(p)) return [COLOUR[cell], "0.3", REMOVE, 3, "3 4"];
  const last = p === scene.last;
  return [COLOUR[cell], "0.92", last ? "#222222" : "#ffffff", last ? 3 : 1, null];
}

// the map: built once per k, its plots restyled in place (a click on a plot is never lost
// to a redraw)
function buildMap(k, send, getScene) {
  const size = WIDTH / (3 * k);
  const map = svg("svg", { class: "cw-codex-map", width: WIDTH, height: HEIGHT + 2 * MARGIN,
    viewBox: "0 " + -MARGIN + " " + WIDTH + " " + (HEIGHT + 2 * MARGIN) });
  const plots = [];
  for (let p = 0; p < 6 * k * k; p++) {
    const [t, r, c, x, y] = locate(k, p);
    const path = svg("path", { class: "cw-plot cw-plot-" + t + "-" + r + "-" + c,
      d: "M" + (x * size).toFixed(1) + " " + (y * size).toFixed(1) + "h" + size.toFixed(1) + "v" + size.toFixed(1)
        + "h" + (-size).toFixed(1) + "z" });
    path.addEventListener("click", () => {
      const scene = getScene();
      if (scene && (scene.lg || []).length) send("plot-" + t + "-" + r + "-" + c);
    });
    map.appendChild(path);
    plots.push(path);
  }
  for (let t = 1; t <= 6; t++) {
    const tr = Math.floor((t - 1) / 3), tc = (t - 1) % 3, side = k * size;
    map.appendChild(svg("rect", { x: tc * side, y: tr * side, width: side, height: side, fill: "none",
      stroke: BORDER, "stroke-width": 4, "pointer-events": "none" }));
    const label = svg("text", { x: tc * side + side / 2, y: tr === 0 ? -6 : HEIGHT + 17, "text-anchor": "middle",
      class: "cw-territory-number" });
    label.textContent = String(t);
    map.appendChild(label);
  }
  return { k, map, plots };
}

function restyle(grid, scene) {
  grid.plots.forEach((path, p) => {
    const [fill, opacity, stroke, width, dash] = plotStyle(scene, p);
    path.setAttribute("fill", fill);
    path.setAttribute("fill-opacity", opacity);
    path.setAttribute("stroke", stroke);
    path.setAttribute("stroke-width", String(width));
    if (dash) path.setAttribute("stroke-dasharray", dash);
    else path.removeAttribute("stroke-dasharray");
  });
}

// ------------------------------------------------------------ the panels
function dice(scene) {
  const box = node("div", "cw-dice-box");
  if (!scene.d) {
    box.appendChild(node("div", "cw-dice cw-dice-none"));
    return box;
  }
  const [t, faction] = scene.d;
  const row = node("div", "cw-dice");
  const number = node("span", "cw-die cw-die-number", DIE_FACES[t - 1] || "?");
  number.title = fmt(scene, ["ui_territory", { territory: t }]);
  row.appendChild(number);
  const label = faction ? fmt(scene, ["f_" + faction]) : fmt(scene, ["ui_joker"]);
  const colour = node("span", "cw-die cw-die-colour cw-die-" + (faction || "joker"), faction ? label.slice(0, 1) : "J");
  colour.title = label;
  if (faction) colour.style.background = COLOUR[faction];
  row.appendChild(colour);
  row.appendChild(node("span", "cw-dice-text", fmt(scene, ["ui_territory", { territory: t }]) + " \u00b7 " + label));
  box.appendChild(row);
  return box;
}

function actions(scene, send) {
  const box = node("div", "cw-actions");
  const [roll, end, picks] = scene.a || [0, 0, []];
  if (roll) box.appendChild(button("cw-primary cw-roll", fmt(scene, ["ui_roll"]), true, "roll", send));
  if (end) box.appendChild(button("cw-primary cw-end-turn", fmt(scene, ["ui_end_turn"]), true, "end-turn", send));
  for (const f of picks || []) {
    box.appendChild(factionButton("cw-share-" + f, fmt(scene, ["ui_pick", { name: ["f_" + f] }]), f, "share-" + f, send));
  }
  return box;
}

function previewBox(scene, send) {
  const pv = scene.pv;
  const box = node("div", "cw-dialog cw-preview-box");
  const text = node("div", "cw-preview");
  text.appendChild(node("b", "", fmt(scene, pv.t)));
  text.appendChild(node("div", "", fmt(scene, pv.g)));
  if ((pv.r || []).length) for (const r of pv.r) text.appendChild(node("div", "cw-preview-removed", fmt(scene, r)));
  else text.appendChild(node("div", "", fmt(scene, ["ui_preview_none_removed"])));
  if ((pv.pr || []).length) {
    const prices = node("div", "cw-preview-prices", fmt(scene, ["ui_preview_prices"]) + ": ");
    pv.pr.forEach(([f, old, now], i) => {
      prices.appendChild(document.createTextNode((i ? "; " : "") + fmt(scene, ["f_" + f]) + ": " + money(old) + " \u2192 "));
      prices.appendChild(node("b", "", money(now)));
    });
    text.appendChild(prices);
  }
  const table = node("table", "cw-preview-cash");
  for (const [seat, change, balance, detail] of pv.c || []) {
    const tr = node("tr");
    tr.dataset.seat = String(seat);
    tr.appendChild(node("td", "", (scene["pn" + seat] || ["?"])[0]));
    const cell = node("td", "cw-num " + (change > 0 ? "cw-up" : change < 0 ? "cw-down" : ""));
    cell.appendChild(node("b", "", signed(change)));
    tr.appendChild(cell);
    tr.appendChild(node("td", "cw-num", "\u2192 " + money(balance)));
    const why = node("td");
    why.appendChild(node("small", "", fmt(scene, detail)));
    tr.appendChild(why);
    table.appendChild(tr);
  }
  text.appendChild(table);
  if (pv.fo) text.appendChild(node("div", "cw-preview-forced", fmt(scene, pv.fo)));
  if (pv.e) text.appendChild(node("b", "cw-preview-end", fmt(scene, pv.e)));
  box.appendChild(text);
  const row = node("div", "cw-row");
  row.appendChild(button("cw-ok cw-confirm", fmt(scene, ["ui_confirm"]), true, "confirm", send));
  row.appendChild(button("cw-cancel", fmt(scene, ["ui_cancel"]), true, "cancel", send));
  box.appendChild(row);
  return box;
}

function jokerBox(scene, send) {
  const [question, options] = scene.jk;
  const box = node("div", "cw-dialog cw-joker");
  box.appendChild(node("b", "", fmt(scene, question)));
  const row = node("div", "cw-row");
  for (const f of options) row.appendChild(factionButton("cw-joker-" + f, fmt(scene, ["f_" + f]), f, "joker-" + f, send));
  row.appendChild(button("cw-joker-cancel", fmt(scene, ["ui_cancel"]), true, "joker-cancel", send));
  box.appendChild(row);
  return box;
}

function forcedBox(scene, send) {
  const [title, sells] = scene.fs;
  const box = node("div", "cw-dialog cw-forced");
  box.appendChild(node("b", "cw-warn", fmt(scene, title)));
  const row = node("div", "cw-row");
  for (const [f, label] of sells) row.appendChild(button("cw-danger cw-forced-" + f, fmt(scene, label), true, "forced-" + f, send));
  box.appendChild(row);
  return box;
}

function sparkline(values, colour, title) {
  const w = 110, h = 28;
  const top = Math.max(1, ...values);
  const n = Math.max(values.length - 1, 1);
  const pts = [];
  let lastY = null;
  values.forEach((v, i) => {
    const x = (2 + (w - 4) * i / n).toFixed(1), y = (h - 2 - (h - 4) * v / top).toFixed(1);
    if (lastY !== null) pts.push(x + "," + lastY);
    pts.push(x + "," + y);
    lastY = y;
  });
  const s = svg("svg", { class: "cw-spark", width: w, height: h, viewBox: "0 0 " + w + " " + h });
  const t = svg("title");
  t.textContent = title;
  s.appendChild(t);
  s.appendChild(svg("polyline", { fill: "none", stroke: colour, "stroke-width": 2, points: pts.join(" ") }));
  return s;
}

function market(scene, send) {
  const box = node("div", "cw-market");
  box.appendChild(node("b", "", fmt(scene, ["ui_market"])));
  box.appendChild(node("div", "cw-purchases-left", fmt(scene, ["ui_purchases_left", { n: scene.pl }])));
  for (const f of FACTIONS) {
    const [price, listed, left, buy, sell] = scene["m_" + f] || [0, 0, 0, 0, 0];
    const row = node("div", "cw-market-row cw-market-" + f);
    const info = node("div", "cw-faction cw-faction-" + f);
    const swatch = node("span", "cw-swatch");
    swatch.style.background = COLOUR[f];
    info.appendChild(swatch);
    const name = node("span", "cw-fname");
    name.appendChild(node("b", "", fmt(scene, ["f_" + f])));
    name.appendChild(node("small", "", fmt(scene, ["ui_supply", { left }])));
    info.appendChild(name);
    info.appendChild(node("span", "cw-price", listed ? money(price) : fmt(scene, ["ui_unlisted"])));
    info.appendChild(sparkline(scene["h_" + f] || [0], COLOUR[f], fmt(scene, ["ui_history"])));
    row.appendChild(info);
    const label = (key, amount) => fmt(scene, [key]) + (listed ? " " + money(amount) : "");
    row.appendChild(button("cw-buy-" + f, label("ui_buy", price), buy, "buy-" + f, send));
    row.appendChild(button("cw-sell-" + f, label("ui_sell", Math.floor(price / 2)), sell, "sell-" + f, send));
    box.appendChild(row);
  }
  box.appendChild(players(scene));
  return box;
}

function players(scene) {
  const box = node("div", "cw-market-players");
  const table = node("table", "cw-players");
  const head = node("tr");
  head.appendChild(node("th", "", fmt(scene, ["ui_player"])));
  head.appendChild(node("th", "", fmt(scene, ["ui_cash"])));
  for (const f of FACTIONS) {
    const th = node("th", "", "\u25a0");
    th.title = fmt(scene, ["f_" + f]);
    th.style.color = COLOUR[f];
    head.appendChild(th);
  }
  head.appendChild(node("th", "", fmt(scene, ["ui_wealth"])));
  table.appendChild(head);
  for (let seat = 0; seat < (scene.np || 0); seat++) {
    const [name, colour] = scene["pn" + seat] || ["?", "#888888"];
    const [cash, shares, wealth, out] = scene["p" + seat] || [0, [], 0, 0];
    const tr = node("tr", seat === scene.cur ? "cw-current" : "");
    tr.dataset.seat = String(seat);
    const who = node("td");
    const dot = node("span", "", "\u25cf");
    dot.style.color = colour;
    who.appendChild(dot);
    who.appendChild(document.createTextNode(" " + (seat === scene.cur ? "\u25b6 " : "")));
    who.appendChild(node(out ? "s" : "span", "", name));
    if (out) who.appendChild(node("small", "", " (" + fmt(scene, ["ui_eliminated"]) + ")"));
    tr.appendChild(who);
    tr.appendChild(node("td", "cw-num cw-cash", money(cash)));
    for (const n of shares) tr.appendChild(node("td", "cw-mid", n));
    const w = node("td", "cw-num cw-wealth");
    w.appendChild(node("b", "", money(wealth)));
    tr.appendChild(w);
    table.appendChild(tr);
  }
  box.appendChild(table);
  return box;
}

function panels(scene, send, map) {
  const root = node("div", "cw-cx");
  const status = node("div", "cw-status");
  status.appendChild(node("h4", "", fmt(scene, scene.st)));
  root.appendChild(status);
  const top = node("div", "cw-top");
  top.appendChild(dice(scene));
  top.appendChild(actions(scene, send));
  root.appendChild(top);
  root.appendChild(node("div", "cw-board-message", fmt(scene, scene.msg)));
  const main = node("div", "cw-main");
  main.appendChild(map);
  const side = node("div", "cw-side");
  if (scene.pv) side.appendChild(previewBox(scene, send));
  if (scene.jk) side.appendChild(jokerBox(scene, send));
  if (scene.fs) side.appendChild(forcedBox(scene, send));
  side.appendChild(market(scene, send));
  main.appendChild(side);
  root.appendChild(main);
  return root;
}

export default {
  initialize({ model }) {
    // a patch applies only to the scene of the redraw before it (n); one sent before this
    // module listened is lost: then the page says which scene it has ({have: n}) and the
    // kernel sends the whole scene again
    let asked = false;
    const onMessage = (msg) => {
      if (!msg || typeof msg !== "object") return;
      if (msg.scene && typeof msg.scene === "object") {
        asked = false;
        model.set("scene", msg.scene);
        return;
      }
      if (typeof msg.patch !== "object" || msg.patch === null) return;
      const old = model.get("scene") || {};
      if (msg.patch.n !== (old.n || 0) + 1) {
        if (!asked) { asked = true; model.send({ have: old.n || 0 }); }
        return;
      }
      const scene = Object.assign({}, old, msg.patch);
      for (const key of msg.drop || []) delete scene[key];
      model.set("scene", scene);  // this page only: the kernel keeps the scene it wrote
    };
    model.on("msg:custom", onMessage);
    model.send({ have: (model.get("scene") || {}).n || 0 });
    return () => model.off("msg:custom", onMessage);
  },
  render({ model, el }) {
    el.classList.add("cw-cx-board");
    const send = (target) => model.send({ click: target });
    const getScene = () => model.get("scene");
    let grid = null;
    const redraw = () => {
      const scene = getScene();
      if (!scene || !scene.T) return;
      if (!grid || grid.k !== scene.k) grid = buildMap(scene.k, send, getScene);
      restyle(grid, scene);
      el.replaceChildren(panels(scene, send, grid.map));
      // the controller's version, set last: a browser test that sees it sees that version drawn
      for (const c of [...el.classList]) if (c.startsWith("cw-v-") && c !== "cw-v-" + scene.v) el.classList.remove(c);
      el.classList.add("cw-v-" + scene.v);
    };
    model.on("change:scene", redraw);
    redraw();
    return () => model.off("change:scene", redraw);
  },
};
