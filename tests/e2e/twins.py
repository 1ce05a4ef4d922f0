"""Browser twins (issue 27): two app servers, each with its own save folder, and one
Chromium page on each, driven click for click; everything the kernel sends to each page
(every websocket frame) and the page's DOM are compared, byte for byte after removing
only what is random per session.

- :func:`twin_pair` starts the two servers (as ``make play`` does, :func:`harness.voila_app`)
  and a page on each whose websocket frames are recorded per websocket.
- :meth:`Twin.write_autosave` writes a match as the autosave of that twin's save folder
  through :class:`~conquest_widget.saves.SaveStore` (so Resume opens it).
- :func:`compare` waits until both pages are quiet (no new frame, the same DOM for a
  moment), then asserts that the frames received since the window began
  (:meth:`Twin.begin_window`: a page load) and the app's DOM are identical; on a
  difference the two normalised streams and DOMs are written to the artifacts folder and
  the assertion quotes the first differing message.

What is random per session and normalised: message headers (msg_id, session, username,
date, version), parent headers but their msg_type, comm/model ids and every other uuid
(replaced by their order of first appearance, ``U0``, ``U1``...), ISO dates and times,
the kernel's id, the server's port (Leaflet echoes the page's URL) and token.  Nothing else is touched: if a twin's frame
differs in anything a game or the app put in it, the comparison fails.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import re
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from conquest_widget.games.japanese_risk.widget.board import ATTACK_BORDER, COLOURS
from conquest_widget.saves import SaveStore

from .harness import ARTIFACTS, OfflineGuard, new_context, new_page, serve_copy, voila_app
from .test_risk_in_browser import _POINT_JS, _VERSION_JS

QUIET_S = 0.8          # a page is quiet when nothing new arrived for this long
SETTLE_TIMEOUT_S = 120  # waiting for quiet (a generous bound, not an assertion of speed)
LEASE_TIMEOUT_S = 90    # waiting for a left page's kernel to let go of the game
AGREE_TIMEOUT_S = 20    # waiting for a slower twin to catch up before calling a difference

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")
HEX_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{24,64}(?![0-9a-f])")


@dataclass
class Twin:
    """One side of a twin pair: its server, save folder and page."""

    name: str
    served: Path
    url: str
    page: Page
    #: one list of payloads per websocket the page opened, in order
    sockets: list[list[Any]] = field(default_factory=list)
    mark: int = 0
    token: str = ""

    @property
    def store(self) -> SaveStore:
        return SaveStore(self.served / "conquest_saves")

    def write_autosave(self, match: Any) -> None:
        """``match`` becomes the autosave of this twin's save folder (SaveStore's own
        writer: the file is exactly what the app writes).  The kernel of a page just left
        may still hold the game's play lease for a moment: wait (bounded) for it to go."""
        deadline = time.monotonic() + LEASE_TIMEOUT_S
        while True:
            try:
                self.store.autosave(match)
                return
            except Exception as exc:
                if type(exc).__name__ != "GameOpenElsewhereError" or time.monotonic() > deadline:
                    raise
            time.sleep(0.5)

    def begin_window(self) -> None:
        """From now on only websockets opened later count (call before a page load)."""
        self.mark = len(self.sockets)

    def frames(self) -> list[Any]:
        return [p for ws in self.sockets[self.mark:] for p in ws]

    def n_frames(self) -> int:
        return sum(len(ws) for ws in self.sockets)

    def shot(self, artifacts: Path, name: str) -> None:
        with contextlib.suppress(Exception):
            self.page.screenshot(path=str(artifacts / f"{name}-{self.name}.png"), full_page=True)


def _record(tw: Twin) -> None:
    def on_ws(ws) -> None:
        box: list[Any] = []
        tw.sockets.append(box)
        ws.on("framereceived", lambda payload: box.append(payload))

    tw.page.on("websocket", on_ws)


@contextlib.contextmanager
def twin_pair(browser, root: Path, artifacts: Path, tag: str) -> Iterator[tuple[Twin, Twin]]:
    """Two servers (each serving its own copy of the app, so each has its own
    ``conquest_saves``) and a fresh browser context and page on each."""
    with contextlib.ExitStack() as stack:
        twins = []
        for name in ("A", "B"):
            served = serve_copy(root / f"served-{name}")
            server = stack.enter_context(voila_app(served, root / f"home-{name}", artifacts / f"voila-{tag}-{name}.log"))
            context = new_context(browser, OfflineGuard())
            stack.callback(context.close)
            page = new_page(context)
            tw = Twin(name, served, server.url, page, token=_token(server.url))
            _record(tw)
            twins.append(tw)
        yield twins[0], twins[1]


def _token(url: str) -> str:
    m = re.search(r"token=([^&]+)", url)
    return m.group(1) if m else ""


# ------------------------------------------------------------------ frames
def _decode(payload: Any) -> dict[str, Any] | None:
    """A websocket frame as a Jupyter message dict (JSON text, or the binary v1 protocol:
    offsets, then channel, header, parent header, metadata, content, buffers)."""
    if isinstance(payload, str):
        try:
            return json.loads(payload)
        except ValueError:
            return {"raw": payload}
    data = bytes(payload)
    try:
        n = struct.unpack_from("<Q", data, 0)[0]
        offsets = list(struct.unpack_from(f"<{n}Q", data, 8))
        parts = [data[offsets[i]:offsets[i + 1] if i + 1 < n else len(data)] for i in range(n)]
        msg: dict[str, Any] = {"channel": parts[0].decode()}
        for key, part in zip(("header", "parent_header", "metadata", "content"), parts[1:5], strict=False):
            msg[key] = json.loads(part.decode())
        msg["buffers"] = [hashlib.sha256(b).hexdigest().upper() for b in parts[5:]]
        return msg
    except (struct.error, ValueError, UnicodeDecodeError, IndexError):
        # the old protocol's binary frames: a JSON message with buffers
        try:
            n = struct.unpack_from(">I", data, 0)[0]
            offsets = struct.unpack_from(f">{n}I", data, 4)
            msg = json.loads(data[offsets[0]:offsets[1] if n > 1 else len(data)].decode())
            msg["buffers"] = [hashlib.sha256(data[offsets[i]:offsets[i + 1] if i + 1 < n else len(data)]).hexdigest().upper()
                              for i in range(1, n)]
            return msg
        except (struct.error, ValueError, UnicodeDecodeError, IndexError):
            return {"raw_bytes": hashlib.sha256(data).hexdigest().upper()}


def _essential(msg: dict[str, Any]) -> dict[str, Any] | None:
    """What a message says, without its per-session envelope; None for what carries only
    timing: kernel status (busy / idle) and "No such comm" notes of a page that asked
    before the kernel opened the comm."""
    if "header" not in msg:
        return msg
    kind = msg["header"].get("msg_type")
    content = msg.get("content")
    if kind == "status":
        return None
    if kind == "stream" and isinstance(content, dict) and re.fullmatch(r"No such comm: [0-9a-fA-F-]+\n?", str(content.get("text", ""))):
        return None
    if kind == "kernel_info_reply" and isinstance(content, dict) and "banner" in content:
        content = dict(content, banner="BANNER")  # IPython's banner ends with a random tip
    return {
        "channel": msg.get("channel"),
        "msg_type": kind,
        "parent_msg_type": (msg.get("parent_header") or {}).get("msg_type"),
        "metadata": msg.get("metadata"),
        "content": content,
        "buffers": [x for x in (msg.get("buffers") or []) if x != EMPTY],
    }


LOCAL_ORIGIN = re.compile(r"http://(127\.0\.0\.1|localhost):\d+")
EMPTY = hashlib.sha256(b"").hexdigest().upper()
MODEL_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def canonical_model_names(msgs: list[dict[str, Any]], mask=lambda text: text) -> dict[str, str]:
    """Names for the widget models of a stream that do not depend on their random ids nor
    on the order a dict of them was sent in: each model's first state, with the models it
    refers to (and the ones referring to it) named by the same rule, refined until stable
    (Weisfeiler-Lehman); equal names are ordered by first appearance."""
    states: dict[str, Any] = {}
    for msg in msgs:
        c = msg.get("content")
        if not isinstance(c, dict):
            continue
        data = c.get("data") if isinstance(c.get("data"), dict) else {}
        if msg.get("msg_type") == "comm_open" and "comm_id" in c:
            states.setdefault(c["comm_id"], {"target": c.get("target_name"), "data": data})
        if data.get("method") == "update_states" and isinstance(data.get("states"), dict):
            for k, st in data["states"].items():
                states.setdefault(k, st)
    order = {}
    for msg in msgs:
        for mo in MODEL_ID.finditer(json.dumps(msg, sort_keys=True)):
            order.setdefault(mo.group(0), len(order))
    refs: dict[str, list[str]] = {}
    masked: dict[str, str] = {}
    for k, st in states.items():
        text = json.dumps(st, sort_keys=True)
        refs[k] = [r for r in MODEL_ID.findall(text) if r in states and r != k]
        # every per-session value masked too (a random id, a date, the port), or it would
        # order the names by chance
        masked[k] = mask(ISO_DATE.sub("DATE", HEX_ID.sub("ID", UUID.sub("ID", LOCAL_ORIGIN.sub("SERVER", MODEL_ID.sub("REF", text))))))
    parents: dict[str, list[tuple[str, int]]] = {k: [] for k in states}
    for k, rs in refs.items():
        for pos, r in enumerate(rs):
            parents[r].append((k, pos))
    lab = {k: _h(masked[k]) for k in states}
    classes = len(set(lab.values()))
    for _ in range(200):  # until the partition stops refining (a widget tree's depth at most)
        lab = {k: _h(lab[k] + "|" + ",".join(lab[r] for r in refs[k]) + "|"
                     + ",".join(sorted(f"{lab[p]}@{pos}" for p, pos in parents[k]))) for k in states}
        now = len(set(lab.values()))
        if now == classes:
            break
        classes = now
    ranked = sorted(states, key=lambda k: (lab[k], order.get(k, 10**9)))
    return {k: f"M{i}" for i, k in enumerate(ranked)}


def _rename(obj: Any, fn) -> Any:
    if isinstance(obj, str):
        return fn(obj)
    if isinstance(obj, list):
        return [_rename(x, fn) for x in obj]
    if isinstance(obj, dict):
        return {fn(k): _rename(v, fn) for k, v in obj.items()}
    return obj


class Normaliser:
    """Replaces per-session ids: widget models by :func:`canonical_model_names`, any other
    id by its order of first appearance (one instance per stream); dates; the token."""

    def __init__(self, token: str = "", subst: dict[str, str] | None = None,
                 models: dict[str, str] | None = None) -> None:
        self.ids: dict[str, str] = {}
        self.token = token
        self.subst = subst or {}
        self.models = models or {}

    def _id(self, mo: re.Match) -> str:
        key = mo.group(0).replace("-", "").lower()
        if key in self.models:
            return self.models[key]
        return self.ids.setdefault(key, f"U{len(self.ids)}")

    def __call__(self, text: str) -> str:
        if self.token:
            text = text.replace(self.token, "TOKEN")
        for old, new in self.subst.items():
            text = text.replace(old, new)
        text = LOCAL_ORIGIN.sub("http://SERVER", text)  # each twin's server has its own port
        text = UUID.sub(self._id, text)
        text = HEX_ID.sub(self._id, text)
        text = ISO_DATE.sub("DATE", text)
        return text


def normalised_messages(tw: Twin, subst: dict[str, str] | None = None) -> list[str]:
    """The frames since the window began as canonical JSON lines, normalised (``subst``:
    literal texts replaced first, e.g. the seeds typed into the two setup forms)."""
    msgs = []
    for payload in tw.frames():
        msg = _decode(payload)
        ess = _essential(msg) if msg is not None else None
        if ess is not None:
            msgs.append(ess)
    def mask(text: str) -> str:
        for old, new in (subst or {}).items():
            text = text.replace(old, new)
        return text.replace(tw.token, "TOKEN") if tw.token else text

    norm = Normaliser(tw.token, subst, canonical_model_names(msgs, mask))
    return [json.dumps(_rename(m, norm), sort_keys=True, ensure_ascii=False) for m in msgs]


# ------------------------------------------------------------------ the DOM
_DOM_JS = """
() => {
  const root = document.querySelector('.cw-shell') || document.body;
  return root ? root.outerHTML : '';
}
"""


def dom(tw: Twin, subst: dict[str, str] | None = None) -> str:
    return Normaliser(tw.token, subst)(tw.page.evaluate(_DOM_JS))


def settle(tw: Twin) -> None:
    """Wait (bounded) until no frame arrived and the DOM did not change for QUIET_S."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    last = (tw.n_frames(), tw.page.evaluate(_DOM_JS))
    since = time.monotonic()
    while time.monotonic() < deadline:
        tw.page.wait_for_timeout(150)
        now = (tw.n_frames(), tw.page.evaluate(_DOM_JS))
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= QUIET_S:
            return
    raise AssertionError(f"twin {tw.name}: the page never became quiet within {SETTLE_TIMEOUT_S} s")


class TwinsDiffer(AssertionError):
    pass


def compare(a: Twin, b: Twin, artifacts: Path, label: str, log: list[str] | None = None,
            subst: dict[str, str] | None = None, failures: list[str] | None = None) -> None:
    """Both pages quiet, then: the frames since the window began and the app's DOM are
    identical (normalised); else the streams are written to ``artifacts`` and the
    first difference is quoted."""
    # a twin whose kernel is slower (a busy machine) may still be on its way: the streams
    # only grow, so wait (bounded) for them to agree; ones that differ never will
    deadline = time.monotonic() + AGREE_TIMEOUT_S
    while True:
        settle(a)
        settle(b)
        settle(a)
        fa, fb = normalised_messages(a, subst), normalised_messages(b, subst)
        da, db = dom(a, subst), dom(b, subst)
        if (fa == fb and da == db) or time.monotonic() > deadline:
            break
        a.page.wait_for_timeout(1000)
    if log is not None:
        log.append(f"{label}: {len(fa)} frames, DOM {len(da)} chars")
    if fa == fb and da == db:
        return
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", label)
    (artifacts / f"twins-{safe}-frames-A.txt").write_text("\n".join(fa), encoding="utf-8")
    (artifacts / f"twins-{safe}-frames-B.txt").write_text("\n".join(fb), encoding="utf-8")
    (artifacts / f"twins-{safe}-dom-A.html").write_text(da, encoding="utf-8")
    (artifacts / f"twins-{safe}-dom-B.html").write_text(db, encoding="utf-8")
    a.shot(artifacts, f"twins-{safe}")
    b.shot(artifacts, f"twins-{safe}")
    if fa != fb:
        i = next((k for k, (x, y) in enumerate(zip(fa, fb, strict=False)) if x != y), min(len(fa), len(fb)))
        x = fa[i] if i < len(fa) else "<no frame>"
        y = fb[i] if i < len(fb) else "<no frame>"
        problem = (f"{label}: websocket frame {i} of {len(fa)}/{len(fb)} differs between the twins:\n"
                   f"  A: {_excerpt(x, y)}\n  B: {_excerpt(y, x)}\n(see {artifacts}/twins-{safe}-*)")
    else:
        diff = list(difflib.unified_diff(_lines(da), _lines(db), "A", "B", n=1, lineterm=""))
        problem = (f"{label}: the DOM differs between the twins:\n" + "\n".join(d[:300] for d in diff[:24])
                   + f"\n(see {artifacts}/twins-{safe}-*)")
    if failures is None:
        raise TwinsDiffer(problem)
    failures.append(problem)


def _lines(html: str) -> list[str]:
    return html.replace("><", ">\n<").splitlines()


def _excerpt(x: str, y: str, width: int = 700) -> str:
    """``x`` around its first difference with ``y``."""
    k = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
    start = max(0, k - width // 3)
    return ("..." if start else "") + x[start:start + width] + ("..." if start + width < len(x) else "")


# ------------------------------------------------------------------ the shell, on both pages
COVER = ".cw-cover"
PASS_TO = re.compile(r"Pass the screen to (.+)")

_SCREEN_JS = """
() => {
  const vis = (e) => !!e && (e.offsetParent !== null || e.getClientRects().length > 0);
  const q = (sel) => [...document.querySelectorAll(sel)].filter(vis);
  if (q('.cw-results').length) return 'results';
  if (q('.cw-replay').length) return 'replay';
  if (q('.cw-cover button.cw-uncover').length) return 'cover';
  if (q('button.cw-resume').length || q('button.cw-new-game').length && !q('.cw-exit').length) return 'start';
  return 'play';
}
"""


def screen(tw: Twin) -> str:
    return tw.page.evaluate(_SCREEN_JS)


def cover_name(tw: Twin) -> str | None:
    """The name on the cover screen when it is up, else None."""
    if screen(tw) != "cover":
        return None
    text = tw.page.locator(COVER).first.inner_text()
    m = PASS_TO.search(text)
    assert m, f"twin {tw.name}: the cover does not say whom to pass the screen to: {text!r}"
    return m.group(1).strip().splitlines()[0].strip()


def load_app(tw: Twin, game_id: str) -> None:
    """Load the app's page again (a reload: the old page's beacon shuts its kernel down,
    the new page gets a new kernel) and wait for the game picker."""
    tw.page.goto(tw.url)
    expect(tw.page.locator(f".cw-pick-{game_id}")).to_be_enabled()


def pick_game(tw: Twin, game_id: str) -> None:
    tw.page.locator(f".cw-pick-{game_id}").click()
    expect(tw.page.get_by_role("button", name="New game", exact=True)).to_be_visible()


def open_app(tw: Twin, game_id: str) -> None:
    """Load the app (a new kernel: the page's "reload"), pick ``game_id``."""
    load_app(tw, game_id)
    pick_game(tw, game_id)


def check_cover(tw: Twin, name: str) -> None:
    """The cover is up for ``name``: its text and button, and Save / Exit usable."""
    cover = tw.page.locator(COVER).first
    expect(cover).to_be_visible()
    expect(cover).to_contain_text(f"Pass the screen to {name}")
    expect(tw.page.locator("button.cw-uncover")).to_be_visible()
    expect(tw.page.locator("button.cw-save")).to_be_enabled()
    expect(tw.page.locator("button.cw-exit")).to_be_enabled()


def click_both(a: Twin, b: Twin, selector: str) -> None:
    for tw in (a, b):
        loc = tw.page.locator(selector).first
        expect(loc).to_be_visible()
        loc.click()


# ------------------------------------------------------------------ Risk clicks
_RISK_STATE_JS = """
() => {
  const vis = (sel) => [...document.querySelectorAll(sel)].some(e => e.offsetParent !== null || e.getClientRects().length);
  if (vis('.cw-results')) return 'results';
  if (vis('.cw-cover button.cw-uncover')) return 'cover';
  if (vis('button.cw-place-confirm')) return 'income';
  if (vis('button.cw-commit-all')) return 'commit';
  if (vis('button.cw-commit-none')) return 'commit_none';
  if (vis('button.cw-hold')) return 'window';
  if (vis('button.cw-launch')) return 'launch';
  if (vis('button.cw-end-turn')) return 'turn';
  return '';
}
"""


def _press(tws: list[Twin], cls: str) -> None:
    """Press the button on every page and wait for the board to redraw.  A button that
    goes away before the click lands (an answer the app plays for the player at the
    screen, drawn for a moment first) is not pressed: the page has moved on."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    before = [tw.page.evaluate(_VERSION_JS) for tw in tws]
    for tw in tws:
        button = tw.page.locator(f"button.{cls}")
        try:
            button.click(timeout=15_000)
        except PlaywrightTimeout:
            if button.is_visible():
                raise
    for tw, v in zip(tws, before, strict=True):
        tw.page.wait_for_function(f"() => ({_VERSION_JS})() !== {v!r}", timeout=60_000)


def _click_pref(tws: list[Twin], selector: str) -> int | None:
    """The same real mouse click on every page, at a point of a prefecture matching
    ``selector`` on the first page (which must be the same prefecture on the others)."""
    point = tws[0].page.evaluate(_POINT_JS, selector)
    if point is None:
        return None
    x, y, cls = point
    for tw in tws[1:]:
        other = tw.page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y);"
                                 " return e ? e.getAttribute('class') : null; }", [x, y])
        assert other == cls, f"twin {tw.name} has {other!r} where twin {tws[0].name} has {cls!r}"
    before = [tw.page.evaluate(_VERSION_JS) for tw in tws]
    for tw in tws:
        tw.page.mouse.click(x, y)
    for tw, v in zip(tws, before, strict=True):
        tw.page.wait_for_function(f"() => ({_VERSION_JS})() !== {v!r}", timeout=60_000)
    return int(re.search(r"cw-pref-(\d+)", cls).group(1))


class RiskPlayer:
    """The viewer's decisions by clicks, the same on every page given: income (one
    ninja, the rest on cards), hold at every ninja window, commit everything when
    defending, one attack per turn (deploying first), launch, end the turn."""

    def __init__(self, buy_ninjas: bool | set[int] = True) -> None:
        self.done: set[str] = set()
        self.launched = 0
        #: which seats buy a ninja in each income (True: all)
        self.buy_ninjas = buy_ninjas

    def buys(self, x: int) -> bool:
        return self.buy_ninjas is True or (isinstance(self.buy_ninjas, set) and x in self.buy_ninjas)

    def step(self, tws: list[Twin], x: int) -> None:
        page = tws[0].page
        state = page.wait_for_function(_RISK_STATE_JS, timeout=60_000).json_value()  # one reading: no race
        mine = f'path.cw-pref[fill="{COLOURS[x]}"]'
        status = page.locator(".cw-status").first.inner_text() if state not in ("cover", "results") else ""
        key = f"{state}:{x}:{status.splitlines()[0] if status else ''}"
        if state in ("cover", "results"):
            return  # for the caller: the screen is to be passed, or the game is over
        if state == "income":
            buy = page.locator("button.cw-buy-ninja")
            if key not in self.done and self.buys(x) and buy.is_visible() and buy.is_enabled():
                self.done.add(key)
                _press(tws, "cw-buy-ninja")
                if "acted first" in page.locator(".cw-board-message").first.inner_text():  # refused: a page
                    self.done.discard(key)  # at a table decided on an old version; buy it next time
                return
            self.done.add(key)
            confirm, plus = page.locator("button.cw-place-confirm"), page.locator("button.cw-plus")
            while True:
                if not confirm.is_visible():  # the page moved on since its state was read (a cover,
                    self.done.discard(key)    # an answer played for the player): the caller reads it again
                    return
                if not (confirm.is_disabled() or (plus.is_visible() and plus.is_enabled())):
                    break
                if _click_pref(tws, mine) is None:
                    break
            _press(tws, "cw-place-confirm")
        elif state == "commit":  # everything on the card, or nothing when it holds none
            _press(tws, "cw-commit-all" if page.locator("button.cw-commit-all").is_visible() else "cw-commit-none")
        elif state == "commit_none":  # defending with an empty card: asked all the same
            _press(tws, "cw-commit-none")
        elif state == "window":
            _press(tws, "cw-hold")
        elif state == "launch":
            self.launched += 1
            _press(tws, "cw-launch")
        elif state == "turn":
            if key in self.done or _click_pref(tws, mine) is None:
                _press(tws, "cw-end-turn")
                return
            self.done.add(key)
            if page.locator("button.cw-deploy").is_visible():
                _press(tws, "cw-deploy")
            if _click_pref(tws, f'path.cw-pref[stroke="{ATTACK_BORDER}"]') is None and page.locator("button.cw-clear").is_visible():
                    _press(tws, "cw-clear")
        else:
            for tw in tws:
                tw.shot(ARTIFACTS, "twins-nothing-to-do")
            raise AssertionError(f"the viewer has nothing to do (state {state!r}): {status!r}")
