// Japan Conquest's side panels in the page (panels.py's JapanPanels is its kernel side, a scene
// widget: this file follows scene.js in one ES module, which merges the kernel's patches into
// the scene and sends a click back as one message {click: target}).  The turn panel, the
// battle panel, the scoreboard and the selected prefecture's info are drawn again from the
// scene after each change.  Every text goes in with textContent (or as a text node): nothing
// from the kernel (a player's name from a save) is ever read as markup.
// the glyphs themselves, not \u escapes: the privacy tests read every number in the state
const DIE_FACES = "⚀⚁⚂⚃⚄⚅";

// an element of class ``cls`` holding ``kids`` (elements, or strings as text)
function el(tag, cls, ...kids) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...kids.filter((k) => k !== null && k !== undefined && k !== "").map((k) => (typeof k === "number" ? String(k) : k)));
  return e;
}

function button(cls, text, on, target, send) {
  const b = el("button", "cw-btn " + cls, text);
  b.type = "button";
  b.disabled = !on;
  if (on) b.addEventListener("click", () => send(target));
  return b;
}

// a template of L filled in one pass (as Python's str.format): "Movement {n}", {n: 6} -> "Movement 6"
const fill = (template, fields) => String(template || "").replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
const DICE_LABELS = ["", "one_die", "double_dice", "triple_dice"];

// dice faces [3, 4] as glyphs with their total: "⚂⚃ = 7"
function dice(faces) {
  const span = el("span", "cw-dice", faces.map((f) => DIE_FACES[f - 1]).join(""));
  span.setAttribute("data-faces", faces.join(","));
  return el("div", "cw-faces", span, " = ", el("b", "", String(faces.reduce((a, b) => a + b, 0))));
}

// a line of parts: strings, ["d", glyphs] (dice), ["b", text] (bold)
function line(parts, cls) {
  return el("div", cls, ...parts.map((p) => (typeof p === "string" ? p
    : el(p[0] === "d" ? "span" : "b", p[0] === "d" ? "cw-dice" : "", String(p[1])))));
}

function turnPanel(s, send) {
  const L = s.L || {};
  const box = el("div", "cw-turn", el("h3", "cw-turn-title", s.ti || ""));
  box.append(el("div", "cw-turn-hint", s.hi ? el("i", "", fill(L.hint_roll, { name: s.hi })) : ""));
  if (s.dc) {
    const choice = el("div", "cw-dice-choice");
    for (const [d, n] of s.dc) {
      const label = fill(L[DICE_LABELS[d]], { n });
      const b = button("cw-dice-" + d + (d === s.ds ? " cw-selected" : ""), label, true, "dice-" + d, send);
      b.setAttribute("aria-pressed", d === s.ds ? "true" : "false");
      choice.append(b);
    }
    box.append(choice, button("cw-roll cw-primary", L.roll, true, "roll", send));
  }
  if (s.fa) box.append(dice(s.fa));
  if (s.mv) {
    const head = el("div", "", el("b", "", fill(L.allowance, { n: s.mv[0] })), " · ", fill(L.remaining, { n: s.mv[1] }));
    const route = el("div", "cw-route", head);
    for (let i = 1; ("r" + i) in s; i++) route.append(el("div", "cw-route-step", s["r" + i]));
    if (s.rh) route.append(el("div", "cw-route-hint", el("i", "", L[s.rh] || "")));
    box.append(route);
  }
  if (s.ac) {
    box.append(el("div", "cw-actions", button("cw-undo", L.undo, s.ac[0], "undo", send),
      button("cw-confirm cw-success", L.confirm, s.ac[1], "confirm", send)));
  }
  const [kind, text] = s.ms || ["e", ""];
  box.append(kind === "w" ? el("div", "cw-wait", el("i", "", text)) : el("div", "cw-msg", text));
  return box;
}

function battlePanel(s, send) {
  const b = s.bt, L = s.L || {};
  const box = el("div", "cw-battle", el("h3", "", "⚔ " + b.h));
  if (b.r) {
    const result = el("div", "cw-battle-result", ...b.r.map((parts) => line(parts, "")), el("div", "cw-battle-winner", b.x));
    result.setAttribute("data-winner", String(b.w));
    box.append(result);
    if (b.ok) box.append(button("cw-battle-ok cw-primary", L.battle_ok, true, "ok", send));
    return box;
  }
  if (b.fa) box.append(dice(b.fa));
  box.append(el("div", "cw-battle-text", b.x));
  box.append(el("div", "cw-battle-dice", ...(b.c || []).map(([d, label]) =>
    button("cw-battle-" + d + " cw-danger", L.battle_roll + ": " + label, true, "battle-" + d, send))));
  return box;
}

function scoreboard(s) {
  const [banner, head] = s.sh;
  const box = el("div", "cw-score");
  if (banner) box.append(el("div", "", el("b", "", banner)));
  const table = el("table", "", el("tr", "", ...head.map((h) => el("th", "", h))));
  for (const seat of s.so || []) {
    const [name, colour] = s["p" + seat], [score, items, regions] = s["s" + seat];
    const swatch = el("span", "cw-swatch");
    swatch.style.background = colour;
    const who = el("span", "cw-name", name);
    who.title = name;
    const row = el("tr", seat === s.cur ? "cw-current" : "", el("td", "", swatch, who), el("td", "cw-total", score),
      el("td", "", items), el("td", "", regions));
    row.setAttribute("data-seat", String(seat));
    table.append(row);
  }
  box.append(table);
  return box;
}

function infoPanel(s) {
  const [code, name, lines] = s.in;
  const box = el("div", "cw-info", el("b", "", name), ...lines.map((x) => el("div", "", x)));
  box.setAttribute("data-code", String(code));
  return box;
}

// the scene keys each panel is drawn from: a panel whose keys did not change keeps its elements
const PANELS = [
  ["turn", /^(L|ti|hi|dc|ds|fa|mv|r\d+|rh|ac|ms)$/, turnPanel, () => true],
  ["battle", /^(L|bt)$/, battlePanel, (s) => s.bt],
  ["score", /^(sh|so|[ps]\d+|cur)$/, scoreboard, (s) => s.sh],
  ["info", /^in$/, infoPanel, (s) => s.in],
];

// a draw function for one view: each panel is built again only when its keys changed
function drawer() {
  const built = {};
  return (s, send) => {
    const parts = s.P || [];
    const root = el("div", "cw-jp");
    if (!s.ti && !s.sh) return root;  // no game shown
    for (const [name, test, build, shown] of PANELS) {
      if (!parts.includes(name) || !shown(s)) continue;
      const mine = JSON.stringify(Object.keys(s).filter((k) => test.test(k)).sort().map((k) => [k, s[k]]));
      if (!built[name] || built[name][0] !== mine) built[name] = [mine, build(s, send)];
      root.append(built[name][1]);
    }
    return root;
  };
}

export default {
  initialize({ model }) { return sceneInitialize(model); },
  render({ model, el }) {
    el.classList.add("cw-japan-panels");
    return sceneRender(model, el, drawer());
  },
};
