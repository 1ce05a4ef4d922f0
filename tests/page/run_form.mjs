// Runs a form's page module (as anywidget sends it) in Node.js with the minimal DOM of
// dom.mjs and plays a script on it:  node run_form.mjs <module.mjs> <script.json>
// The script is {model: {desc, values, ...}, watch: [spec...], steps: [step...]}.  A spec
// names an element: {cls, tag, nth} = the nth (default 0) element of that tag inside the
// first element with class cls (no tag: that element itself).  A step is one of
//   {kernel: {key: value}}  the kernel sets synced keys of the model
//   {pick: [spec, label]}   the player picks the option of that label in a select
//   {type: [spec, text]}    the player types text in an input
//   {check: [spec, on]}     the player ticks (or unticks) a checkbox
//   {press: spec}           the player clicks a button
// Prints {shown, sent}: after the first render and after each step, what each watched
// element shows ({text, value, picked, checked, visible, on}), and every message the page
// sent ({save: values} for a saved change, {custom: message} for a message).
import fs from "fs";
import { pathToFileURL } from "url";
import "./dom.mjs";

const [, , modulePath, scriptPath] = process.argv;
const widget = (await import(pathToFileURL(modulePath).href)).default;
const script = JSON.parse(fs.readFileSync(scriptPath, "utf8"));
const state = Object.assign({}, script.model);
const handlers = {};
const sent = [];
const copy = (x) => JSON.parse(JSON.stringify(x));
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; for (const f of handlers["change:" + k] || []) f(); },
  save_changes: () => sent.push({ save: copy(state.values) }),
  on: (name, f) => { (handlers[name] = handlers[name] || []).push(f); },
  off: () => {},
  send: (m) => sent.push({ custom: copy(m) }),
};
const el = document.createElement("div");
widget.render({ model, el });

function find(spec) {
  const box = el.all((e) => e.has && e.has(spec.cls))[0];
  if (!box) throw new Error("no element of class " + spec.cls);
  if (!spec.tag) return box;
  const e = box.all((x) => x.tagName === spec.tag)[spec.nth || 0];
  if (!e) throw new Error("no " + spec.tag + " in ." + spec.cls);
  return e;
}
const visible = (e) => { for (let x = e; x; x = x.parent) if (x.style && x.style.display === "none") return false; return true; };
function look(spec) {
  const e = find(spec);
  const option = e.tagName === "select" ? e.children.find((o) => o.value === e.value) : null;
  return { text: e.textContent, value: e.value, picked: option ? option.textContent : null, checked: e.checked,
           visible: visible(e), on: e.has("mod-active") || e.has("cwf-on") };
}
const shown = [script.watch.map(look)];
for (const step of script.steps) {
  if (step.kernel) for (const [k, v] of Object.entries(step.kernel)) model.set(k, v);
  else if (step.pick) {
    const s = find(step.pick[0]);
    const o = s.children.find((x) => x.textContent === step.pick[1]);
    if (!o) throw new Error("no option " + step.pick[1]);
    s.value = o.value;
    s.fire("change");
  } else if (step.type) { const box = find(step.type[0]); box.value = step.type[1]; box.fire("input"); }
  else if (step.check) { const box = find(step.check[0]); box.checked = step.check[1]; box.fire("change"); }
  else if (step.press) find(step.press).fire("click");
  shown.push(script.watch.map(look));
}
console.log(JSON.stringify({ shown, sent }));
