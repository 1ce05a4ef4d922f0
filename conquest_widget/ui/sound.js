// The page side of conquest_widget.ui.sound.Sound (an ES module for anywidget): every
// effect synthesised with WebAudio from the recipes of conquest_widget.ui.sound.EFFECTS (sound.py
// puts them in place of the empty EFFECTS below), spoken text with speechSynthesis, and every request
// written to window.__cwSound.  Loaded by conquest_widget.lean.page_file (comment lines
// and indentation are left out of what is sent).
// conquest_widget.ui.sound.PAGE_LOG_SIZE (tests/ui/test_sound.py checks they agree)
const EFFECTS = {};
const LOG_SIZE = 50;
const MIN_GAP_MS = 50;

// one audio state per page, shared by every Sound widget (a page may show several apps)
function audio() {
  if (!window.__cwAudio) {
    const st = window.__cwAudio = { ctx: null, unlocked: false, last: {}, noise: null };
    const unlock = () => {
      st.unlocked = true;
      try {
        const Ctor = window.AudioContext || window.webkitAudioContext;
        if (Ctor && !st.ctx) st.ctx = new Ctor();
        if (st.ctx && st.ctx.state === "suspended") st.ctx.resume().catch(() => {});
      } catch (e) { st.ctx = null; }
    };
    // browsers allow sound only after a gesture: nothing is created before one
    for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, unlock, true);
  }
  return window.__cwAudio;
}

function record(entry) {
  const log = (window.__cwSound = window.__cwSound || []);
  log.push(Object.assign({ t: Date.now() }, entry));
  while (log.length > LOG_SIZE) log.shift();
}

function noiseBuffer(ctx, st) {
  if (!st.noise || st.noise.sampleRate !== ctx.sampleRate) {
    const n = Math.floor(ctx.sampleRate * 1.0);
    const buf = ctx.createBuffer(1, n, ctx.sampleRate);
    const data = buf.getChannelData(0);
    let seed = 12345;  // a fixed pseudo-random hiss: every roll sounds alike
    for (let i = 0; i < n; i++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; data[i] = seed / 0x3fffffff - 1; }
    st.noise = buf;
  }
  return st.noise;
}

function synth(ctx, st, recipe, volume, delay) {
  const out = ctx.createGain();
  out.gain.value = volume;
  out.connect(ctx.destination);
  const t0 = ctx.currentTime + 0.01 + delay;
  let last = t0;
  for (const v of recipe) {
    const start = t0 + (v.at || 0), end = start + v.dur;
    let src;
    if (v.wave === "noise") {
      src = ctx.createBufferSource();
      src.buffer = noiseBuffer(ctx, st);
    } else {
      src = ctx.createOscillator();
      src.type = v.wave;
      src.frequency.setValueAtTime(v.freq, start);
      if (v.to) src.frequency.exponentialRampToValueAtTime(v.to, end);
    }
    let node = src;
    if (v.filter) {
      const f = ctx.createBiquadFilter();
      f.type = v.filter.type;
      f.frequency.value = v.filter.freq;
      node.connect(f);
      node = f;
    }
    const g = ctx.createGain();
    const peak = v.gain === undefined ? 0.3 : v.gain, attack = v.attack === undefined ? 0.005 : v.attack;
    g.gain.setValueAtTime(0.0001, start);
    g.gain.exponentialRampToValueAtTime(Math.max(peak, 0.0002), start + attack);
    g.gain.exponentialRampToValueAtTime(0.0001, end);
    node.connect(g);
    g.connect(out);
    src.start(start);
    src.stop(end + 0.02);
    last = Math.max(last, end);
  }
  setTimeout(() => { try { out.disconnect(); } catch (e) {} }, (last - ctx.currentTime + 0.2) * 1000);
}

function play(model, name, delay) {
  const st = audio();
  const recipe = EFFECTS[name];
  if (!recipe) { record({ effect: name, status: "error", error: "unknown effect" }); return; }
  if (!st.unlocked) { record({ effect: name, status: "locked" }); return; }
  const now = Date.now();
  if (st.last[name] && now - st.last[name] < MIN_GAP_MS && !delay) { record({ effect: name, status: "skipped" }); return; }
  st.last[name] = now;
  const ctx = st.ctx;
  if (!ctx) { record({ effect: name, status: "unavailable" }); return; }
  if (ctx.state !== "running") {
    record({ effect: name, status: "suspended", suspended: true });
    try { ctx.resume().catch(() => {}); } catch (e) {}
    return;
  }
  try {
    synth(ctx, st, recipe, model.get("volume"), delay || 0);
    record({ effect: name, status: "played" });
  } catch (e) {
    record({ effect: name, status: "error", error: String(e) });
  }
}

function say(model, text, lang) {
  const st = audio();
  if (!st.unlocked) { record({ effect: "say", text, status: "locked" }); return; }
  const speech = window.speechSynthesis;
  if (!speech || typeof window.SpeechSynthesisUtterance !== "function") {
    record({ effect: "say", text, status: "unavailable" });
    return;
  }
  try {
    const tag = lang === "ja" ? "ja-JP" : "en-US";
    const u = new window.SpeechSynthesisUtterance(text);
    u.lang = tag;
    u.volume = model.get("volume");
    const voices = speech.getVoices() || [];
    const voice = voices.find((v) => v.lang === tag)
      || voices.find((v) => (v.lang || "").toLowerCase().replace("_", "-").startsWith(lang));
    if (voice) u.voice = voice;
    if (speech.pending) speech.cancel();  // the news of fast CPU turns: the latest wins
    speech.speak(u);
    record({ effect: "say", text, status: "played", voice: voice ? voice.lang : null });
  } catch (e) {
    record({ effect: "say", text, status: "error", error: String(e) });
  }
}

export default {
  initialize({ model }) {
    audio();
    const onMessage = (msg) => {
      if (!msg || !model.get("enabled")) return;
      if (msg.type === "play") play(model, msg.effect, Number(msg.delay) || 0);
      else if (msg.type === "say") say(model, String(msg.text), msg.lang || model.get("lang"));
    };
    model.on("msg:custom", onMessage);
    return () => model.off("msg:custom", onMessage);
  },
  render({ el }) {
    el.style.display = "none";
  },
};
