// The shell's log in the page (an ES module for anywidget; log_view.py is its kernel side,
// scene.js comes before this).  The scene holds the heading (h) and the last lines keyed by
// their number in the game (l<k>); they are shown newest first.  The <details> box is made
// once, so that a log the player folded stays folded.  Text goes in with textContent only.
function logLines(scene) {
  return Object.keys(scene)
    .filter((k) => /^l\d+$/.test(k))
    .map((k) => [Number(k.slice(1)), scene[k]])
    .sort((a, b) => b[0] - a[0]);
}

export default {
  initialize({ model }) {
    return sceneInitialize(model);
  },
  render({ model, el }) {
    const box = sceneNode("details", "cw-log-box");
    box.open = true;
    const head = sceneNode("summary");
    const lines = sceneNode("div", "cw-log-lines");
    box.append(head, lines);
    el.appendChild(box);
    const redraw = () => {
      const scene = model.get("scene") || {};
      head.textContent = String(scene.h || "");
      lines.replaceChildren(...logLines(scene).map(([, text]) => sceneNode("div", "cw-log-line", text)));
    };
    model.on("change:scene", redraw);
    redraw();
    return () => model.off("change:scene", redraw);
  },
};
