// The side panels of the Japanese Risk board in the page (an ES module for anywidget; panels.py
// and panel_scene.py are its kernel side).  scene.js comes before it: the scene it draws is
// synced once, then patched with what changed; a click goes back as one message
// {click: target}, a field's new value as {click: "<name>:<value>"}.  Every text goes in with
// textContent: nothing from the kernel is ever read as markup.
const DICE = ["\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
// a die hits on this face or lower: the sea dice and the defence on 4, the attack on 3
const SEA_HIT = 4, ATTACK_HIT = 3, DEFENCE_HIT = 4;
// the buttons' looks (as the ipywidgets buttons they replace)
const LOOK = { "place-confirm": "primary", "end-turn": "primary", "commit-all": "primary", hold: "primary",
  launch: "danger", strike: "danger" };

const RISK_FIELD = /\{(\w+)(?:\|([\w ]+))?\}/g;

// a text of the scene (panel_scene.py fmt): a string; ["+", text, ...] one after the other;
// [key, {field: value}] the template T[key] filled in, {field|noun} a count and its noun;
// [key, [value, ...]] the same, the values of the fields in the order they first appear;
// ["%", kind, n, castle, win, ea, ed] a line of exact odds (integers: win in tenths of a
// percent, ea and ed in hundredths) in the templates named by Q (panel_scene.py ODDS)
function riskText(scene, text) {
  if (typeof text === "string") return text;
  if (!Array.isArray(text) || !text.length) return text === undefined || text === null ? "" : String(text);
  if (text[0] === "+") return text.slice(1).map((x) => riskText(scene, x)).join("");
  if (text[0] === "%") {
    const [, kind, n, castle, win, ea, ed] = text;
    const q = Array.isArray(scene.Q) ? scene.Q : [];
    const line = riskText(scene, [q[0], { n, castle: castle ? [q[1]] : "", win: (win / 10).toFixed(1) + "%",
      ea: (ea / 100).toFixed(2), ed: (ed / 100).toFixed(2) }]);
    const prefix = kind === 1 ? [q[2]] : kind === 2 ? [q[3], { n }] : null;
    return prefix ? riskText(scene, prefix) + ": " + line : line;
  }
  const template = (scene.T || {})[text[0]] || "";
  let fields = text[1] || {};
  if (Array.isArray(fields)) {
    const names = [...new Set([...template.matchAll(RISK_FIELD)].map((m) => m[1]))];
    const values = fields;
    fields = {};
    names.forEach((name, i) => { if (i < values.length) fields[name] = values[i]; });
  }
  return template.replace(RISK_FIELD, (m, name, noun) => {
    if (!(name in fields)) return m;
    const value = fields[name];
    if (noun !== undefined) {
      const [one, many] = (scene.N || {})[noun] || [noun, noun];
      return value + " " + (value === 1 ? one : many);
    }
    return Array.isArray(value) ? riskText(scene, value) : String(value);
  });
}

// a list of the scene sent a key per line (panel_scene.py SPLIT): its length, then name0, name1...
function riskList(scene, name) {
  const n = scene[name];
  if (typeof n !== "number") return null;
  const out = [];
  for (let i = 0; i < n; i++) out.push(scene[name + i]);
  return out;
}

// the buttons [target, label, enabled] of a row of the action panel ["b", [target, ...]]:
// each button is a key of its own, B<target>: [label, enabled] (panel_scene.py listed)
function riskRow(scene, item) {
  const out = [];
  for (const target of item[1] || []) {
    const b = scene["B" + target];
    if (Array.isArray(b)) out.push([target, b[0], b[1]]);
  }
  return out;
}

function riskDice(dice, hit) {
  const box = sceneNode("span", "cwr-dice");
  for (const d of dice || []) {
    if (typeof d !== "number" || d < 1 || d > 6) continue;
    box.appendChild(sceneNode("span", d <= hit ? "cwr-hit" : "cwr-miss", DICE[d - 1]));
  }
  return box;
}

function riskLines(scene, cls, lines, boldFirst) {
  const box = sceneNode("div", cls);
  (lines || []).forEach((line, i) => box.appendChild(sceneNode(i === 0 && boldFirst ? "b" : "div", "",
    riskText(scene, line))));
  return box;
}

function riskStatus(scene) {
  const box = sceneNode("div", "cw-status");
  for (const [text, cls, colour] of riskList(scene, "st") || []) {
    const line = sceneNode("div", cls);
    if (colour) {
      const mark = sceneNode("span", "cwr-seat", "\u25a0");
      mark.style.color = colour;
      line.appendChild(mark);
      line.appendChild(document.createTextNode(" "));
    }
    line.appendChild(document.createTextNode(riskText(scene, text)));
    box.appendChild(line);
  }
  return box;
}

function riskButton(target, label, enabled, send) {
  const b = sceneNode("button", "cwr-button cw-" + target + (LOOK[target] ? " cwr-" + LOOK[target] : ""), label);
  b.type = "button";
  b.disabled = !enabled;
  if (enabled) b.addEventListener("click", () => send(target));
  return b;
}

function riskNumber(scene, item, send) {
  const [, name, label, value, low, high] = item;
  const box = sceneNode("label", "cwr-field cw-" + name);
  box.appendChild(sceneNode("span", "cwr-label", riskText(scene, label)));
  const input = sceneNode("input", "cwr-number");
  input.type = "number";
  input.min = String(low);
  input.max = String(high);
  input.value = String(value);
  input.addEventListener("change", () => {
    let n = parseInt(input.value, 10);
    if (Number.isNaN(n)) n = value;
    n = Math.max(low, Math.min(high, n));
    input.value = String(n);
    if (n !== value) send(name + ":" + n);
  });
  box.appendChild(input);
  return box;
}

function riskBox(scene, item, send) {
  const [, name, label, ticked] = item;
  const box = sceneNode("label", "cwr-field cw-" + name);
  const input = sceneNode("input", "cwr-check");
  input.type = "checkbox";
  input.checked = !!ticked;
  input.addEventListener("change", () => send(name + ":" + (input.checked ? 1 : 0)));
  box.appendChild(input);
  box.appendChild(sceneNode("span", "cwr-label", riskText(scene, label)));
  return box;
}

function riskActions(scene, send) {
  const box = sceneNode("div", "cw-actions");
  const guide = riskList(scene, "g");
  if (Array.isArray(guide)) {
    const outer = sceneNode("div", "cw-guide");
    const inner = sceneNode("div", "cw-guide-box");
    if (guide[0]) inner.appendChild(sceneNode("b", "cw-pending", riskText(scene, guide[0])));
    for (const line of guide.slice(1)) inner.appendChild(sceneNode("div", "", riskText(scene, line)));
    outer.appendChild(inner);
    box.appendChild(outer);
  }
  for (const item of riskList(scene, "a") || []) {
    const kind = item[0];
    if (kind === "t") {
      box.appendChild(sceneNode(item[3] ? "b" : "div", "cwr-prompt " + (item[1] || ""), riskText(scene, item[2])));
    } else if (kind === "n") {
      box.appendChild(riskNumber(scene, item, send));
    } else if (kind === "c") {
      box.appendChild(riskBox(scene, item, send));
    } else if (kind === "b") {
      const row = sceneNode("div", "cwr-row");
      for (const [target, label, enabled] of riskRow(scene, item)) {
        row.appendChild(riskButton(target, riskText(scene, label), enabled, send));
      }
      box.appendChild(row);
    }
  }
  return box;
}

function riskBattle(b) {
  const box = sceneNode("div", "cw-battle");
  if (!Array.isArray(b)) return box;
  const inner = sceneNode("div", "cw-battle-box");
  inner.appendChild(sceneNode("b", "", b[0]));
  const [sea, attack, defence] = b[1] || ["", "", ""];
  for (const row of b.slice(2)) {
    const line = sceneNode("div", "");
    if (row[0] === "s") {
      line.className = "cw-battle-preroll";
      line.appendChild(document.createTextNode(sea + ": "));
      line.appendChild(riskDice(row[1], SEA_HIT));
      line.appendChild(document.createTextNode(" \u2014 " + row[2]));
    } else if (row[0] === "r") {
      line.className = "cw-battle-round";
      line.appendChild(sceneNode("b", "", row[1]));
      line.appendChild(document.createTextNode(" " + attack + " "));
      line.appendChild(riskDice(row[2], ATTACK_HIT));
      line.appendChild(document.createTextNode(" (" + row[3] + ") \u00b7 " + defence + " "));
      line.appendChild(riskDice(row[4], DEFENCE_HIT));
      line.appendChild(document.createTextNode(" (" + row[5] + ") \u2192 " + row[6]));
    } else {
      line.textContent = String(row[1]);
    }
    inner.appendChild(line);
  }
  box.appendChild(inner);
  return box;
}

function riskKnowledge(scene, state) {
  const box = sceneNode("div", "cw-knowledge");
  const k = scene.k;
  if (!Array.isArray(k)) return box;
  const [title, neutral, unknown, seats] = k;
  const inner = sceneNode("div", "cw-knowledge-box");
  const details = sceneNode("details", "");
  details.open = state.open;
  details.addEventListener("toggle", () => { state.open = details.open; });
  const summary = sceneNode("summary", "");
  summary.appendChild(sceneNode("b", "", riskText(scene, title)));
  details.appendChild(summary);
  for (const seat of seats || []) {
    const data = scene["k" + seat];
    if (!Array.isArray(data)) continue;
    const [colour, line, rows] = data;
    const player = sceneNode("div", "cw-k-player cw-k-player-" + seat);
    const mark = sceneNode("span", "cwr-seat", "\u25a0");
    mark.style.color = colour;
    player.appendChild(mark);
    player.appendChild(document.createTextNode(" " + riskText(scene, line)));
    const list = sceneNode("ul", "");
    for (const code of rows || []) list.appendChild(sceneNode("li", "", scene["r" + code]));
    player.appendChild(list);
    details.appendChild(player);
  }
  if (neutral) details.appendChild(sceneNode("div", "", riskText(scene, neutral)));
  details.appendChild(sceneNode("div", "", riskText(scene, unknown)));
  inner.appendChild(details);
  box.appendChild(inner);
  return box;
}

// the board's version class, cw-v-<n> (n: the scene's redraw, new at every render of the
// board): on this widget and on the board around it (.cw-risk-board), where the browser
// tests look for it; true once the board around was found
function riskMark(el, marker) {
  const board = el.closest ? el.closest(".cw-risk-board") : null;
  for (const node of [el, board]) {
    if (!node || !node.classList) continue;
    for (const c of [...node.classList]) if (c.startsWith("cw-v-") && c !== marker) node.classList.remove(c);
    if (marker) node.classList.add(marker);
  }
  return !!board;
}

function riskDraw(scene, send, state) {
  const root = sceneNode("div", "cwr-inner");
  root.appendChild(riskStatus(scene));
  const msg = sceneNode("div", "cw-board-message");
  if (scene.msg) msg.appendChild(sceneNode("div", "cwr-message", scene.msg));
  root.appendChild(msg);
  root.appendChild(riskActions(scene, send));
  root.appendChild(riskLines(scene, "cw-selected-info", riskList(scene, "i"), true));
  const odds = sceneNode("div", "cw-odds");
  const lines = riskList(scene, "o");
  if (lines) odds.appendChild(riskLines(scene, "cw-odds-box", lines, true));
  root.appendChild(odds);
  root.appendChild(riskBattle(riskList(scene, "b")));
  root.appendChild(riskKnowledge(scene, state));
  return root;
}

export default {
  initialize({ model }) {
    return sceneInitialize(model);
  },
  render({ model, el }) {
    el.classList.add("cwr-panels");
    const state = { open: true };
    const stop = sceneRender(model, el, (scene, send) => riskDraw(scene, send, state));
    // after the panels are drawn (a handler added after sceneRender's runs after it)
    const mark = () => riskMark(el, "cw-v-" + ((model.get("scene") || {}).n || 0));
    model.on("change:scene", mark);
    // the board around this widget may not hold it yet at the first render: look again
    let later = null;
    const look = (k) => { if (!mark() && k < 100) later = setTimeout(() => look(k + 1), 50); };
    look(0);
    return () => { clearTimeout(later); model.off("change:scene", mark); stop(); };
  },
};
