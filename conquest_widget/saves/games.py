"""Which game a document belongs to, and how each game's matches are stored.

This is the one place where the saves learn about games, and it names none:
:func:`codec_for` gives the :class:`GameCodec` of a game id.  A game's match — a
:class:`~conquest_widget.core.match.Match` subclass found through
``registry.get(game_id).engine_class()`` — is stored by :class:`MatchCodec` through its
``to_dict()`` / ``from_dict()``.  A game with documents of its own (an older engine's, as
Japan Conquest has) plugs in a :class:`GameSaves` hook from its own folder
(``GameSpec.saves``).  Tests (or a game still outside the registry) pass
``engines={game_id: MatchClass}``.

    >>> from conquest_widget.games.codex.engine import CodexMatch
    >>> codec = codec_of(CodexMatch(CodexMatch.random_setup(__import__("random").Random(1), 3), seed=1))
    >>> codec.game, codec.players
    ('codex', range(2, 7))
    >>> codec_for("chess")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.UnknownGameError: unknown game 'chess': the games are japan_conquest, conquest_cards, codex, japanese_risk
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from conquest_widget.core import registry
from conquest_widget.core.match import Match
from conquest_widget.errors import CorruptSaveError, SaveError, UnknownGameError
from conquest_widget.saves import schemas

#: the game of every document that names none (version-1 documents, ``autosave.json``):
#: the registry's game with ``legacy_documents`` (Japan Conquest, the package's first)
LEGACY_GAME = registry.legacy_game()

Engines = Mapping[str, type[Match]]


def fingerprint(key: Mapping[str, Any]) -> str:
    """A 32-hex-digit hash of JSON data (game ids of results)."""
    text = json.dumps(key, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def canonical(data: Any) -> str:
    """JSON text that tells ``1``, ``1.0`` and ``true`` apart (for strict comparisons)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class GameCodec:
    """How the saves store the matches of one game (subclasses fill it in)."""

    #: the game id written into every document
    game: str = ""
    #: the game version written (``GameSpec.version``); newer documents are refused
    version: int = 1
    #: how many seats a match of this game has
    players: range = range(2, 7)

    def owns(self, match: object) -> bool:
        """True when ``match`` is a match this codec saves."""
        raise NotImplementedError

    def encode(self, match: Any) -> dict[str, Any]:
        """The engine data of ``match`` (raises :class:`SaveError` when it cannot be saved)."""
        raise NotImplementedError

    def decode(self, data: Any, source: object, *, at: str = "$") -> Any:
        """Check the engine data and rebuild the match (:class:`CorruptSaveError` otherwise)."""
        raise NotImplementedError

    def summary(self, match: Any) -> dict[str, Any]:
        """What a slot list shows: mode, turns, turn, phase, is_over and the seats
        (``name``, ``cpu``, ``difficulty``, ``strategy``)."""
        raise NotImplementedError

    def result(self, match: Any, *, recorded_at: str) -> dict[str, Any]:
        """The result entry of a finished match."""
        raise NotImplementedError

    def game_id(self, match: Any) -> str:
        """A fingerprint of the match (setup, chance and log), equal for the same game."""
        raise NotImplementedError

    def check_setup(self, data: Any, source: object, *, at: str = "$") -> dict[str, Any]:
        """A remembered setup, checked; returns its normalised dict."""
        raise NotImplementedError

    def setup_dict(self, setup: Any) -> dict[str, Any]:
        """The dict of a setup object (or a dict), checked."""
        raise NotImplementedError

    def setup_from_dict(self, data: Mapping[str, Any]) -> Any:
        """The setup object of a checked setup dict."""
        raise NotImplementedError

    def record_label_ok(self, label: str) -> bool:
        """True when ``label`` names one of this game's CPUs."""
        return True

    def check_result(self, entry: Mapping[str, Any], source: object, where: str) -> None:
        """Checks a result entry's game-specific rules (the schema did the rest)."""
        standings = entry["standings"]
        n = len(standings)
        if n not in self.players:
            raise CorruptSaveError(source, f"{where}: {n} players; {self.game} is played by {self.players.start}-{self.players.stop - 1}")
        if sorted(r["seat"] for r in standings) != list(range(n)):
            raise CorruptSaveError(source, f"{where}: the seats must be 0-{n - 1}, once each")
        if any(r["rank"] > n for r in standings):
            raise CorruptSaveError(source, f"{where}: a rank is larger than the number of players")
        names = [r["name"] for r in standings]
        if any(w not in names for w in entry["winners"]):
            raise CorruptSaveError(source, f"{where}: a winner is not one of the players")


# ------------------------------------------------------------- any Match game
def _setup_turns(setup: object) -> int | None:
    """The turn limit of a setup that has one (Japan Conquest's ``turns``), else None."""
    turns = getattr(setup, "turns", None)
    return turns if isinstance(turns, int) and not isinstance(turns, bool) and turns > 0 else None


class MatchCodec(GameCodec):
    """Any game on the shared :class:`~conquest_widget.core.match.Match` protocol."""

    def __init__(self, engine: type[Match]) -> None:
        self.engine = engine
        self.game = engine.spec.id
        self.version = engine.spec.version
        self.players = engine.spec.players

    def owns(self, match: object) -> bool:
        return isinstance(match, self.engine)

    def encode(self, match: Match) -> dict[str, Any]:
        try:
            return match.to_dict()
        except Exception as exc:
            raise SaveError(f"this game cannot be saved: {exc}") from exc

    def decode(self, data: Any, source: object, *, at: str = "$") -> Match:
        schemas.validate(data, schemas.MATCH_DATA, source, at=at)
        if data["game"] != self.game:
            raise CorruptSaveError(source, f"{at}.game: {data['game']!r} does not match the document's game {self.game!r}")
        try:
            return self.engine.from_dict(data)
        except RecursionError:
            raise CorruptSaveError(source, "the game cannot be loaded: its log is too long to replay") from None
        except Exception as exc:
            raise CorruptSaveError(source, f"the game cannot be loaded: {str(exc)[:300]}") from None

    def summary(self, match: Match) -> dict[str, Any]:
        seats = []
        for i, p in enumerate(match.setup.players):
            cpu = bool(getattr(p, "cpu", False))
            seats.append({"name": str(getattr(p, "name", f"Seat {i + 1}")), "cpu": cpu, "difficulty": None, "strategy": None})
        return {
            "mode": getattr(match.setup, "mode", None),
            "turns": None,
            "turn": None,
            "phase": None,
            "is_over": match.is_over,
            "players": seats,
        }

    def game_id(self, match: Match) -> str:
        data = match.to_dict()
        return fingerprint({"game": self.game, "setup": data["setup"], "seed": data.get("seed"), "log": data["log"]})

    def result(self, match: Match, *, recorded_at: str) -> dict[str, Any]:
        outcome = match.outcome()
        if outcome is None:
            raise SaveError("only a finished game has a result: this game is not over")
        scores = outcome.details.get("scores") if isinstance(outcome.details, Mapping) else None
        standings = []
        for seat, p in enumerate(match.setup.players):
            bot = getattr(p, "bot", None)
            cpu = bool(getattr(p, "cpu", False))
            score = scores[seat] if isinstance(scores, list | tuple) and seat < len(scores) else None
            row = {
                "seat": seat,
                "name": str(getattr(p, "name", f"Seat {seat + 1}")),
                "score": score if isinstance(score, int) and not isinstance(score, bool) else None,
                "rank": outcome.ranks[seat],
                "cpu": cpu,
                "bot": bot if isinstance(bot, str) else None,
            }
            for key in ("difficulty", "strategy"):  # Japan Conquest's CPU label, on its Match too
                value = getattr(p, key, None)
                if isinstance(value, str):
                    row[key] = value if cpu else None
            standings.append(row)
        standings.sort(key=lambda r: (r["rank"], r["seat"]))
        return {
            "game": self.game,
            "game_version": self.version,
            "game_id": self.game_id(match),
            "recorded_at": recorded_at,
            "mode": getattr(match.setup, "mode", None),
            "turns": _setup_turns(match.setup),
            "end_reason": outcome.reason or None,
            "actions": len(match.log),
            "standings": standings,
            "winners": [r["name"] for r in standings if r["rank"] == 1],
        }

    def check_setup(self, data: Any, source: object, *, at: str = "$") -> dict[str, Any]:
        try:
            return self.engine.setup_class.from_dict(data).to_dict()
        except Exception as exc:
            raise CorruptSaveError(source, f"{at}: not a valid game setup: {str(exc)[:300]}") from None

    def setup_dict(self, setup: Any) -> dict[str, Any]:
        data = setup if isinstance(setup, Mapping) else setup.to_dict()
        try:
            return self.check_setup(data, "setup")
        except CorruptSaveError as exc:
            raise SaveError(f"not a valid {self.game} setup: {exc.problem}") from None

    def setup_from_dict(self, data: Mapping[str, Any]) -> Any:
        return self.engine.setup_class.from_dict(data)


class GameSaves:
    """A game's own hook into the saves (``GameSpec.saves``, kept in the game's folder),
    for documents the shared :class:`MatchCodec` does not read.  Each method returns
    None to leave the document to the shared codec."""

    def codec_for(self, data: Any = None) -> GameCodec | None:
        """The codec of this game's engine data ``data`` (None: no document yet)."""
        return None

    def rules(self) -> GameCodec | None:
        """What the saves check about this game's results, records and preferences."""
        return None

    def codec_of(self, match: object) -> GameCodec | None:
        """The codec that saves ``match`` when it is one of this game's objects."""
        return None


def _hook(spec: registry.GameSpec) -> GameSaves | None:
    return None if spec.saves is None else spec.load(spec.saves)


def codec_for(game: str, engines: Engines | None = None, data: Any = None) -> GameCodec:
    """The codec of ``game`` — **the one place where a game plugs into the saves**.

    ``engines`` (game id → Match subclass) comes first; then the game's own hook
    (``GameSpec.saves``; ``data`` is the engine data, when there is one); then the
    registry's engine.  Raises :class:`UnknownGameError` for a game that is not
    registered or has no engine.
    """
    if engines and game in engines:
        return MatchCodec(engines[game])
    spec = registry.get(game)
    hook = _hook(spec)
    codec = None if hook is None else hook.codec_for(data)
    if codec is not None:
        return codec
    if spec.engine is None:
        raise UnknownGameError(f"{spec.id} cannot be loaded yet: this package has no engine for it")
    return MatchCodec(spec.engine_class())


def rules_for(game: str, engines: Engines | None = None) -> GameCodec:
    """What the saves check about ``game`` in results, records and preferences: its
    codec, or for a registered game without an engine yet its id, version and seats."""
    if engines and game in engines:
        return MatchCodec(engines[game])
    spec = registry.get(game)
    hook = _hook(spec)
    codec = None if hook is None else hook.rules()
    if codec is not None:
        return codec
    if spec.engine is None:
        rules = GameCodec()
        rules.game, rules.version, rules.players = spec.id, spec.version, spec.players
        return rules
    return MatchCodec(spec.engine_class())


def codec_of(match: object, engines: Engines | None = None) -> GameCodec:
    """The codec that saves ``match`` (a Match, or an object a game's hook owns)."""
    spec = getattr(match, "spec", None) if isinstance(match, Match) else None
    for candidate in [spec] if isinstance(spec, registry.GameSpec) else registry.all_games():
        hook = _hook(candidate) if candidate.id not in (engines or {}) else None
        codec = None if hook is None else hook.codec_of(match)
        if codec is not None:
            return codec
    if isinstance(match, Match):
        return MatchCodec(type(match))
    raise SaveError(f"cannot save a {type(match).__name__}: expected a game or a match")


def known_game(game: str, engines: Engines | None = None) -> bool:
    """True when ``game`` is registered (or given in ``engines``)."""
    if engines and game in engines:
        return True
    try:
        registry.get(game)
    except UnknownGameError:
        return False
    return True


__all__ = [
    "LEGACY_GAME",
    "GameCodec",
    "GameSaves",
    "MatchCodec",
    "canonical",
    "codec_for",
    "codec_of",
    "fingerprint",
    "known_game",
    "rules_for",
]
