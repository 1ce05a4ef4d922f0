// The page side of conquest_widget.maps.painter.MapPainter (follows scene.js in one ES
// module): the scene holds "m" (each shape's model, IPY_MODEL_<id>), "o" (the outlines of
// shapes whose own state leaves them out, each ring an encoded polyline), "s<i>" (the styles
// used so far, each a list in the order of STYLE_KEYS; s0 is the base) and one key per
// restyled shape (the number of its style).  Each
// style is set on the shape's model in the page (model.set, never saved back to the
// kernel): jupyter-leaflet's views listen to those attributes and restyle the shape with
// Leaflet's setStyle, and a view made later starts from them.
const PAINT_KEYS = ["fill_color", "fill_opacity", "color", "weight", "dash_array", "opacity"];
const OUTLINE_FACTOR = 1000;  // painter.OUTLINE_DECIMALS = 3

// One ring of an encoded polyline (Google's Encoded Polyline Algorithm) -> [[lat, lon], ...]
function decodeRing(text) {
  const points = [];
  let i = 0, lat = 0, lon = 0;
  const next = () => {
    let result = 0, shift = 0, b;
    do {
      b = text.charCodeAt(i++) - 63;
      result |= (b & 0x1f) << shift;
      shift += 5;
    } while (b >= 0x20);
    return (result & 1) ? ~(result >> 1) : (result >> 1);
  };
  while (i < text.length) {
    lat += next();
    lon += next();
    points.push([lat / OUTLINE_FACTOR, lon / OUTLINE_FACTOR]);
  }
  return points;
}

// the scene's "o" entry of a shape (rings as text, nested as ipyleaflet locations) -> locations
function decodeLocations(x) {
  return typeof x === "string" ? decodeRing(x) : (Array.isArray(x) ? x.map(decodeLocations) : []);
}

function paintStyle(list) {
  const style = {};
  PAINT_KEYS.forEach((k, i) => { style[k] = list[i]; });
  return style;
}

function paintInitialize(model) {
  const models = new Map();  // key -> the shape's model (a promise while it is fetched)
  let shown = {};            // key -> the style list last set in the page
  const outlined = {};       // key -> the encoded outline last set in the page
  const placed = {};         // layer name -> its model and attributes last set in the page
  const manager = model.widget_manager;
  const shape = (key, ref) => {
    if (!models.has(key)) {
      models.set(key, Promise.resolve(manager.get_model(String(ref).replace(/^IPY_MODEL_/, "")))
        .catch(() => null));
    }
    return models.get(key);
  };
  const layers = new Map();  // model reference -> the layer's model (a promise)
  const layer = (ref) => {
    if (!layers.has(ref)) {
      layers.set(ref, Promise.resolve(manager.get_model(String(ref).replace(/^IPY_MODEL_/, ""))).catch(() => null));
    }
    return layers.get(ref);
  };
  const paint = () => {
    const scene = model.get("scene") || {};
    const refs = scene.m || {};
    if (!Array.isArray(scene.s0) || !manager || typeof manager.get_model !== "function") return;
    const next = {};
    for (const key of Object.keys(refs)) {
      const list = Array.isArray(scene["s" + scene[key]]) ? scene["s" + scene[key]] : scene.s0;
      next[key] = list;
      if (key in shown && JSON.stringify(shown[key]) === JSON.stringify(list)) continue;
      shape(key, refs[key]).then((m) => { if (m && typeof m.set === "function") m.set(paintStyle(next[key])); });
    }
    shown = next;
    // outlines ("o"): set once per shape (the polygon's own state leaves them out)
    const outlines = scene.o || {};
    for (const key of Object.keys(outlines)) {
      if (!(key in refs)) continue;
      const text = JSON.stringify(outlines[key]);
      if (outlined[key] === text) continue;
      outlined[key] = text;
      const locations = decodeLocations(outlines[key]);
      shape(key, refs[key]).then((m) => { if (m && typeof m.set === "function") m.set({ locations }); });
    }
    // other layers: "r<name>" their model, "a<name>" the attributes set on it
    for (const key of Object.keys(scene)) {
      if (key[0] !== "a" || typeof scene[key] !== "object" || scene[key] === null) continue;
      const name = key.slice(1);
      const attrs = JSON.stringify(scene[key]);
      if (placed[name] === scene["r" + name] + attrs) continue;
      placed[name] = scene["r" + name] + attrs;
      // a line's points come encoded (one string), as the outlines
      const set = { ...scene[key] };
      if (typeof set.locations === "string") set.locations = decodeRing(set.locations);
      // a label's icon comes as its model's reference: the marker is given the model
      const icon = typeof set.icon === "string" && set.icon.startsWith("IPY_MODEL_") ? layer(set.icon) : null;
      layer(scene["r" + name]).then(async (m) => {
        if (!m || typeof m.set !== "function") return;
        if (icon) {
          const model = await icon;
          if (!model) return;
          const html = set.html;
          delete set.html;
          if (typeof html === "string" && model.get("html") !== html) {
            // the marker's own icon, its HTML rewritten: the marker draws its icon again
            model.set({ html });
            if (m.get("icon") === model) { m.trigger("change:icon", m, model); return; }
          }
          set.icon = model;
        }
        m.set(set);
      });
    }
    for (const name of Object.keys(placed)) if (!("a" + name in scene)) delete placed[name];
  };
  model.on("change:scene", paint);
  paint();
  return () => model.off("change:scene", paint);
}

export default {
  initialize({ model }) {
    const stopScene = sceneInitialize(model);
    const stopPaint = paintInitialize(model);
    return () => { stopPaint(); stopScene(); };
  },
};
