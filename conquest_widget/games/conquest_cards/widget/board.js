// The card table of Conquest in the page (an ES module for anywidget; board.py is its kernel
// side).  ui/scene.js comes before it: the scene it draws is synced once, then patched
// with what changed; a click goes back as one message {click: target}.  Every text goes in
// with textContent: nothing from the kernel is ever read as markup.
const SYMBOL = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
const MAX_BACKS = 8;
const FACES = ["J", "Q", "K"];
// the flags of board.py: a card enabled, chosen, dim; a face card a target, the last pile
const ON = 1, CHOSEN = 2, DIM = 4, TARGET = 1, LAST = 2;

// a text of the scene, [key, {field: value}], filled into the template T[key] (0: none)
function fmt(scene, text) {
  if (!Array.isArray(text)) return "";
  const fields = text[1] || {};
  const template = (scene.T || {})[text[0]] || "";
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}

function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null && text !== "") e.textContent = String(text);
  return e;
}

function colour(code) {
  if (code === "JK") return "cwc-joker";
  const suit = code.slice(-1);
  return suit === "H" || suit === "D" ? "cwc-red" : "cwc-black";
}

function label(code, scene) {
  if (code === "JK") return fmt(scene, ["ui_joker"]);
  return code.slice(0, -1) + (SYMBOL[code.slice(-1)] || "?");
}

function button(cls, text, enabled, target, send) {
  const b = node("button", cls, text);
  b.type = "button";
  b.disabled = !enabled;
  if (enabled) b.addEventListener("click", () => send(target));
  return b;
}

function backs(n) {
  const box = node("span", "cwc-backs");
  for (let i = 0; i < Math.min(n, MAX_BACKS); i++) box.appendChild(node("span", "cwc-back"));
  return box;
}

function seatPanel(scene, seat, send) {
  const data = scene["s" + seat];
  const panel = node("div", "cwc-seat cw-seat-panel-" + seat);
  if (!Array.isArray(data)) return panel;
  const [name, you, suit, n, hidden, toAct] = data;
  if (toAct) panel.classList.add("cwc-turn");
  const head = node("div", "cwc-head");
  head.appendChild(node("span", "cwc-name", name));
  head.appendChild(document.createTextNode((you ? " (" + fmt(scene, ["ui_you"]) + ")" : "") + " "));
  head.appendChild(node("b", "", SYMBOL[suit] || ""));
  const count = n === 1 ? fmt(scene, ["ui_card_one"]) : fmt(scene, ["ui_cards", { n }]);
  head.appendChild(document.createTextNode(" \u00b7 " + count));
  if (hidden > 0) head.appendChild(backs(hidden));
  panel.appendChild(head);
  const row = node("div", "cwc-faces");
  const red = suit === "H" || suit === "D";
  for (const face of FACES) {
    const [flags, cards, total] = scene["f" + seat + face] || [0, [], 0];
    const col = node("div", "cwc-col");
    let cls = "cwc-face cw-face-" + seat + "-" + face + (red ? " cwc-red" : " cwc-black");
    if (flags & TARGET) cls += " cwc-target";
    col.appendChild(button(cls, face + (SYMBOL[suit] || ""), flags & TARGET, "face-" + seat + "-" + face, send));
    const pile = node("div", "cwc-pile" + (flags & LAST ? " cwc-last" : ""));
    for (const code of cards) pile.appendChild(node("span", "cwc-c " + colour(code), label(code, scene)));
    col.appendChild(pile);
    col.appendChild(node("div", "cwc-total", cards.length ? fmt(scene, ["ui_total", { total }]) : fmt(scene, ["ui_empty_pile"])));
    row.appendChild(col);
  }
  panel.appendChild(row);
  return panel;
}

function cardRow(scene, cards, prefix, send) {
  const box = node("div", "cwc-hand");
  for (const [code, flags] of cards) {
    let cls = "cwc-card " + colour(code) + " cw-" + prefix + "-" + code;
    if (flags & CHOSEN) cls += " cwc-selected";
    if (flags & DIM) cls += " cwc-dim";
    box.appendChild(button(cls, label(code, scene), flags & ON, prefix + "-" + code, send));
  }
  return box;
}

function draw(scene, send) {
  const root = node("div", "cwc-inner");
  if (!scene || !scene.T) return root;
  const status = node("div", "cwc-status cw-status");
  const head = scene.sh, texts = scene.st, final = scene.sf;
  const text = (texts || []).map((x) => fmt(scene, x)).join(" ");
  if (head) status.appendChild(node("b", "", fmt(scene, head)));
  if (text) status.appendChild(document.createTextNode((head ? " " : "") + text));
  if (final) { status.appendChild(document.createTextNode(" ")); status.appendChild(node("b", "", fmt(scene, final))); }
  root.appendChild(status);
  root.appendChild(node("div", "cwc-msg", scene.msg));
  const recent = node("div", "cwc-recent cw-recent");
  for (const k of scene.rc || []) recent.appendChild(node("div", "", scene["e" + k]));
  root.appendChild(recent);
  const table = node("div", "cwc-table");
  const others = node("div", "cwc-others");
  for (const seat of scene.order || []) others.appendChild(seatPanel(scene, seat, send));
  table.appendChild(others);
  const mid = node("div", "cwc-mid");
  const deck = node("span", "cwc-deck");
  deck.appendChild(backs(Math.min(scene.deck, 3)));
  deck.appendChild(document.createTextNode(" " + fmt(scene, ["ui_deck", { n: scene.deck }])));
  mid.appendChild(deck);
  mid.appendChild(button("cwc-act cw-draw", fmt(scene, ["ui_draw_button", { n: scene.deck }]), scene.draw, "draw", send));
  mid.appendChild(button("cwc-act cw-end-turn", fmt(scene, ["end_turn"]), scene.end, "end-turn", send));
  table.appendChild(mid);
  table.appendChild(seatPanel(scene, scene.me, send));
  table.appendChild(node("div", "cwc-hand-title", scene.v ? fmt(scene, ["hand"]) + " (" + scene.hand.length + ")" : ""));
  table.appendChild(cardRow(scene, scene.hand, "card", send));
  if (scene.recv.length) {
    const area = node("div", "cwc-received");
    area.appendChild(node("div", "cwc-hand-title", fmt(scene, ["ui_received"])));
    area.appendChild(cardRow(scene, scene.recv, "place", send));
    table.appendChild(area);
  }
  root.appendChild(table);
  return root;
}

export default {
  initialize({ model }) {
    return sceneInitialize(model);
  },
  render({ model, el }) {
    el.classList.add("cwc-board");
    return sceneRender(model, el, draw);
  },
};
