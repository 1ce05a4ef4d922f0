// The Codex board in the page (board.py is its kernel side, a scene widget: this file follows
// ui/scene.js in one ES module, which merges the kernel's patches into the scene and sends a
// click back as one message {click: target}).  Every view draws the scene again; the map is
// built once per k and only restyled.  Every text goes in with textContent (or as a text
// node): nothing from the kernel is ever read as markup.
const NS = "http://www.w3.org/2000/svg";
const FACTIONS = ["ember", "tide", "grove", "sun"];
const LETTER = { e: "ember", t: "tide", g: "grove", s: "sun" };
const COLOUR = { ember: "#c0392b", tide: "#2e6fb7", grove: "#2e8b57", sun: "#d4a017" };
const LEGAL = "#ff8f00";
const DIE_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685";
// the map in the page (px): six territories in two rows of three, their numbers above and below
const WIDTH = 600, HEIGHT = 400, MARGIN = 22;

// a text of the scene: a string, a number, [key, {field: text}] filled into the template
// T[key] (or U[key]), or ["+", sep, text...] (the texts joined, the empty ones left out)
function fmt(s, x) {
  if (x === null || x === undefined || x === "") return "";
  if (!Array.isArray(x)) return String(x);
  if (x[0] === "+") return x.slice(2).map((y) => fmt(s, y)).filter((y) => y).join(String(x[1]));
  const f = x[1] || {};
  const t = (s.T || {})[x[0]] ?? (s.U || {})[x[0]] ?? "";
  return t.replace(/\{(\w+)\}/g, (m, k) => (k in f ? fmt(s, f[k]) : m));
}

const money = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

// an element of class ``cls`` holding ``kids`` (elements, or strings as text)
function node(tag, cls, ...kids) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...kids.filter((k) => k !== null && k !== undefined && k !== ""));
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function button(cls, text, on, target, send, faction) {
  const b = node("button", "cw-btn " + cls, text);
  b.type = "button";
  b.disabled = !on;
  if (on) b.addEventListener("click", () => send(target));
  if (faction) Object.assign(b.style, { background: COLOUR[faction], color: "white" });
  return b;
}

// ------------------------------------------------------------ the map
// plot p -> [territory, row, col, x, y] (k x k plots a territory, three territories a row)
function locate(k, p) {
  const y = Math.floor(p / (3 * k)), x = p % (3 * k);
  return [Math.floor(y / k) * 3 + Math.floor(x / k) + 1, (y % k) + 1, (x % k) + 1, x, y];
}

// board.py's plot_style: [fill, fill-opacity, stroke, stroke-width, stroke-dasharray]
function plotStyle(s, p) {
  const [t, r, c] = locate(s.k, p);
  const cell = LETTER[(s["b" + t] || "")[(r - 1) * s.k + c - 1]];
  const pv = s.pv;
  if (pv && pv.p === p) return [COLOUR[pv.f], "0.75", "#000000", 4, "6 3"];
  if (!cell) {
    if (!(s.lg || []).includes(p)) return ["#f4eedd", "0.95", "#b8ad94", 1];
    const f = s.d ? s.d[1] : "";
    return f ? [COLOUR[f], "0.45", LEGAL, 3] : ["#ffe082", "0.8", LEGAL, 3];
  }
  if (pv && pv.rm.includes(p)) return [COLOUR[cell], "0.3", "#d50000", 3, "3 4"];
  return p === s.last ? [COLOUR[cell], "0.92", "#222222", 3] : [COLOUR[cell], "0.92", "#ffffff", 1];
}

// the map: built once per k, its plots restyled in place (a plot keeps its element)
function buildMap(k, send, scene) {
  const a = WIDTH / (3 * k), side = k * a;
  const map = svg("svg", { class: "cw-codex-map", width: WIDTH, height: HEIGHT + 2 * MARGIN,
    viewBox: "0 " + -MARGIN + " " + WIDTH + " " + (HEIGHT + 2 * MARGIN) });
  const plots = [];
  for (let p = 0; p < 6 * k * k; p++) {
    const [t, r, c, x, y] = locate(k, p);
    const path = svg("path", { class: "cw-plot cw-plot-" + t + "-" + r + "-" + c,
      d: "M" + (x * a).toFixed(1) + " " + (y * a).toFixed(1) + "h" + a.toFixed(1) + "v" + a.toFixed(1) + "h-" + a.toFixed(1) + "z" });
    path.addEventListener("click", () => { if ((scene().lg || []).length) send("plot-" + t + "-" + r + "-" + c); });
    plots.push(map.appendChild(path));
  }
  for (let t = 0; t < 6; t++) {
    const x = (t % 3) * side, y = Math.floor(t / 3) * side;
    map.append(svg("rect", { x, y, width: side, height: side, fill: "none", stroke: "#3b2f1e", "stroke-width": 4, "pointer-events": "none" }));
    const label = svg("text", { x: x + side / 2, y: y ? HEIGHT + 17 : -6, "text-anchor": "middle", class: "cw-territory-number" });
    label.textContent = String(t + 1);
    map.append(label);
  }
  return { k, map, plots };
}

function restyle(grid, s) {
  grid.plots.forEach((path, p) => {
    const st = plotStyle(s, p);
    ["fill", "fill-opacity", "stroke", "stroke-width"].forEach((a, i) => path.setAttribute(a, String(st[i])));
    if (st[4]) path.setAttribute("stroke-dasharray", st[4]);
    else path.removeAttribute("stroke-dasharray");
  });
}

// ------------------------------------------------------------ the panels
function dice(s) {
  if (!s.d) return node("div", "cw-dice-box", node("div", "cw-dice cw-dice-none"));
  const [t, f] = s.d;
  const where = fmt(s, ["ui_territory", { territory: t }]);
  const label = fmt(s, [f ? "f_" + f : "ui_joker"]);
  const number = node("span", "cw-die cw-die-number", DIE_FACES[t - 1] || "?");
  const colour = node("span", "cw-die cw-die-colour cw-die-" + (f || "joker"), f ? label.slice(0, 1) : "J");
  number.title = where;
  colour.title = label;
  if (f) colour.style.background = COLOUR[f];
  return node("div", "cw-dice-box", node("div", "cw-dice", number, colour, node("span", "", where + " \u00b7 " + label)));
}

function actions(s, send) {
  const [roll, end, picks] = s.a;
  const box = node("div", "cw-actions");
  if (roll) box.append(button("cw-primary cw-roll", fmt(s, ["ui_roll"]), 1, "roll", send));
  if (end) box.append(button("cw-primary cw-end-turn", fmt(s, ["ui_end_turn"]), 1, "end-turn", send));
  for (const f of picks) box.append(button("cw-share-" + f, fmt(s, ["ui_pick", { name: ["f_" + f] }]), 1, "share-" + f, send, f));
  return box;
}

function previewBox(s, send) {
  const pv = s.pv;
  const text = node("div", "cw-preview", node("b", "", fmt(s, pv.t)), node("div", "", fmt(s, pv.g)));
  for (const r of pv.r.length ? pv.r : [["ui_preview_none_removed"]]) text.append(node("div", pv.r.length ? "cw-preview-removed" : "", fmt(s, r)));
  if (pv.pr.length) {
    const prices = node("div", "cw-preview-prices", fmt(s, ["ui_preview_prices"]) + ": ");
    pv.pr.forEach(([f, old, now], i) => prices.append((i ? "; " : "") + fmt(s, ["f_" + f]) + ": " + money(old) + " \u2192 ", node("b", "", money(now))));
    text.append(prices);
  }
  const table = node("table", "cw-preview-cash");
  for (const [seat, change, balance, why] of pv.c) {
    const tr = node("tr", "", node("td", "", (s["pn" + seat] || ["?"])[0]),
      node("td", "cw-num " + (change > 0 ? "cw-up" : change < 0 ? "cw-down" : ""), node("b", "", (change >= 0 ? "+" : "") + money(change))),
      node("td", "cw-num", "\u2192 " + money(balance)), node("td", "", node("small", "", fmt(s, why))));
    tr.dataset.seat = String(seat);
    table.append(tr);
  }
  text.append(table);
  if (pv.fo) text.append(node("div", "cw-preview-forced", fmt(s, pv.fo)));
  if (pv.e) text.append(node("b", "cw-preview-end", fmt(s, pv.e)));
  return node("div", "cw-dialog cw-preview-box", text, node("div", "cw-row",
    button("cw-ok cw-confirm", fmt(s, ["ui_confirm"]), 1, "confirm", send),
    button("cw-cancel", fmt(s, ["ui_cancel"]), 1, "cancel", send)));
}

function jokerBox(s, send) {
  const [question, options] = s.jk;
  const row = node("div", "cw-row", ...options.map((f) => button("cw-joker-" + f, fmt(s, ["f_" + f]), 1, "joker-" + f, send, f)),
    button("cw-joker-cancel", fmt(s, ["ui_cancel"]), 1, "joker-cancel", send));
  return node("div", "cw-dialog cw-joker", node("b", "", fmt(s, question)), row);
}

function forcedBox(s, send) {
  const [title, sells] = s.fs;
  const row = node("div", "cw-row", ...sells.map(([f, label]) => button("cw-danger cw-forced-" + f, fmt(s, label), 1, "forced-" + f, send)));
  return node("div", "cw-dialog cw-forced", node("b", "cw-warn", fmt(s, title)), row);
}

// a price history (in thousands) as a step chart
function sparkline(values, colour, title) {
  const w = 110, h = 28, top = Math.max(1, ...values), n = Math.max(values.length - 1, 1);
  const pts = [];
  let last = null;
  values.forEach((v, i) => {
    const x = (2 + (w - 4) * i / n).toFixed(1), y = (h - 2 - (h - 4) * v / top).toFixed(1);
    if (last !== null) pts.push(x + "," + last);
    pts.push(x + "," + y);
    last = y;
  });
  const chart = svg("svg", { class: "cw-spark", width: w, height: h, viewBox: "0 0 " + w + " " + h });
  const t = chart.appendChild(svg("title", {}));
  t.textContent = title;
  chart.append(svg("polyline", { fill: "none", stroke: colour, "stroke-width": 2, points: pts.join(" ") }));
  return chart;
}

function market(s, send) {
  const box = node("div", "cw-market", node("b", "", fmt(s, ["ui_market"])),
    node("div", "cw-purchases-left", fmt(s, ["ui_purchases_left", { n: s.pl }])));
  for (const f of FACTIONS) {
    const [price, listed, left, buy, sell] = s["m_" + f];
    const swatch = node("span", "cw-swatch");
    swatch.style.background = COLOUR[f];
    const info = node("div", "cw-faction cw-faction-" + f, swatch,
      node("span", "cw-fname", node("b", "", fmt(s, ["f_" + f])), node("small", "", fmt(s, ["ui_supply", { left }]))),
      node("span", "cw-price", listed ? money(price) : fmt(s, ["ui_unlisted"])),
      sparkline(s["h_" + f], COLOUR[f], fmt(s, ["ui_history"])));
    const label = (key, amount) => fmt(s, [key]) + (listed ? " " + money(amount) : "");
    box.append(node("div", "cw-market-row cw-market-" + f, info,
      button("cw-buy-" + f, label("ui_buy", price), buy, "buy-" + f, send),
      button("cw-sell-" + f, label("ui_sell", Math.floor(price / 2)), sell, "sell-" + f, send)));
  }
  box.append(node("div", "cw-market-players", players(s)));
  return box;
}

function players(s) {
  const head = node("tr", "", node("th", "", fmt(s, ["ui_player"])), node("th", "", fmt(s, ["ui_cash"])));
  for (const f of FACTIONS) {
    const th = head.appendChild(node("th", "", "\u25a0"));
    th.title = fmt(s, ["f_" + f]);
    th.style.color = COLOUR[f];
  }
  head.append(node("th", "", fmt(s, ["ui_wealth"])));
  const table = node("table", "cw-players", head);
  for (let seat = 0; seat < s.np; seat++) {
    const [name, colour] = s["pn" + seat];
    const [cash, shares, wealth, out] = s["p" + seat];
    const now = seat === s.cur;
    const dot = node("span", "", "\u25cf");
    dot.style.color = colour;
    const who = node("td", "", dot, " " + (now ? "\u25b6 " : ""), node(out ? "s" : "span", "", name),
      out ? node("small", "", " (" + fmt(s, ["ui_eliminated"]) + ")") : "");
    const tr = node("tr", now ? "cw-current" : "", who, node("td", "cw-num cw-cash", money(cash)),
      ...shares.map((n) => node("td", "cw-mid", String(n))), node("td", "cw-num cw-wealth", node("b", "", money(wealth))));
    tr.dataset.seat = String(seat);
    table.append(tr);
  }
  return table;
}

function panels(s, send, map) {
  const side = node("div", "cw-side", s.pv ? previewBox(s, send) : "", s.jk ? jokerBox(s, send) : "",
    s.fs ? forcedBox(s, send) : "", market(s, send));
  return node("div", "cw-cx", node("div", "cw-status", node("h4", "", fmt(s, s.st))),
    node("div", "cw-top", dice(s), actions(s, send)), node("div", "cw-board-message", fmt(s, s.msg)),
    node("div", "cw-main", map, side));
}

export default {
  initialize({ model }) {
    return sceneInitialize(model);
  },
  render({ model, el }) {
    const scene = () => model.get("scene") || {};
    let grid = null;
    return sceneRender(model, el, (s, send) => {
      if (!s.T) return node("div");
      if (!grid || grid.k !== s.k) grid = buildMap(s.k, send, scene);
      restyle(grid, s);
      // the controller's version: a browser test that sees it sees that version drawn
      for (const c of [...el.classList]) if (c.startsWith("cw-v-") && c !== "cw-v-" + s.v) el.classList.remove(c);
      el.classList.add("cw-v-" + s.v);
      return panels(s, send, grid.map);
    });
  },
};
