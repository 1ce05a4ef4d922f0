// Runs the Japanese Risk panels' page module (scene.js + games/japanese_risk/widget/panels.js, as
// sent) in Node.js with a minimal DOM, as anywidget does in the page: the model is given the
// first scene, then each message the kernel sent (a patch of the keys that changed).  Prints,
// for each step, what the page shows (the parts' texts, the buttons, the fields, the board's
// version class) and what the page sent back after a click on a button and a field's change.
// Usage: node run_panels.mjs <panels.mjs> <steps.json>: a list of [scene, message] pairs, the
// first scene the one the page opens with (its message null), then each message the kernel sent.
import fs from "fs";
import { pathToFileURL } from "url";

class Text {
  constructor(t) { this.data = String(t); this.parent = null; }
  get textContent() { return this.data; }
}

class Element {
  constructor(tag) {
    this.tagName = tag; this.children = []; this.style = {}; this.listeners = {}; this.parent = null;
    this.className = ""; this.disabled = false; this.type = ""; this.value = ""; this.checked = false;
    this.min = ""; this.max = ""; this.open = false;
    const e = this;
    this.classList = {
      get names() { return e.className.split(/\s+/).filter(Boolean); },
      add(...c) { e.className = [...new Set([...this.names, ...c])].join(" "); },
      remove(...c) { e.className = this.names.filter((x) => !c.includes(x)).join(" "); },
      [Symbol.iterator]() { return this.names[Symbol.iterator](); },
    };
  }
  set textContent(t) { this.children = []; if (t !== "") this.append(String(t)); }
  get textContent() { return this.children.map((c) => c.textContent).join(""); }
  appendChild(c) {
    if (c.parent) c.parent.children = c.parent.children.filter((x) => x !== c);
    c.parent = this; this.children.push(c); return c;
  }
  append(...cs) { for (const c of cs) this.appendChild(typeof c === "string" ? new Text(c) : c); }
  replaceChildren(...cs) { this.children = []; this.append(...cs); }
  addEventListener(name, f) { (this.listeners[name] = this.listeners[name] || []).push(f); }
  fire(name) { for (const f of this.listeners[name] || []) f(); }
  has(cls) { return this.className.split(/\s+/).includes(cls); }
  closest(sel) {  // a class selector only
    for (let e = this; e; e = e.parent) if (e.has && e.has(sel.slice(1))) return e;
    return null;
  }
  all(test, out = []) {
    if (test(this)) out.push(this);
    for (const c of this.children) if (c instanceof Element) c.all(test, out);
    return out;
  }
}

globalThis.document = {
  createElement: (tag) => new Element(tag),
  createTextNode: (t) => new Text(t),
};

const [, , modulePath, stepsPath] = process.argv;
const panels = (await import(pathToFileURL(modulePath).href)).default;
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
panels.initialize({ model });
const el = new Element("div");
// the board around the panels (ipywidgets' box), where the version class goes too
const board = new Element("div");
board.className = "cw-risk-board cw-v-0-0";
board.appendChild(el);
panels.render({ model, el });

const text = (cls) => el.all((e) => e.has(cls)).map((e) => e.textContent).join("\n");
const out = [];
steps.forEach(([, msg], i) => {
  if (i > 0) for (const f of handlers["msg:custom"] || []) f(msg);
  out.push({
    version: [...el.classList].filter((c) => c.startsWith("cw-v-")),
    board: [...board.classList].filter((c) => c.startsWith("cw-v-")),
    status: el.all((e) => e.parent && e.parent.has("cw-status")).map((e) => e.textContent),
    message: text("cw-board-message"), guide: text("cw-guide"),
    prompts: el.all((e) => e.has("cwr-prompt")).map((e) => e.textContent),
    info: text("cw-selected-info"), odds: text("cw-odds"), battle: text("cw-battle"), knowledge: text("cw-knowledge"),
    buttons: el.all((e) => e.tagName === "button").map((b) => [b.className, b.disabled, b.textContent]),
    fields: el.all((e) => e.has("cwr-field")).map((f) => {
      const input = f.all((e) => e.tagName === "input")[0];
      return [f.className, f.textContent, input.type === "checkbox" ? (input.checked ? 1 : 0) : Number(input.value),
        input.min === "" ? null : Number(input.min), input.max === "" ? null : Number(input.max)];
    }),
  });
});
// a click on the last enabled button, then a field's change, go to the kernel as one message each
const enabled = el.all((e) => e.tagName === "button" && !e.disabled);
if (enabled.length) enabled[enabled.length - 1].fire("click");
const number = el.all((e) => e.tagName === "input" && e.type === "number")[0];
if (number) { number.value = "-5"; number.fire("change"); }
console.log(JSON.stringify({ shown: out, sent }));
