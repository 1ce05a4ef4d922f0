// Runs the Codex board's page module (ui/scene.js + games/codex/widget/board.js, as sent) in Node.js
// with a minimal DOM, as anywidget does in the page: the model is given the first scene,
// then each later one as the kernel sends it (a patch of the keys that changed).  Prints, for
// each scene, what the page shows (texts, buttons, every plot's SVG attributes) as JSON.
// Usage: node run_board.mjs <board.js> <steps.json>: a list of [scene, message] pairs, the first
// scene the one the page opens with (its message null), then each message the kernel sent.
import { Element, openPage } from "../../../page/dom.mjs";

const { widget: board, steps, model, sent, deliver } = await openPage();
board.initialize({ model });
const el = new Element("div");
el.className = "cw-codex-board";
board.render({ model, el });

const text = (cls) => el.all((e) => e.has(cls)).map((e) => e.textContent).join("\n");
const out = [];
steps.forEach(([, patch], i) => {
  if (i > 0) deliver(patch);
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
