// Japan Conquest's start screen in the page (start_screen.py's StartScreen is its kernel side, a
// scene widget: this file follows scene.js in one ES module, which merges the kernel's patches
// into the scene and sends a click back as one message {click: target}).  The title, New Game,
// Watch 4 CPUs and, with a save store, Continue Last Game, the slots (Resume / Replay / Delete),
// the question before a delete, Previous Results, Save Data Management, the records against CPUs
// and the last problem are drawn again from the scene after each change.  Every text goes in
// with textContent (or as a text node): a player's name from a save file is never read as markup.

// an element of class ``cls`` holding ``kids`` (elements, or strings as text)
function el(tag, cls, ...kids) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...kids.filter((k) => k !== null && k !== undefined && k !== ""));
  return e;
}

// the button of click target ``target`` (class cw-<target>), sent back only when enabled
function button(target, text, on, send, cls, tip) {
  const b = el("button", "cw-btn cw-" + target + (cls ? " " + cls : ""), text || "");
  b.type = "button";
  b.disabled = !on;
  if (tip) b.title = tip;
  if (on) b.addEventListener("click", () => send(target));
  return b;
}

// a table of ``h`` (column titles) and ``r`` (rows of texts) under a bold title ``t`` (+ ``s``);
// a cell [name, mark] is a player's name (cut with an ellipsis, in full on hover) and its CPU mark
function table(part, cls) {
  const cell = (x) => {
    if (typeof x === "string") return el("td", "", x);
    const name = el("span", "cw-name", x[0]);
    name.title = x[0];
    return el("td", "", name, x[1]);
  };
  const rows = [el("tr", "", ...part.h.map((h) => el("th", "", h)))];
  for (const row of part.r) rows.push(el("tr", "", ...row.map(cell)));
  return el("div", "cw-score " + cls, el("b", "", part.t), part.s || "", el("table", "", ...rows));
}

function results(rs) {
  if (rs.e) return el("div", "cw-results-list", el("i", "", rs.e));
  return el("div", "cw-results-list", ...rs.b.map((part) => table(part, "cw-previous")), rs.m ? el("i", "", rs.m) : "");
}

function records(rc) {
  if (rc.e) return el("div", "cw-records-box", el("div", "cw-msg", rc.e));
  return el("div", "cw-records-box", table(rc, "cw-records"), el("i", "", rc.n));
}

function startScreen(s, send) {
  const L = s.L || {};
  const root = el("div", "cw-start", el("h2", "", s.ti || ""));
  root.append(el("div", "cw-row", button("new-game", L.new_game, true, send, "cw-primary"),
    button("watch", L.watch_cpus, true, send)));
  if (!s.au) return root;  // no save store
  const [canContinue, canReplay, info] = s.au;
  root.append(el("div", "cw-row", button("continue", L.continue, canContinue, send, "cw-success"),
    button("replay-autosave", L.replay, canReplay, send, "", L.replay_tip), el("span", "cw-auto-info", info)));
  for (let n = 1; ("s" + n) in s; n++) {
    const [text, on, canDelete] = s["s" + n];
    const row = el("div", "cw-row cw-slot", button("resume-" + n, L.resume, on, send),
      button("replay-" + n, L.replay, on, send, "", L.replay_tip), button("delete-" + n, L.delete, canDelete, send),
      el("span", "cw-slot-text", text));
    row.setAttribute("data-slot", String(n));
    root.append(row);
  }
  if (s.cf) {
    root.append(el("div", "cw-row cw-ask", el("b", "", s.cf), button("yes", L.yes, true, send, "cw-danger"),
      button("no", L.no, true, send)));
  }
  root.append(el("div", "cw-row", button("results", L.previous_results, true, send),
    button("data", L.save_data, true, send)));
  if (s.rs) root.append(results(s.rs));
  if (s.rc) root.append(records(s.rc));
  if (s.ms) root.append(el("div", "cw-msg cw-start-msg", s.ms));
  return root;
}

export default {
  initialize({ model }) { return sceneInitialize(model); },
  render({ model, el: root }) {
    root.classList.add("cw-start-screen");
    return sceneRender(model, root, startScreen);
  },
};
