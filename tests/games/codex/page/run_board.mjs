// Runs the Codex board's page module (ui/scene.js + games/codex/widget/board.js, as sent) in Node.js
// with a minimal DOM, as anywidget does in the page: the model is given the first scene,
// then each later one as the kernel sends it (a patch of the keys that changed).  Prints, for
// each scene, what the page shows (texts, buttons, every plot's SVG attributes) as JSON.
// Usage: node run_board.mjs <board.js> <steps.json>: a list of [scene, message] pairs, the first
// scene the one the page opens with (its message null), then each message the kernel sent.
import fs from "fs";
import { pathToFileURL } from "url";

class Text {
  constructor(t) { this.data = String(t); this.parent = null; }
  get textContent() { return this.data; }
}

class Element {
  constructor(tag) {
    this.tagName = tag; this.children = []; this.attrs = {}; this.style = {}; this.dataset = {};
    this.listeners = {}; this.parent = null; this.className = ""; this.disabled = false; this.title = "";
    const e = this;
    this.classList = {
      get names() { return e.className.split(/\s+/).filter(Boolean); },
      add(...c) { e.className = [...new Set([...this.names, ...c])].join(" "); },
      remove(...c) { e.className = this.names.filter((x) => !c.includes(x)).join(" "); },
      [Symbol.iterator]() { return this.names[Symbol.iterator](); },
    };
  }
  set textContent(t) { this.children = []; if (t !== "") this.append(String(t)); }
  // the text shown (an SVG title is not: as innerText)
  get textContent() { return this.tagName === "title" ? "" : this.children.map((c) => c.textContent).join(""); }
  appendChild(c) {
    if (c.parent) c.parent.children = c.parent.children.filter((x) => x !== c);
    c.parent = this; this.children.push(c); return c;
  }
  append(...cs) { for (const c of cs) this.appendChild(typeof c === "string" ? new Text(c) : c); }
  replaceChildren(...cs) { this.children = []; this.append(...cs); }
  setAttribute(k, v) { if (k === "class") this.className = String(v); else this.attrs[k] = String(v); }
  removeAttribute(k) { delete this.attrs[k]; }
  addEventListener(name, f) { (this.listeners[name] = this.listeners[name] || []).push(f); }
  has(cls) { return this.className.split(/\s+/).includes(cls); }
  all(test, out = []) {
    if (test(this)) out.push(this);
    for (const c of this.children) if (c instanceof Element) c.all(test, out);
    return out;
  }
}

globalThis.document = {
  createElement: (tag) => new Element(tag),
  createElementNS: (_ns, tag) => new Element(tag),
  createTextNode: (t) => new Text(t),
};

const [, , modulePath, scenesPath] = process.argv;
const board = (await import(pathToFileURL(modulePath).href)).default;
const steps = JSON.parse(fs.readFileSync(scenesPath, "utf8"));
const handlers = {};
let scene = steps[0][0];
const sent = [];
const model = {
  get: () => scene,
  set: (_k, v) => { scene = v; for (const f of handlers["change:scene"] || []) f(); },
  on: (name, f) => { (handlers[name] = handlers[name] || []).push(f); },
  off: () => {},
  send: (m) => sent.push(m),
};
board.initialize({ model });
const el = new Element("div");
el.className = "cw-codex-board";
board.render({ model, el });

const text = (cls) => el.all((e) => e.has(cls)).map((e) => e.textContent).join("\n");
const out = [];
steps.forEach(([, patch], i) => {
  if (i > 0) for (const f of handlers["msg:custom"] || []) f(patch);
  out.push({
    root: el.className,
    status: text("cw-status"), message: text("cw-board-message"), dice: text("cw-dice-box"),
    purchases: text("cw-purchases-left"), preview: text("cw-preview"), joker: text("cw-joker"), forced: text("cw-forced"),
    players: el.all((e) => e.tagName === "tr" && "seat" in e.dataset && e.parent.has("cw-players")).map((e) => e.textContent),
    market: FACTIONS_TEXT(),
    buttons: el.all((e) => e.tagName === "button").map((b) => [b.className, b.disabled, b.textContent]),
    plots: el.all((e) => e.has("cw-plot")).map((p) => [p.className, p.attrs.fill, p.attrs["fill-opacity"], p.attrs.stroke,
      p.attrs["stroke-width"], p.attrs["stroke-dasharray"] ?? null]),
  });
});
function FACTIONS_TEXT() {
  return el.all((e) => e.has("cw-faction")).map((e) => e.textContent);
}
// a click on the first lit plot goes to the kernel as one message
const lit = el.all((e) => e.has("cw-plot") && e.attrs.stroke === "#ff8f00");
if (lit.length) for (const f of lit[0].listeners.click || []) f();
console.log(JSON.stringify({ shown: out, sent }));
