// The shell's log in the page (an ES module for anywidget; log_view.py is its kernel side,
// scene.js comes before this).  The scene holds the heading (h) and the last lines keyed by
// their event's name, l<p> or l<p>_<j> (the j-th after the p-th); they are shown newest first.  The <details> box is made
// once, so that a log the player folded stays folded.  While the scene has a cover (c: the
// name of the player the screen goes to; C: [title, button] with {name} where it goes) it
// is drawn above the log, its button sends {click: "uncover"}, and the
// widget carries the class cw-covered, by which log_view.css hides the match's board beside
// it.  Text goes in with textContent only.
function logLines(scene) {
  return Object.keys(scene)
    .map((k) => [/^l(\d+)(?:_(\d+))?$/.exec(k), k])
    .filter(([m]) => m)
    .map(([m, k]) => [Number(m[1]), Number(m[2] || 0), scene[k]])
    .sort((a, b) => b[0] - a[0] || b[1] - a[1])
    .map(([p, j, text]) => [p, text]);
}

function logCover(scene, send) {
  const name = scene.c;
  if (typeof name !== "string" || !name || !Array.isArray(scene.C)) return null;
  const [title, ready] = scene.C.map((text) => String(text).split("{name}").join(name));
  const box = sceneNode("div", "cw-cover");
  box.appendChild(sceneNode("h3", "", title));
  const button = sceneNode("button", "cw-uncover", ready);
  button.type = "button";
  button.addEventListener("click", () => send("uncover"));
  box.appendChild(button);
  return box;
}

export default {
  initialize({ model }) {
    return sceneInitialize(model);
  },
  render({ model, el }) {
    const cover = sceneNode("div", "cw-cover-slot");
    const box = sceneNode("details", "cw-log-box");
    box.open = true;
    const head = sceneNode("summary");
    const lines = sceneNode("div", "cw-log-lines");
    box.append(head, lines);
    el.append(cover, box);
    const send = (target) => model.send({ click: target });
    const redraw = () => {
      const scene = model.get("scene") || {};
      const shown = logCover(scene, send);
      cover.replaceChildren(...(shown ? [shown] : []));
      el.classList.toggle("cw-covered", !!shown);
      head.textContent = String(scene.h || "");
      lines.replaceChildren(...logLines(scene).map(([, text]) => sceneNode("div", "cw-log-line", text)));
    };
    model.on("change:scene", redraw);
    redraw();
    return () => model.off("change:scene", redraw);
  },
};
