// Japan Conquest's New game form in the page (an ES module for anywidget; setup_form.py is
// its kernel side).  The kernel syncs ``desc`` (labels, what each field offers), ``values``
// (what is filled in) and ``problem`` (a problem with the form, as text); what the player
// types or picks goes back as ``values``, Start and Back as one message {click}, Start with
// the values the page shows.  Every text goes in with textContent or an input's value:
// nothing from the kernel is ever read as markup.  The elements carry the classes of the
// ipywidgets the form was once made of (a "widget-html" label before a
// "widget-toggle-buttons" or "widget-dropdown" box, "mod-active" on the button picked, a
// "widget-label" before a CPU's settings), which the browser tests look for.  form_parts.js
// (node, toggles) is put before this module when it is sent.

// a <select> of [label, value] pairs; an option's value is "o<index>" (never one of the
// labels, which a test may pick by)
function choice(pairs, onPick) {
  const s = node("select", "cwj-select");
  pairs.forEach(([label], i) => { const o = node("option", "", label); o.value = "o" + i; s.appendChild(o); });
  s.addEventListener("change", () => { const p = pairs[Number(String(s.value).slice(1))]; if (p) onPick(p[1]); });
  return s;
}

function setChoice(s, pairs, value) {
  const i = pairs.findIndex((p) => p[1] === value);
  if (i >= 0 && s.value !== "o" + i) s.value = "o" + i;
}

// a drop-down in the box of an ipywidgets Dropdown
function dropdown(pairs, onPick) {
  const box = node("div", "widget-dropdown cwj-dropdown");
  const s = choice(pairs, onPick);
  box.appendChild(s);
  return [box, s];
}

// buttons of which one is on, in the box of an ipywidgets ToggleButtons (form_parts.js's)
const cwjToggles = (pairs, onPick, cls) =>
  toggles(pairs, onPick, "widget-toggle-buttons cwj-toggles" + (cls ? " " + cls : ""), "cwj-toggle");
const cwjSet = (box, value) => setToggles(box, value, "mod-active");

// a row: a "widget-html" label (none for "") then the fields
function row(cls, label, ...fields) {
  const r = node("div", "cwj-row" + (cls ? " " + cls : ""));
  if (label) r.appendChild(node("div", "widget-html cwj-label", label));
  for (const f of fields) r.appendChild(f);
  return r;
}

function draw(model, el) {
  const d = model.get("desc") || {};
  const T = d.t || {};
  const values = () => model.get("values") || {};
  const send = (patch) => {
    model.set("values", Object.assign({}, values(), patch));
    model.save_changes();
  };
  const seat = (i, patch) => {
    const seats = (values().seats || []).map((s) => Object.assign({}, s));
    seats[i] = Object.assign({}, seats[i] || {}, patch);
    send({ seats });
  };
  const updates = [];
  const root = node("div", "cwj-form");
  root.appendChild(node("h3", "cwj-title", T.title));
  // the number of players
  const count = cwjToggles(d.counts || [], (n) => send({ n }));
  root.appendChild(row("cwj-count", T.players, count));
  updates.push((v) => cwjSet(count, v.n));
  // the seats
  const seats = node("div", "cwj-seats");
  (d.seats || []).forEach((number, i) => {
    const r = node("div", "cwj-seat cw-seat-" + i);
    const name = node("input", "cwj-name");
    name.type = "text";
    name.maxLength = d.max_name || 24;
    name.placeholder = T.name || "";
    name.addEventListener("input", () => seat(i, { name: name.value }));
    const colour = node("input", "cwj-colour");
    colour.type = "color";
    colour.addEventListener("change", () => seat(i, { colour: colour.value }));
    const kind = cwjToggles(d.kinds || [], (cpu) => seat(i, { cpu }), "cwj-kind");
    const first = row("cwj-seat-line", "", node("b", "cwj-number", number), name, colour, kind);
    const [homeBox, home] = dropdown(d.homes || [], (code) => seat(i, { home: code }));
    const cpuPart = (key, label) => {
      const box = node("span", "cwj-cpu-setting");
      const lab = node("label", "widget-label", label);
      const [dBox, s] = dropdown(d[key] || [], (x) => seat(i, { [key === "difficulties" ? "difficulty" : "strategy"]: x }));
      box.appendChild(lab);
      box.appendChild(dBox);
      return [box, s];
    };
    const [diffBox, diff] = cpuPart("difficulties", T.difficulty);
    const [stratBox, strat] = cpuPart("strategies", T.strategy);
    const second = row("cwj-seat-line", "", homeBox, diffBox, stratBox);
    r.appendChild(first);
    r.appendChild(second);
    seats.appendChild(r);
    updates.push((v) => {
      const s = (v.seats || [])[i] || {};
      r.style.display = i < v.n ? "" : "none";
      if (name.value !== (s.name || "")) name.value = s.name || "";
      if (colour.value !== s.colour) colour.value = s.colour || "#000000";
      cwjSet(kind, s.cpu);
      setChoice(home, d.homes || [], s.home);
      setChoice(diff, d.difficulties || [], s.difficulty);
      setChoice(strat, d.strategies || [], s.strategy);
      diffBox.style.display = stratBox.style.display = s.cpu ? "" : "none";
    });
  });
  root.appendChild(seats);
  // the seat a map click gives its home
  const selected = cwjToggles(d.sels || [], (sel) => send({ sel }), "cwj-selected");
  root.appendChild(row("cwj-sel", "", selected, node("i", "cwj-hint", T.hint)));
  updates.push((v) => cwjSet(selected, v.sel));
  // the mode and the number of turns
  const [modeBox, mode] = dropdown(d.modes || [], (m) => send({ mode: m }));
  const turnsLabel = node("div", "widget-html cwj-label", T.turns);
  const [turnsBox, turns] = dropdown(d.turns || [], (n) => send({ turns: n }));
  root.appendChild(row("cwj-mode", T.mode, modeBox, turnsLabel, turnsBox));
  updates.push((v) => {
    setChoice(mode, d.modes || [], v.mode);
    setChoice(turns, d.turns || [], v.turns);
    turnsLabel.style.display = turnsBox.style.display = v.mode === "standard" ? "" : "none";
  });
  // roll for order
  const rollLabel = node("label", "cwj-check");
  const roll = node("input");
  roll.type = "checkbox";
  roll.addEventListener("change", () => send({ roll: roll.checked }));
  rollLabel.appendChild(roll);
  rollLabel.appendChild(document.createTextNode(" " + (T.roll || "")));
  root.appendChild(row("cwj-roll", "", rollLabel));
  updates.push((v) => { roll.checked = !!v.roll; });
  // the seed (in the box of an ipywidgets Text)
  const seedBox = node("div", "widget-text cw-seed");
  const seed = node("input", "cwj-seed");
  seed.type = "text";
  seed.maxLength = 200;
  seed.addEventListener("input", () => send({ seed: seed.value }));
  seedBox.appendChild(seed);
  root.appendChild(row("cwj-seed-row", T.seed, seedBox));
  updates.push((v) => { if (seed.value !== (v.seed || "")) seed.value = v.seed || ""; });
  // one screen or separate screens
  if ((d.screens || []).length) {
    const screens = cwjToggles(d.screens, (s) => send({ screens: s }), "cw-screens");
    root.appendChild(row("cwj-screens", T.screens, screens));
    updates.push((v) => cwjSet(screens, v.screens));
  }
  // a problem with the form, then Back and Start
  const error = node("div", "cw-msg");
  root.appendChild(error);
  const buttons = row("cwj-buttons", "");
  for (const [cls, key] of [["cw-back", "back"], ["cw-start mod-primary", "start"]]) {
    const b = node("button", "cwj-button " + cls, T[key]);
    b.type = "button";
    // Start carries the values the page shows: the game starts with what the player sees
    b.addEventListener("click", () => model.send(key === "start" ? { click: key, values: values() } : { click: key }));
    buttons.appendChild(b);
  }
  root.appendChild(buttons);
  el.replaceChildren(root);
  const update = () => { const v = values(); for (const u of updates) u(v); };
  const say = () => { error.textContent = model.get("problem") || ""; };
  update();
  say();
  return [update, say];
}

export default {
  render({ model, el }) {
    el.classList.add("cwj");
    let [update, say] = draw(model, el);
    const redraw = () => { [update, say] = draw(model, el); };
    const refresh = () => update();
    const tell = () => say();
    model.on("change:desc", redraw);
    model.on("change:values", refresh);
    model.on("change:problem", tell);
    return () => { model.off("change:desc", redraw); model.off("change:values", refresh); model.off("change:problem", tell); };
  },
};
