// Runs Japan Conquest's start screen's page module (scene.js + games/japan_conquest/widget/
// start_screen.js, as sent) in Node.js with a minimal DOM, as anywidget does in the page: the
// model is given the first scene, then each later message as the kernel sent it.  Prints, for
// each scene, what the page shows (the title, the autosave's line, each slot's line, the
// question, the message, Previous Results, the records, every button) as JSON, and what the
// page sent the kernel (its {have: n}, then a click on the last enabled button).
// Usage: node run_start.mjs <module.mjs> <steps.json> (see tests/page/dom.mjs).
import { runPage } from "../../../../page/dom.mjs";

// the words of the elements passing ``test`` (lines)
const words = (el, test) => el.all(test).map((e) => e.words).join("\n");

// a click on the last enabled button goes to the kernel as one message
await runPage((el) => ({
  root: el.className,
  title: words(el, (e) => e.tagName === "h2"),
  auto: words(el, (e) => e.has("cw-auto-info")),
  slots: el.all((e) => e.has("cw-slot")).map((r) => [Number(r.attrs["data-slot"]), r.words]),
  ask: words(el, (e) => e.has("cw-ask")),
  message: words(el, (e) => e.has("cw-start-msg")),
  results: words(el, (e) => e.has("cw-results-list")),
  records: words(el, (e) => e.has("cw-records-box")),
  names: el.all((e) => e.has("cw-name")).map((n) => [n.textContent, n.title]),
  buttons: el.all((e) => e.tagName === "button").map((b) => [b.className, b.disabled, b.textContent, b.title]),
}), (buttons) => buttons[buttons.length - 1]);
