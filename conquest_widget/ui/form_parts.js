// What the page modules of the New game forms share (ui/setup_form.js, Japan Conquest's
// widget/setup_form.js): put before a form's own module in the one ES module it sends
// (PageForm.page_module), so it exports nothing.  Every text goes in with textContent.

// an element with a class and a text (never markup)
function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null && text !== "") e.textContent = String(text);
  return e;
}

// buttons of which one is on, in a box of class boxCls (each button of class buttonCls)
function toggles(pairs, onPick, boxCls, buttonCls) {
  const box = node("div", boxCls);
  for (const [label, value] of pairs) {
    const b = node("button", buttonCls, label);
    b.type = "button";
    b.dataset.value = String(value);
    b.addEventListener("click", () => onPick(value));
    box.appendChild(b);
  }
  return box;
}

// the button of that value on (class onCls), the others off
function setToggles(box, value, onCls) {
  for (const b of box.children) {
    const on = b.dataset.value === String(value);
    b.classList.toggle(onCls, on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
}
