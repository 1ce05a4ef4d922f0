// The page side of conquest_widget.maps.painter.MapPainter (follows scene.js in one ES
// module): the scene holds "m" (each shape's model, IPY_MODEL_<id>), "o" (the outlines of
// shapes whose own state leaves them out, each ring an encoded polyline), "s<i>" (the styles
// used so far, each a list in the order of STYLE_KEYS; s0 is the base), "S" (the public
// palette, sent once: style i is S[i - 1] when there is no "s<i>") and one key per
// restyled shape (the number of its style).  Each
// style is set on the shape's model in the page (model.set, never saved back to the
// kernel): jupyter-leaflet's views listen to those attributes and restyle the shape with
// Leaflet's setStyle, and a view made later starts from them.
// It also draws the map's labels (see labelInitialize below): no model of theirs is opened.
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

// the style list of number n: "s<n>", else the public palette's S[n - 1], else the base
function paintList(scene, n) {
  if (Array.isArray(scene["s" + n])) return scene["s" + n];
  if (typeof n === "number" && n >= 1 && Array.isArray(scene.S) && Array.isArray(scene.S[n - 1])) return scene.S[n - 1];
  return scene.s0;
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
      const list = paintList(scene, scene[key]);
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
      layer(scene["r" + name]).then((m) => { if (m && typeof m.set === "function") m.set(set); });
    }
    for (const name of Object.keys(placed)) if (!("a" + name in scene)) delete placed[name];
  };
  model.on("change:scene", paint);
  paint();
  return () => model.off("change:scene", paint);
}

// Labels: "M" the map's model, "P" each label's [lat, lon], "B" its icon's [width, height,
// anchor x, anchor y], "T" the titles, "h<key>" the HTML of each label that shows one (built
// and escaped by the kernel, as an ipyleaflet DivIcon's; or the numbers of its parts, "LP",
// see labelHtml), "W" the class of the box the page
// puts that HTML in (<div class='W W-<key>'>; the kernel checked it is a plain class name).  Each Leaflet map drawn for the map
// model (one per view) gets one marker per label, in its marker pane, not interactive (a
// click goes to the shape under it), a little under the other markers at the same place
// (the route's step badges); a label whose HTML or title changed gets its icon again.
const LABEL_Z = -1;

// a label of the scene ("h<key>"): its HTML, or the numbers of the public parts "LP" it is
// made of, each followed by the whole number in it where the part has a "{}", joined by
// single spaces (painter.py encode_label / decode_label); "" for anything else
function labelHtml(scene, value) {
  if (typeof value === "string") return value;
  const parts = Array.isArray(scene.LP) ? scene.LP : [];
  if (!Array.isArray(value)) return "";
  const out = [];
  for (let i = 0; i < value.length; i++) {
    let part = parts[value[i]];
    if (!Number.isInteger(value[i]) || typeof part !== "string") return "";
    if (part.includes("{}")) {
      if (!Number.isInteger(value[++i])) return "";
      part = part.replace("{}", () => String(value[i]));
    }
    out.push(part);
  }
  return out.join(" ");
}

function labelInitialize(model) {
  const manager = model.widget_manager;
  const drawn = new WeakMap();  // Leaflet map -> {key: [marker, html, title]}
  let mapModel = null;          // the map's model (a promise while it is fetched)
  const drawOn = (map, scene) => {
    const L = globalThis.L;  // Leaflet (jupyter-leaflet loads it as window.L)
    if (!L || typeof L.marker !== "function") return;
    const box = Array.isArray(scene.B) ? scene.B : [44, 30, 22, 15];
    const titles = scene.T || {};
    if (!drawn.has(map)) drawn.set(map, {});
    const labels = drawn.get(map);
    for (const [key, point] of Object.entries(scene.P)) {
      let html = labelHtml(scene, scene["h" + key]);
      if (html && typeof scene.W === "string" && /^[\w-]+$/.test(scene.W) && /^\w+$/.test(key)) {
        html = "<div class='" + scene.W + " " + scene.W + "-" + key + "'>" + html + "</div>";
      }
      const title = typeof titles[key] === "string" ? titles[key] : "";
      const icon = () => L.divIcon({ html, iconSize: [box[0], box[1]], iconAnchor: [box[2], box[3]] });
      const had = labels[key];
      if (!had) {
        const marker = L.marker(point, { icon: icon(), title, interactive: false, keyboard: false,
                                         zIndexOffset: LABEL_Z });
        marker.addTo(map);
        labels[key] = [marker, html, title];
      } else if (had[1] !== html || had[2] !== title) {
        had[0].options.title = title;
        had[0].setIcon(icon());
        labels[key] = [had[0], html, title];
      }
    }
  };
  // every Leaflet map of the map model's views (a view's map exists once it is rendered)
  const draw = async () => {
    const scene = model.get("scene") || {};
    if (typeof scene.M !== "string" || !scene.P || !manager || typeof manager.get_model !== "function") return;
    if (!mapModel) {
      mapModel = Promise.resolve(manager.get_model(scene.M.replace(/^IPY_MODEL_/, ""))).catch(() => null);
      // a view's map reports its bounds once drawn: the labels are put on it then
      mapModel.then((m) => { if (m && typeof m.on === "function") m.on("change:north change:south change:east change:west", draw); });
    }
    const m = await mapModel;
    if (!m || !m.views) return;
    for (const view of Object.values(m.views)) {
      const v = await Promise.resolve(view).catch(() => null);
      if (v && v.obj) drawOn(v.obj, model.get("scene") || {});
    }
  };
  model.on("change:scene", draw);
  draw();
  return { draw, stop: () => model.off("change:scene", draw) };
}

// the painters' label drawers: a view of a painter, shown beside its map's, has each look for
// new views of its map (the page has one painter per map)
const labelDrawers = new Set();

export default {
  initialize({ model }) {
    const stopScene = sceneInitialize(model);
    const stopPaint = paintInitialize(model);
    const labels = labelInitialize(model);
    labelDrawers.add(labels.draw);
    return () => { labelDrawers.delete(labels.draw); labels.stop(); stopPaint(); stopScene(); };
  },
  render() {
    for (const draw of labelDrawers) draw();
  },
};
