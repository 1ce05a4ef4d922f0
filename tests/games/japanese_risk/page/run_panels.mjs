// Runs the Japanese Risk panels' page module (scene.js + games/japanese_risk/widget/panels.js, as
// sent) in Node.js with a minimal DOM, as anywidget does in the page: the model is given the
// first scene, then each message the kernel sent (a patch of the keys that changed).  Prints,
// for each step, what the page shows (the parts' texts, the buttons, the fields, the board's
// version class) and what the page sent back after a click on a button and a field's change.
// Usage: node run_panels.mjs <panels.mjs> <steps.json>: a list of [scene, message] pairs, the
// first scene the one the page opens with (its message null), then each message the kernel sent.
import { Element, openPage } from "../../../page/dom.mjs";

const { widget: panels, steps, model, sent, deliver } = await openPage();
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
  if (i > 0) deliver(msg);
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
