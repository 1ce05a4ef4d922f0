// Runs Japan Conquest's side panels' page module (scene.js + games/japan_conquest/widget/panels.js,
// as sent) in Node.js with a minimal DOM, as anywidget does in the page: the model is given the
// first scene, then each later message as the kernel sent it (a patch of the keys that changed).
// Prints, for each scene, what the page shows (each panel's text, every button) as JSON, and
// what the page sent the kernel (its {have: n}, then a click on the first enabled button).
// Usage: node run_panels.mjs <module.mjs> <steps.json>: a list of [scene, message] pairs, the
// first scene the one the page opens with (its message null), then each message the kernel sent.
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
    };
  }
  set textContent(t) { this.children = []; if (t !== "") this.append(String(t)); }
  get textContent() { return this.children.map((c) => c.textContent).join(""); }
  // the text shown without the buttons' labels (a panel's words)
  get words() { return this.children.map((c) => (c instanceof Element ? (c.tagName === "button" ? "" : c.words) : c.data)).join(""); }
  appendChild(c) {
    if (c.parent) c.parent.children = c.parent.children.filter((x) => x !== c);
    c.parent = this; this.children.push(c); return c;
  }
  append(...cs) { for (const c of cs) this.appendChild(typeof c === "string" ? new Text(c) : c); }
  replaceChildren(...cs) { this.children = []; this.append(...cs); }
  setAttribute(k, v) { if (k === "class") this.className = String(v); else this.attrs[k] = String(v); }
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

const [, , modulePath, stepsPath] = process.argv;
const widget = (await import(pathToFileURL(modulePath).href)).default;
const steps = JSON.parse(fs.readFileSync(stepsPath, "utf8"));
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
widget.initialize({ model });
const el = new Element("div");
widget.render({ model, el });

const words = (test) => el.all(test).map((e) => e.words).join("\n");
const out = [];
steps.forEach(([, message], i) => {
  if (i > 0) for (const f of handlers["msg:custom"] || []) f(message);
  out.push({
    root: el.className,
    title: words((e) => e.has("cw-turn-title")),
    hint: words((e) => e.has("cw-turn-hint")),
    faces: words((e) => e.has("cw-faces") && e.parent.has("cw-turn")),
    route: words((e) => e.has("cw-route")),
    message: words((e) => e.has("cw-msg") || e.has("cw-wait")),
    battle: words((e) => e.has("cw-battle")),
    score: words((e) => e.has("cw-score")),
    info: words((e) => e.has("cw-info")),
    rows: el.all((e) => e.tagName === "tr" && "data-seat" in e.attrs).map((r) => [Number(r.attrs["data-seat"]),
      r.has("cw-current"), r.all((e) => e.has("cw-swatch"))[0].style.background]),
    buttons: el.all((e) => e.tagName === "button").map((b) => [b.className, b.disabled, b.textContent]),
  });
});
// a click on the first enabled button goes to the kernel as one message
const enabled = el.all((e) => e.tagName === "button" && !e.disabled);
if (enabled.length) for (const f of enabled[0].listeners.click || []) f();
console.log(JSON.stringify({ shown: out, sent }));
