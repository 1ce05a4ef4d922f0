// The page side shared by every scene widget (ui/scene.py): the kernel syncs ``scene`` once,
// then sends only what changed as one custom message [n, {key: value}, [key], [prefix]]: the
// redraw's number, the patch, the keys dropped and the prefixes dropped (every key that
// starts with one goes; both dropped before the patch is merged; the last two may be left
// out); this merges it into the model's scene (never sent back: the kernel ignores a scene
// from the page).  A patch applies only to the scene of the redraw before it (n); one sent
// before the module listened is lost: the page then says which scene it has ({have: n})
// and the kernel sends the whole scene again ({scene}).  A widget's own module follows
// this one in the same ES module and calls sceneInitialize / sceneRender.
function sceneInitialize(model) {
  let asked = false;
  const onMessage = (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.scene && typeof msg.scene === "object") {
      asked = false;
      model.set("scene", msg.scene);
      return;
    }
    const [n, patch, drop, prefixes] = Array.isArray(msg) ? msg : [];
    if (typeof patch !== "object" || patch === null) return;
    const old = model.get("scene") || {};
    if (n !== (old.n || 0) + 1) {
      if (!asked) { asked = true; model.send({ have: old.n || 0 }); }
      return;
    }
    const scene = Object.assign({}, old);
    for (const key of drop || []) delete scene[key];
    for (const prefix of prefixes || []) {
      if (typeof prefix !== "string" || !prefix) continue;
      for (const key of Object.keys(scene)) if (key.startsWith(prefix)) delete scene[key];
    }
    model.set("scene", Object.assign(scene, patch, { n }));
  };
  model.on("msg:custom", onMessage);
  model.send({ have: (model.get("scene") || {}).n || 0 });
  return () => model.off("msg:custom", onMessage);
}

// Draw ``draw(scene, send)`` (a DOM node) into ``el`` now and after every change of the
// scene; ``send(target)`` sends a click back as one message {click: target}.
function sceneRender(model, el, draw) {
  const send = (target) => model.send({ click: target });
  const redraw = () => el.replaceChildren(draw(model.get("scene") || {}, send));
  model.on("change:scene", redraw);
  redraw();
  return () => model.off("change:scene", redraw);
}

function sceneNode(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null && text !== "") e.textContent = String(text);
  return e;
}
