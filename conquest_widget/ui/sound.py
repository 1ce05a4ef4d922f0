"""Sound: short synthesised effects and spoken announcements, played in the browser.

:class:`Sound` is a small front-end widget (:mod:`anywidget`).  Its JavaScript makes every
effect itself with WebAudio (oscillators and noise shaped by envelopes; no sound files) from
the recipes in :data:`EFFECTS`, and speaks text with the browser's speech synthesis
(``window.speechSynthesis``, a ``ja-JP`` or ``en-US`` voice when the browser has one).
Python asks for a sound with :meth:`Sound.play` / :meth:`Sound.say`, which send a custom
message to the page; nothing is sent while ``enabled`` is False.  Which event of a game
makes which effect is the game's own: a hosted game gives its table as ``GameUI.sounds``
(kept in its folder, ``games/<id>/sounds.py``) and Japan Conquest's own app maps its events
itself; this module holds no game's table, only the effects, their order of importance
(:data:`EFFECT_PRIORITY`) and the player.

Browsers block sound until the page has been clicked, so the page side creates its
``AudioContext`` only at the first ``pointerdown`` or ``keydown`` on the page, and never
throws when audio is missing (a headless browser).  Every request it receives is written
to ``window.__cwSound`` (the last :data:`PAGE_LOG_SIZE`), ``{effect, t, status}`` with
``status`` one of ``played``, ``locked`` (the page has not been clicked yet),
``suspended`` (the AudioContext is not running; ``suspended: true``), ``unavailable`` (no
WebAudio / no speech synthesis), ``skipped`` (the same effect again within 50 ms) or
``error``; spoken text has ``effect: "say"`` and ``text``.  The browser tests read it.

    >>> s = Sound(enabled=False)
    >>> s.play("roll"), s.say("Aoi's turn"), list(s.sent)
    (False, False, [])
    >>> s.enabled = True
    >>> s.play("roll"), s.sent[-1]
    (True, {'type': 'play', 'effect': 'roll'})
    >>> s.play("trumpet")
    Traceback (most recent call last):
    ...
    conquest_widget.ui.sound.UnknownEffectError: unknown sound effect 'trumpet'; the effects are battle, battle_lost, battle_won, claim, game_end, region, roll, step, turn_start, upgrade
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as W
from traitlets import Bool, Float, TraitError, Unicode, validate

from conquest_widget.errors import ConquestError
from conquest_widget.lean import Layout, page_file
from conquest_widget.saves.documents import (
    DEFAULT_SOUND_ENABLED as DEFAULT_ENABLED,
)
from conquest_widget.saves.documents import (
    DEFAULT_VOLUME,
    SoundPreferenceError,
    check_sound_preference,
    check_volume,
    sound_preference,
)

#: how many requests the page keeps in ``window.__cwSound`` (and Python in ``Sound.sent``)
PAGE_LOG_SIZE = 50
#: the longest text spoken at once (characters)
MAX_SPEECH = 300
#: the longest delay of an effect (seconds)
MAX_DELAY = 5.0

# One recipe per effect: a list of voices started together.  A voice is a waveform
# ("sine", "square", "triangle", "sawtooth") or "noise"; ``at`` its start and ``dur`` its
# length (seconds); ``freq`` its pitch (Hz), gliding to ``to`` if given; ``gain`` its peak
# (0-1, before the player's volume) reached after ``attack`` seconds, then an exponential
# fade to silence at the end; ``filter`` an optional {"type": "lowpass"|"bandpass"|
# "highpass", "freq": Hz} the voice goes through.
EFFECTS: dict[str, list[dict[str, Any]]] = {
    # dice rattling in a cup, then landing
    "roll": [
        {"wave": "noise", "at": 0.00, "dur": 0.05, "gain": 0.5, "filter": {"type": "bandpass", "freq": 2400}},
        {"wave": "noise", "at": 0.07, "dur": 0.05, "gain": 0.45, "filter": {"type": "bandpass", "freq": 3000}},
        {"wave": "noise", "at": 0.15, "dur": 0.06, "gain": 0.5, "filter": {"type": "bandpass", "freq": 2000}},
        {"wave": "triangle", "at": 0.24, "dur": 0.08, "freq": 180, "to": 90, "gain": 0.5},
    ],
    # a soft wooden tick: one step of the pawn
    "step": [{"wave": "triangle", "at": 0.0, "dur": 0.07, "freq": 740, "to": 520, "gain": 0.35}],
    # two rising notes: a prefecture becomes yours
    "claim": [
        {"wave": "sine", "at": 0.00, "dur": 0.12, "freq": 523.25, "gain": 0.4},
        {"wave": "sine", "at": 0.10, "dur": 0.22, "freq": 783.99, "gain": 0.4},
    ],
    # a quick arpeggio up: territory -> base -> castle
    "upgrade": [
        {"wave": "triangle", "at": 0.00, "dur": 0.10, "freq": 523.25, "gain": 0.35},
        {"wave": "triangle", "at": 0.08, "dur": 0.10, "freq": 659.25, "gain": 0.35},
        {"wave": "triangle", "at": 0.16, "dur": 0.10, "freq": 783.99, "gain": 0.35},
        {"wave": "triangle", "at": 0.24, "dur": 0.30, "freq": 1046.5, "gain": 0.4},
    ],
    # a drum and a low horn: a battle between others
    "battle": [
        {"wave": "noise", "at": 0.00, "dur": 0.18, "gain": 0.5, "filter": {"type": "lowpass", "freq": 400}},
        {"wave": "sawtooth", "at": 0.05, "dur": 0.45, "freq": 146.83, "gain": 0.25, "attack": 0.04,
         "filter": {"type": "lowpass", "freq": 900}},
    ],
    # a short fanfare: your side won
    "battle_won": [
        {"wave": "noise", "at": 0.00, "dur": 0.12, "gain": 0.4, "filter": {"type": "lowpass", "freq": 500}},
        {"wave": "square", "at": 0.05, "dur": 0.12, "freq": 392.0, "gain": 0.2, "filter": {"type": "lowpass", "freq": 2500}},
        {"wave": "square", "at": 0.17, "dur": 0.12, "freq": 523.25, "gain": 0.2, "filter": {"type": "lowpass", "freq": 2500}},
        {"wave": "square", "at": 0.29, "dur": 0.45, "freq": 659.25, "gain": 0.22, "filter": {"type": "lowpass", "freq": 2500}},
    ],
    # a falling horn: your side lost
    "battle_lost": [
        {"wave": "noise", "at": 0.00, "dur": 0.12, "gain": 0.4, "filter": {"type": "lowpass", "freq": 500}},
        {"wave": "sawtooth", "at": 0.05, "dur": 0.55, "freq": 330.0, "to": 165.0, "gain": 0.25,
         "filter": {"type": "lowpass", "freq": 1200}},
    ],
    # a bright major chord: a whole region is under your control
    "region": [
        {"wave": "sine", "at": 0.0, "dur": 0.7, "freq": 523.25, "gain": 0.25, "attack": 0.02},
        {"wave": "sine", "at": 0.0, "dur": 0.7, "freq": 659.25, "gain": 0.25, "attack": 0.02},
        {"wave": "sine", "at": 0.0, "dur": 0.7, "freq": 783.99, "gain": 0.25, "attack": 0.02},
        {"wave": "triangle", "at": 0.12, "dur": 0.6, "freq": 1046.5, "gain": 0.2, "attack": 0.02},
    ],
    # a two-tone chime: the next player's turn
    "turn_start": [
        {"wave": "sine", "at": 0.00, "dur": 0.25, "freq": 880.0, "gain": 0.3},
        {"wave": "sine", "at": 0.14, "dur": 0.40, "freq": 1318.5, "gain": 0.3},
    ],
    # a longer fanfare: the game is over
    "game_end": [
        {"wave": "square", "at": 0.00, "dur": 0.15, "freq": 523.25, "gain": 0.2, "filter": {"type": "lowpass", "freq": 2500}},
        {"wave": "square", "at": 0.15, "dur": 0.15, "freq": 659.25, "gain": 0.2, "filter": {"type": "lowpass", "freq": 2500}},
        {"wave": "square", "at": 0.30, "dur": 0.15, "freq": 783.99, "gain": 0.2, "filter": {"type": "lowpass", "freq": 2500}},
        {"wave": "sine", "at": 0.45, "dur": 0.90, "freq": 1046.5, "gain": 0.3, "attack": 0.02},
        {"wave": "sine", "at": 0.45, "dur": 0.90, "freq": 783.99, "gain": 0.2, "attack": 0.02},
        {"wave": "noise", "at": 0.45, "dur": 0.30, "gain": 0.3, "filter": {"type": "lowpass", "freq": 300}},
    ],
}


class UnknownEffectError(ConquestError, LookupError):
    """An effect name that is not a key of :data:`EFFECTS`."""


#: the page side (an ES module for anywidget, ``sound.js`` beside this file), with the recipes
#: of EFFECTS built in (compact JSON, in place of its empty ``EFFECTS``)
_ESM = page_file(Path(__file__).with_name("sound.js")).replace(
    "const EFFECTS = {};", f"const EFFECTS = {json.dumps(EFFECTS, separators=(',', ':'))};", 1)


#: one action plays its most important effect (the first of these that it produced); the
#: next turn's chime follows after TURN_CHIME_DELAY seconds
EFFECT_PRIORITY = ("game_end", "battle_won", "battle_lost", "battle", "region", "upgrade", "claim", "roll", "step")
TURN_CHIME_DELAY = 0.6

#: the words of the sound controls and of the shell's announcements: key -> (English, Japanese)
LABELS: dict[str, tuple[str, str]] = {
    "sound_on": ("🔊 Sound", "🔊 音あり"),
    "sound_off": ("🔇 Sound", "🔇 音なし"),
    "sound_tip": ("Sound effects and spoken announcements (they start after your first click on the page)",
                  "効果音と音声案内（ページを一度クリックすると鳴り始めます）"),
    "volume": ("Volume", "音量"),
    "your_turn": ("{name}'s turn", "{name}の番です"),
    "game_over": ("Game over. Winner: {names}", "ゲーム終了。勝者は{names}"),
}


def label(key: str, lang: str, **fmt: Any) -> str:
    """A word of :data:`LABELS` in ``lang`` ("en" or "ja").

    >>> label("your_turn", "ja", name="Ann")
    'Annの番です'
    """
    en, ja = LABELS[key]
    text = ja if lang == "ja" else en
    return text.format(**fmt) if fmt else text


def pick_effects(found: set[str] | frozenset[str]) -> list[tuple[str, float]]:
    """The effects one action plays, as ``(effect, delay)``: the most important of
    ``found`` (see :data:`EFFECT_PRIORITY`), then the turn chime if a turn started (not
    after the end).

    >>> pick_effects({"claim", "upgrade", "turn_start"})
    [('upgrade', 0.0), ('turn_start', 0.6)]
    >>> pick_effects({"turn_start"}), pick_effects({"game_end", "turn_start"}), pick_effects(set())
    ([('turn_start', 0.0)], [('game_end', 0.0)], [])
    """
    main = next((e for e in EFFECT_PRIORITY if e in found), None)
    effects = [] if main is None else [(main, 0.0)]
    if "turn_start" in found and main != "game_end":
        effects.append(("turn_start", TURN_CHIME_DELAY if effects else 0.0))
    return effects


class Sound(anywidget.AnyWidget):
    """Plays the effects of :data:`EFFECTS` and speaks text in the browser (see the module
    docstring).  Put it in the displayed widget tree (it draws nothing) and call
    :meth:`play` / :meth:`say`; ``enabled``, ``volume`` and ``lang`` are synced to the page.

        >>> s = Sound(volume=0.3, lang="ja")
        >>> s.say("Aoiの番です"), s.sent[-1]
        (True, {'type': 'say', 'text': 'Aoiの番です', 'lang': 'ja'})
        >>> Sound(volume=2)
        Traceback (most recent call last):
        ...
        traitlets.traitlets.TraitError: volume must be a number from 0 to 1, got 2.0
    """

    _esm = _ESM
    enabled = Bool(DEFAULT_ENABLED, help="False: nothing is sent and nothing sounds").tag(sync=True)
    volume = Float(DEFAULT_VOLUME, help="0 (silent) to 1").tag(sync=True)
    lang = Unicode("en", help='"en" or "ja": the voice of spoken text').tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        if "layout" not in kwargs:
            kwargs["layout"] = Layout()  # only the properties set are sent (issue 32)
        super().__init__(**kwargs)
        #: the messages sent to the page (the last PAGE_LOG_SIZE), oldest first
        self.sent: deque[dict[str, Any]] = deque(maxlen=PAGE_LOG_SIZE)
        self.add_class("cw-sound")

    @validate("volume")
    def _check_volume(self, proposal: dict[str, Any]) -> float:
        try:
            return check_volume(proposal["value"])
        except SoundPreferenceError as exc:
            raise TraitError(str(exc)) from None

    @validate("lang")
    def _check_lang(self, proposal: dict[str, Any]) -> str:
        if proposal["value"] not in ("en", "ja"):
            raise TraitError(f'lang must be "en" or "ja", got {proposal["value"]!r}')
        return proposal["value"]

    @property
    def audible(self) -> bool:
        """Would a request be sent now (sound on, volume above 0)?"""
        return self.enabled and self.volume > 0

    def play(self, effect: str, *, delay: float = 0.0) -> bool:
        """Ask the page to play ``effect`` (a key of :data:`EFFECTS`) ``delay`` seconds from
        now; returns whether a request was sent (not while disabled or at volume 0).
        Raises :class:`UnknownEffectError` for a name that is not an effect."""
        if effect not in EFFECTS:
            raise UnknownEffectError(f"unknown sound effect {effect!r}; the effects are {', '.join(sorted(EFFECTS))}")
        if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= MAX_DELAY:
            raise ValueError(f"delay must be 0 to {MAX_DELAY} seconds, got {delay!r}")
        # a delay of 0 is left out (the page plays at once without one): 14 B less a move
        return self._request({"type": "play", "effect": effect} | ({"delay": float(delay)} if delay else {}))

    def say(self, text: str) -> bool:
        """Ask the page to speak ``text`` in ``lang`` (at most :data:`MAX_SPEECH`
        characters; longer text is cut); returns whether a request was sent.  A browser
        without speech synthesis stays silent."""
        if not isinstance(text, str):
            raise TypeError(f"text to speak must be a string, got {type(text).__name__}")
        text = " ".join(text.split())[:MAX_SPEECH]
        if not text:
            return False
        return self._request({"type": "say", "text": text, "lang": self.lang})

    def _request(self, msg: dict[str, Any]) -> bool:
        if not self.audible:
            return False
        self.sent.append(msg)
        self.send(msg)
        return True



__all__ = [
    "DEFAULT_ENABLED",
    "DEFAULT_VOLUME",
    "EFFECTS",
    "EFFECT_PRIORITY",
    "LABELS",
    "Sound",
    "SoundControls",
    "SoundPreferenceError",
    "UnknownEffectError",
    "check_sound_preference",
    "check_volume",
    "label",
    "pick_effects",
    "sound_preference",
]


class SoundControls(W.HBox):
    """The switch (a speaker toggle) and the volume slider for a :class:`Sound`, which it
    holds as ``sound`` (displayed with it).  ``on_change(callback)``: called with
    ``{"enabled", "volume"}`` after the player changes either (to remember it).

        >>> bar = SoundControls(enabled=False, volume=0.3, lang="ja")
        >>> bar.toggle.description, bar.slider.description, bar.sound.enabled
        ('🔇 音なし', '音量', False)
        >>> seen = []; bar.on_change(seen.append); bar.toggle.value = True
        >>> seen, bar.sound.enabled, bar.toggle.description
        ([{'enabled': True, 'volume': 0.3}], True, '🔊 音あり')
    """

    def __init__(self, *, enabled: bool = DEFAULT_ENABLED, volume: float = DEFAULT_VOLUME, lang: str = "en",
                 **kwargs: Any) -> None:
        self.sound = Sound(enabled=enabled, volume=volume, lang=lang)
        self.toggle = W.ToggleButton(value=enabled, layout=Layout(width="auto"))
        self.toggle.add_class("cw-sound-toggle")
        self.slider = W.FloatSlider(value=self.sound.volume, min=0.0, max=1.0, step=0.05, readout=False,
                                    continuous_update=False, layout=Layout(width="170px"))
        self.slider.add_class("cw-sound-volume")
        self._callbacks: list[Any] = []
        kwargs.setdefault("layout", Layout(align_items="center"))
        super().__init__([self.toggle, self.slider, self.sound], **kwargs)
        self.add_class("cw-sound-controls")
        self.set_lang(lang)
        self.toggle.observe(self._changed, names="value")
        self.slider.observe(self._changed, names="value")

    def on_change(self, callback: Any) -> None:
        """Call ``callback({"enabled": bool, "volume": float})`` after each change by the player."""
        self._callbacks.append(callback)

    def set_lang(self, lang: str) -> None:
        """Label the controls (and speak) in ``lang``."""
        self.sound.lang = lang
        self.toggle.description = label("sound_on" if self.toggle.value else "sound_off", lang)
        self.toggle.tooltip = label("sound_tip", lang)
        self.slider.description = label("volume", lang)

    def _changed(self, _: Any = None) -> None:
        with self.sound.hold_sync():
            self.sound.enabled = self.toggle.value
            self.sound.volume = self.slider.value
        setting = {"enabled": self.sound.enabled, "volume": self.sound.volume}
        for callback in self._callbacks:
            callback(setting)
        self.set_lang(self.sound.lang)  # after remembering: the new label shows it is kept
