// The minimal DOM and anywidget model the page-module tests run a widget's page module with,
// in Node.js (no browser): elements with classes, text, attributes, styles, form fields and
// listeners; a model that holds the scene and hands the kernel's messages to the module.
// Used by the runners of tests/games/*/page (and tests/games/japan_conquest/widget/page).
import fs from "fs";
import { pathToFileURL } from "url";

export class Text {
  constructor(t) { this.data = String(t); this.parent = null; }
  get textContent() { return this.data; }
  get words() { return this.data; }
}

export class Element {
  constructor(tag) {
    this.tagName = tag; this.children = []; this.attrs = {}; this.style = {}; this.dataset = {};
    this.listeners = {}; this.parent = null; this.className = ""; this.disabled = false; this.title = "";
    this.type = ""; this.value = ""; this.checked = false; this.min = ""; this.max = ""; this.open = false;
    const e = this;
    this.classList = {
      get names() { return e.className.split(/\s+/).filter(Boolean); },
      add(...c) { e.className = [...new Set([...this.names, ...c])].join(" "); },
      remove(...c) { e.className = this.names.filter((x) => !c.includes(x)).join(" "); },
      toggle(c, on) { if (on === undefined ? !this.names.includes(c) : on) this.add(c); else this.remove(c); },
      [Symbol.iterator]() { return this.names[Symbol.iterator](); },
    };
  }
  set textContent(t) { this.children = []; if (t !== "") this.append(String(t)); }
  // the text shown (an SVG title is not: as innerText)
  get textContent() { return this.tagName === "title" ? "" : this.children.map((c) => c.textContent).join(""); }
  // the text shown without the buttons' labels (a panel's words)
  get words() { return this.children.map((c) => (c instanceof Element && c.tagName === "button" ? "" : c.words)).join(""); }
  appendChild(c) {
    if (c.parent) c.parent.children = c.parent.children.filter((x) => x !== c);
    c.parent = this; this.children.push(c); return c;
  }
  append(...cs) { for (const c of cs) this.appendChild(typeof c === "string" ? new Text(c) : c); }
  replaceChildren(...cs) { this.children = []; this.append(...cs); }
  setAttribute(k, v) { if (k === "class") this.className = String(v); else this.attrs[k] = String(v); }
  removeAttribute(k) { delete this.attrs[k]; }
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
  createElementNS: (_ns, tag) => new Element(tag),
  createTextNode: (t) => new Text(t),
};

// The runner's arguments: node <runner> <module.mjs> <steps.json>, where the steps are
// [scene, message] pairs, the first scene the one the page opens with (its message null),
// then each message the kernel sent.  Returns the module's default export, the steps, the
// model (as anywidget gives it), what the page sent the kernel, and `deliver(message)`.
export async function openPage() {
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
  const deliver = (message) => { for (const f of handlers["msg:custom"] || []) f(message); };
  return { widget, steps, model, sent, deliver };
}
