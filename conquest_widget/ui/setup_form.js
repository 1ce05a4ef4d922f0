// The shell's New game form in the page (an ES module for anywidget; setup_form.py is its
// kernel side).  The kernel syncs ``desc`` (labels, what each field offers) and ``values``
// (what is filled in); what the player types or picks goes back as ``values`` (names and
// the seed as they are typed, a number when it is left), Start and Back as one message
// {click: "start" | "back"}.  Every text goes in with textContent or an input's value:
// nothing from the kernel is ever read as markup.  form_parts.js (node, toggles) is put
// before this module when it is sent.

// a row: its label (a div) and the field's box (a div) beside it
function row(cls, label, fieldCls) {
  const r = node("div", "cwf-row " + cls);
  r.appendChild(node("div", "cwf-label", label));
  const box = node("div", "cwf-field" + (fieldCls ? " " + fieldCls : ""));
  r.appendChild(box);
  return [r, box];
}

// a <select> of [label, value] pairs (the option's value is its index)
function select(pairs, onPick) {
  const s = node("select", "cwf-select");
  pairs.forEach(([label], i) => { const o = node("option", "", label); o.value = String(i); s.appendChild(o); });
  s.addEventListener("change", () => { const p = pairs[Number(s.value)]; if (p) onPick(p[1]); });
  return s;
}

function setSelect(s, pairs, value) {
  const i = pairs.findIndex((p) => p[1] === value);
  if (i >= 0 && s.value !== String(i)) s.value = String(i);
}

// buttons of which one is on (CPU speed, Screens): form_parts.js's, in the form's classes
const cwfToggles = (pairs, onPick) => toggles(pairs, onPick, "cwf-toggles", "cwf-toggle");
const cwfSet = (box, value) => setToggles(box, value, "cwf-on");

function draw(model, el) {
  const d = model.get("desc") || {};
  const T = d.t || {};
  const v0 = model.get("values") || {};
  const send = (patch) => {
    model.set("values", Object.assign({}, model.get("values") || {}, patch));
    model.save_changes();
  };
  const root = node("div", "cwf-form");
  const updates = [];
  // the number of players
  const players = (d.players || []).map((n) => [String(n), n]);
  const [nRow, nBox] = row("cw-n-players", T.n_players);
  const nSel = select(players, (n) => send({ n }));
  nBox.appendChild(nSel);
  root.appendChild(nRow);
  updates.push((v) => setSelect(nSel, players, v.n));
  // the seats: a name and Human or a CPU level
  const kinds = d.kinds || [];
  (d.seats || []).forEach((label, i) => {
    const [r, box] = row("cwf-seat cw-seat-" + i, label);
    const name = node("input", "cwf-name");
    name.type = "text";
    name.maxLength = 200;
    name.value = (v0.names || [])[i] || "";
    name.addEventListener("input", () => {
      const names = ((model.get("values") || {}).names || []).slice();
      names[i] = name.value;
      send({ names });
    });
    const kind = select(kinds, (k) => {
      const all = ((model.get("values") || {}).kinds || []).slice();
      all[i] = k;
      send({ kinds: all });
    });
    box.appendChild(name);
    box.appendChild(kind);
    root.appendChild(r);
    updates.push((v) => {
      r.style.display = i < v.n ? "" : "none";
      const text = (v.names || [])[i] || "";
      if (name.value !== text) name.value = text;
      setSelect(kind, kinds, (v.kinds || [])[i]);
    });
  });
  // the game's options
  const option = (key, value) => {
    const opt = Object.assign({}, (model.get("values") || {}).opt || {});
    opt[key] = value;
    send({ opt });
  };
  for (const o of d.options || []) {
    const [r, box] = row("cw-option-" + o.key, o.kind === "bool" ? "" : o.label);
    if (o.kind === "bool") {
      const lab = node("label", "cwf-check");
      const box2 = node("input");
      box2.type = "checkbox";
      box2.addEventListener("change", () => option(o.key, box2.checked));
      lab.appendChild(box2);
      lab.appendChild(document.createTextNode(" " + o.label));
      box.appendChild(lab);
      updates.push((v) => { box2.checked = !!(v.opt || {})[o.key]; });
    } else if (o.kind === "choice") {
      const s = select(o.choices || [], (c) => option(o.key, c));
      box.appendChild(s);
      updates.push((v) => setSelect(s, o.choices || [], (v.opt || {})[o.key]));
    } else {
      const n = node("input", "cwf-number");
      n.type = "number";
      n.step = "1";
      n.min = String(o.low);
      n.max = String(o.high);
      // sent when left (as a number field does): the kernel brings it within the bounds
      n.addEventListener("change", () => {
        const x = Number(n.value);
        if (n.value.trim() !== "" && Number.isInteger(x)) option(o.key, x);
        else n.value = String((model.get("values").opt || {})[o.key]);
      });
      box.appendChild(n);
      updates.push((v) => {
        const x = String((v.opt || {})[o.key]);
        if (n.value !== x) n.value = x;
      });
    }
    root.appendChild(r);
  }
  // the CPU speed
  const [sRow, sBox] = row("cwf-speed-row", T.cpu_speed, "cw-cpu-speed");
  const speeds = cwfToggles(d.speeds || [], (speed) => send({ speed }));
  sBox.appendChild(speeds);
  root.appendChild(sRow);
  updates.push((v) => cwfSet(speeds, v.speed));
  // the seed (its label and box also carry the classes of a text widget's, which older
  // browser tests look for: a "widget-html" label, then a "widget-text" box)
  const [seedRow, seedBox] = row("cwf-seed-row", T.seed, "cw-seed widget-text");
  seedRow.firstChild.classList.add("widget-html");
  const seed = node("input", "cwf-seed");
  seed.type = "text";
  seed.maxLength = 200;
  seed.addEventListener("input", () => send({ seed: seed.value }));
  seedBox.appendChild(seed);
  root.appendChild(seedRow);
  updates.push((v) => { if (seed.value !== (v.seed || "")) seed.value = v.seed || ""; });
  // one screen or separate screens (an app that offers tables)
  if ((d.screens || []).length) {
    const [r, box] = row("cwf-screens-row", T.screens, "cw-screens");
    const screens = cwfToggles(d.screens, (s) => send({ screens: s }));
    box.appendChild(screens);
    root.appendChild(r);
    updates.push((v) => cwfSet(screens, v.screens));
  }
  // Start, Back
  const buttons = node("div", "cwf-row cwf-buttons");
  for (const [cls, key] of [["cw-start cwf-primary", "start"], ["cw-back", "back"]]) {
    const b = node("button", "cwf-button " + cls, T[key]);
    b.type = "button";
    // Start carries the values the page shows: the match starts with what the player sees
    b.addEventListener("click", () => model.send(
      key === "start" ? { click: key, values: model.get("values") || {} } : { click: key }));
    buttons.appendChild(b);
  }
  root.appendChild(buttons);
  el.replaceChildren(root);
  const update = () => { const v = model.get("values") || {}; for (const u of updates) u(v); };
  update();
  return update;
}

export default {
  render({ model, el }) {
    el.classList.add("cwf");
    let update = draw(model, el);
    const redraw = () => { update = draw(model, el); };
    const refresh = () => update();
    model.on("change:desc", redraw);
    model.on("change:values", refresh);
    return () => { model.off("change:desc", redraw); model.off("change:values", refresh); };
  },
};
