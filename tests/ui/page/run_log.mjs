// Runs the shell's log page module (scene.js + ui/log_view.js, as sent) in Node.js with a
// minimal DOM, as anywidget does in the page: the model is given the first scene, then each
// message the kernel sent.  Prints, for each step, what the page shows (the cover's title and
// button, whether the widget is marked covered, the heading, the lines) and what the page
// sent back after a click on the cover's button.
// Usage: node run_log.mjs <log.mjs> <steps.json> (see tests/page/dom.mjs openPage).
import { Element, openPage } from "../../page/dom.mjs";

const { widget: log, steps, model, sent, deliver } = await openPage();
log.initialize({ model });
const el = new Element("div");
log.render({ model, el });

const out = [];
steps.forEach(([, msg], i) => {
  if (i > 0) deliver(msg);
  const cover = el.all((e) => e.has("cw-cover"));
  out.push({
    cover: cover.map((c) => c.all((e) => e.tagName === "h3").map((e) => e.textContent).join("")).join(""),
    button: el.all((e) => e.tagName === "button" && e.has("cw-uncover")).map((b) => b.textContent).join(""),
    covered: el.has("cw-covered"),
    head: el.all((e) => e.tagName === "summary").map((e) => e.textContent).join(""),
    lines: el.all((e) => e.has("cw-log-line")).map((e) => e.textContent),
  });
});
for (const b of el.all((e) => e.tagName === "button")) b.fire("click");
console.log(JSON.stringify({ shown: out, sent }));
