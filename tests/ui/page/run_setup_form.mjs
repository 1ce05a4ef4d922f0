// Runs the shell's New game form page module (setup_form.js, as anywidget sends it) in
// Node.js with the minimal DOM of tests/page/dom.mjs, and plays a script on it:
//   node run_setup_form.mjs <module.mjs> <script.json>
// The script is {desc, values, steps}: each step is either {kernel: values} (the kernel
// sends new values) or {pick: [cls, label]} (the player picks the option of that label in
// the select of the row with class cls), {type: [cls, text]} (types in that row's input) or
// {press: "start" | "back"}.  Prints {shown, sent}: after each step what the page shows
// (per seat: the name in its input, the label of the kind picked, shown or hidden; the
// number of players picked), and every message the page sent (values saved, custom sends).
import fs from "fs";
import { pathToFileURL } from "url";
import "../../page/dom.mjs";

const [, , modulePath, scriptPath] = process.argv;
const widget = (await import(pathToFileURL(modulePath).href)).default;
const script = JSON.parse(fs.readFileSync(scriptPath, "utf8"));
const state = { desc: script.desc, values: script.values };
const handlers = {};
const sent = [];
const fire = (key) => { for (const f of handlers["change:" + key] || []) f(); };
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; fire(k); },
  save_changes: () => sent.push({ values: JSON.parse(JSON.stringify(state.values)) }),
  on: (name, f) => { (handlers[name] = handlers[name] || []).push(f); },
  off: () => {},
  send: (m) => sent.push({ custom: JSON.parse(JSON.stringify(m)) }),
};
const el = document.createElement("div");
widget.render({ model, el });

const row = (cls) => el.all((e) => e.has && e.has(cls))[0];
const field = (cls, tag) => row(cls).all((e) => e.tagName === tag)[0];
const picked = (s) => { const o = s.children[Number(s.value)]; return o ? o.textContent : null; };
function shown() {
  const seats = (script.desc.seats || []).map((_, i) => ({
    name: field("cw-seat-" + i, "input").value,
    kind: picked(field("cw-seat-" + i, "select")),
    hidden: row("cw-seat-" + i).style.display === "none",
  }));
  return { n: picked(field("cw-n-players", "select")), seats };
}
const out = [];
for (const step of script.steps) {
  if (step.kernel) model.set("values", step.kernel);
  else if (step.pick) {
    const s = field(step.pick[0], "select");
    s.value = String(s.children.findIndex((o) => o.textContent === step.pick[1]));
    s.fire("change");
  } else if (step.type) {
    const box = field(step.type[0], "input");
    box.value = step.type[1];
    box.fire("input");
  } else if (step.press) {
    el.all((e) => e.tagName === "button" && e.has("cw-" + step.press))[0].fire("click");
  }
  out.push(shown());
}
console.log(JSON.stringify({ shown: out, sent }));
