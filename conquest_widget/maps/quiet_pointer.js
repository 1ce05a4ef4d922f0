// The page side of conquest_widget.maps.quiet_pointer.QuietPointer (an ES module for
// anywidget): wraps the ``send`` of the map's models so that mouse events without a Python
// handler stay in the page; window.__cwQuietPointer.kept counts them.
const state = window.__cwQuietPointer = window.__cwQuietPointer || {kept: 0};

async function follow(model) {
  const manager = model.widget_manager;
  if (!manager || typeof manager.get_model !== 'function') return;  // another front end: forward all
  for (const [events, refs] of Object.entries(model.get('forward') || {})) {
    for (const ref of refs) {
      let target;
      try { target = await manager.get_model(ref.replace(/^IPY_MODEL_/, '')); } catch (e) { continue; }
      if (target && typeof target.send === 'function') quiet(target, events.split(' ').filter(Boolean));
    }
  }
}

function quiet(target, events) {
  target.__cwForward = new Set(events);
  if (target.__cwQuiet) return;
  target.__cwQuiet = true;
  const send = target.send;
  target.send = function (content, ...rest) {
    const kind = content && (content.event === 'interaction' ? content.type : content.event === 'move' ? 'move' : null);
    if (kind !== null && !this.__cwForward.has(kind)) {
      state.kept += 1;
      return;
    }
    return send.call(this, content, ...rest);
  };
}

export default {
  initialize({ model }) {
    const update = () => { follow(model); };
    model.on('change:forward', update);
    update();
  },
};
