// Runs Japan Conquest's side panels' page module (scene.js + games/japan_conquest/widget/panels.js,
// as sent) in Node.js with a minimal DOM, as anywidget does in the page: the model is given the
// first scene, then each later message as the kernel sent it (a patch of the keys that changed).
// Prints, for each scene, what the page shows (each panel's text, every button) as JSON, and
// what the page sent the kernel (its {have: n}, then a click on the first enabled button).
// Usage: node run_panels.mjs <module.mjs> <steps.json>: a list of [scene, message] pairs, the
// first scene the one the page opens with (its message null), then each message the kernel sent.
import { runPage } from "../../../../page/dom.mjs";

// the words of the elements passing ``test`` (lines)
const words = (el, test) => el.all(test).map((e) => e.words).join("\n");

// a click on the first enabled button goes to the kernel as one message
await runPage((el) => ({
  root: el.className,
  title: words(el, (e) => e.has("cw-turn-title")),
  hint: words(el, (e) => e.has("cw-turn-hint")),
  faces: words(el, (e) => e.has("cw-faces") && e.parent.has("cw-turn")),
  route: words(el, (e) => e.has("cw-route")),
  message: words(el, (e) => e.has("cw-msg") || e.has("cw-wait")),
  battle: words(el, (e) => e.has("cw-battle")),
  score: words(el, (e) => e.has("cw-score")),
  info: words(el, (e) => e.has("cw-info")),
  rows: el.all((e) => e.tagName === "tr" && "data-seat" in e.attrs).map((r) => [Number(r.attrs["data-seat"]),
    r.has("cw-current"), r.all((e) => e.has("cw-swatch"))[0].style.background]),
  buttons: el.all((e) => e.tagName === "button").map((b) => [b.className, b.disabled, b.textContent]),
}));
