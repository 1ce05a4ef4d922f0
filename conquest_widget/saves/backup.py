"""One-file backups of a whole save directory: building, checking and summarising them.

A backup is one JSON document holding every file of the directory *as it is stored*
(the autosave of every game, the five slots, results, records and preferences; ``null``
where a file is absent).  :func:`analyse_backup` checks every part with the same
validators the loaders use and returns a :class:`BackupSummary` listing what it holds
and every problem found, plus the files a restore would write.  Nothing here writes
files; see :meth:`conquest_widget.saves.SaveStore.restore_backup`.

Backup schema version 3 keeps each game's autosave under ``autosaves`` by game id (the
file it restores to is :func:`autosave_file` of that id); versions 1 and 2 had one
``autosave``, which restores to the autosave file of the game it holds.

    >>> doc = backup_document(exported_at="2025-01-01T00:00:00Z", autosaves={}, slots={},
    ...                       results=None, records=None, preferences=None, skipped=[])
    >>> doc["schema_version"], doc["autosaves"]
    (3, {})
    >>> summary, files = analyse_backup(doc, "backup.json")
    >>> summary.valid, summary.results, [s.status for s in summary.slots], summary.autosaves
    (True, 0, ['empty', 'empty', 'empty', 'empty', 'empty'], {})
    >>> sorted(files)[:3]
    ['preferences.json', 'records.json', 'results.json']
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from conquest_widget.errors import (
    CorruptSaveError,
    InvalidBackupError,
    SaveError,
    SaveFileError,
    UnknownGameError,
    WrongGameError,
)
from conquest_widget.saves import schemas
from conquest_widget.saves.atomic import (
    MAX_FILE_BYTES,
    MAX_NODES,
    count_nodes,
    dumps,
    parse_json,
    read_bytes,
)
from conquest_widget.saves.documents import (
    BACKUP_FORMAT,
    BACKUP_SCHEMA_VERSION,
    check_envelope,
    check_preferences,
    check_records,
    check_results,
    load_game,
)
from conquest_widget.saves.games import LEGACY_GAME, Engines
from conquest_widget.saves.info import SlotInfo

#: number of save slots
SLOT_COUNT = 5
AUTOSAVE_FILE = "autosave.json"
RESULTS_FILE = "results.json"
RECORDS_FILE = "records.json"
PREFERENCES_FILE = "preferences.json"
#: largest backup file read (nine files at their byte limit; the value limit below binds
#: long before a directory of files that large: real saves are a few kilobytes each)
MAX_BACKUP_BYTES = (SLOT_COUNT + 4) * MAX_FILE_BYTES
#: most JSON values in a backup (counted before parsing: a 45 MB backup of ``{}`` is
#: refused at once instead of costing gigabytes of memory)
MAX_BACKUP_NODES = 3 * MAX_NODES

BackupSource = str | os.PathLike | bytes | Mapping[str, Any]


_GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,47}")
#: the name of an autosave file: Japan Conquest's ``autosave.json``, any other game's
#: ``autosave-<game id>.json`` (group 1 is the game id)
AUTOSAVE_NAME = re.compile(r"^autosave(?:-([a-z][a-z0-9_]{0,47}))?\.json$")


def autosave_file(game: str | None = None) -> str:
    """The autosave file of a game: Japan Conquest keeps ``autosave.json`` (format 1 and
    2 saves), every other game its own ``autosave-<game>.json``, so that playing one
    game never replaces another game's autosave.

        >>> autosave_file(), autosave_file("codex")
        ('autosave.json', 'autosave-codex.json')
    """
    if game is None or game == LEGACY_GAME:
        return AUTOSAVE_FILE
    if not isinstance(game, str) or not _GAME_ID.fullmatch(game):
        raise UnknownGameError(f"not a game id: {game!r}"[:200])
    return f"autosave-{game}.json"


def autosave_game(name: str) -> str | None:
    """The game whose autosave file is called ``name`` (None if it is no autosave file).

        >>> autosave_game("autosave.json"), autosave_game("autosave-codex.json"), autosave_game("slot-1.json")
        ('japan_conquest', 'codex', None)
    """
    found = AUTOSAVE_NAME.match(name)
    if found is None or name == f"autosave-{LEGACY_GAME}.json":  # the legacy game's is autosave.json
        return None
    return found.group(1) or LEGACY_GAME


def slot_file(slot: int) -> str:
    """File name of a (validated) slot number.

    >>> slot_file(3)
    'slot-3.json'
    """
    return f"slot-{slot}.json"


@dataclass(frozen=True)
class BackupSummary:
    """What a backup holds, shown before restoring it.

    ``slots`` has one :class:`SlotInfo` per slot 1-5; ``autosaves`` one per game whose
    autosave the backup holds (game id → info, Japan Conquest first), and ``autosave`` is
    Japan Conquest's (``autosave.json``; status ``"empty"`` when absent);
    ``results`` is the number of results;
    ``skipped`` lists files that were unreadable at export time and are not in the
    backup; ``problems`` lists everything that would make a restore fail (``valid`` is
    True when it is empty).
    """

    source: str
    exported_at: str | None
    autosave: SlotInfo
    slots: tuple[SlotInfo, ...]
    results: int
    latest_result: dict[str, Any] | None
    records: dict[str, dict[str, int]]
    preferences: dict[str, Any]
    skipped: tuple[dict[str, str], ...] = ()
    problems: tuple[str, ...] = field(default_factory=tuple)
    autosaves: dict[str, SlotInfo] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        """True when the backup can be restored."""
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-compatible data (for the widget)."""
        d = asdict(self)
        d["autosave"] = self.autosave.to_dict()
        d["autosaves"] = {g: info.to_dict() for g, info in self.autosaves.items()}
        d["slots"] = [s.to_dict() for s in self.slots]
        d["valid"] = self.valid
        return d


def backup_document(
    *,
    exported_at: str,
    autosaves: Mapping[str, dict[str, Any]],
    slots: Mapping[int, dict[str, Any] | None],
    results: dict[str, Any] | None,
    records: dict[str, Any] | None,
    preferences: dict[str, Any] | None,
    skipped: list[dict[str, str]],
) -> dict[str, Any]:
    """A backup document (schema version 3) from the stored documents of each file (None
    when absent); ``autosaves`` maps game ids to their autosave documents."""
    return {
        "format": BACKUP_FORMAT,
        "schema_version": BACKUP_SCHEMA_VERSION,
        "exported_at": exported_at,
        "autosaves": dict(autosaves),
        "slots": {str(n): slots.get(n) for n in range(1, SLOT_COUNT + 1)},
        "results": results,
        "records": records,
        "preferences": preferences,
        "skipped": list(skipped),
    }


def load_backup_source(source: BackupSource) -> tuple[Any, str]:
    """Parsed backup data and a name for messages, from a path, bytes or a mapping.

    Raises :class:`InvalidBackupError` when the file is missing or not JSON."""
    if isinstance(source, Mapping):
        name = "<backup data>"
        try:  # the same strict reading as a file: what cannot be written back is refused
            return parse_json(dumps(source), name, max_nodes=MAX_BACKUP_NODES), name
        except (SaveError, CorruptSaveError) as exc:
            raise InvalidBackupError(name, [getattr(exc, "problem", str(exc))]) from None
    if isinstance(source, (bytes, bytearray)):
        name = "<uploaded backup>"
        if len(source) > MAX_BACKUP_BYTES:
            raise InvalidBackupError(name, [f"backup is {len(source)} bytes, over the {MAX_BACKUP_BYTES}-byte limit"])
        try:
            return parse_json(bytes(source), name, max_nodes=MAX_BACKUP_NODES), name
        except CorruptSaveError as exc:
            raise InvalidBackupError(name, [exc.problem]) from None
    if isinstance(source, (str, os.PathLike)):
        if "\0" in os.fspath(source):
            raise InvalidBackupError(repr(os.fspath(source))[:200], ["a path cannot contain a NUL character"])
        path = Path(source)
        try:
            payload = read_bytes(path, max_bytes=MAX_BACKUP_BYTES)
            if payload is None:
                raise InvalidBackupError(str(path), ["file not found"])
            return parse_json(payload, path, max_nodes=MAX_BACKUP_NODES), str(path)
        except SaveFileError as exc:
            raise InvalidBackupError(str(path), [exc.problem]) from None
    raise InvalidBackupError(repr(source), [f"expected a path, bytes or a dict, got {type(source).__name__}"])


def analyse_backup(
    data: Any, source: str, engines: Engines | None = None
) -> tuple[BackupSummary, dict[str, dict[str, Any] | None]]:
    """Check every part of a backup; returns its summary and the files a restore writes
    (file name → document, None for a file to remove).  Autosave files are listed only
    for the games whose autosave the backup holds: a restore removes the others.  An
    autosave must hold the game its key (version 3) names; a version-1/2 backup's one
    autosave restores to the autosave file of the game it holds.

    Raises :class:`InvalidBackupError` only when the document as a whole is unusable
    (not an object, wrong format, newer version); problems inside it are listed in
    ``summary.problems``."""
    try:
        check_envelope(data, BACKUP_FORMAT, source, newest=BACKUP_SCHEMA_VERSION)
    except CorruptSaveError as exc:
        raise InvalidBackupError(source, [exc.problem]) from None
    problems: list[str] = []
    files: dict[str, dict[str, Any] | None] = {}
    try:
        schemas.validate(data, schemas.BACKUP_DOC, source)
    except CorruptSaveError as exc:
        problems.append(exc.problem)

    def part(key: str, file: str) -> str:
        return f"{key} ({file})"

    def sized(doc: Any, where: str) -> bool:
        try:
            payload = dumps(doc)
            size = len(payload)
        except SaveError as exc:
            problems.append(f"{where}: {exc}")
            return False
        if size > MAX_FILE_BYTES:
            problems.append(f"{where}: {size} bytes, over the {MAX_FILE_BYTES}-byte file limit")
            return False
        if count_nodes(payload) > MAX_NODES:
            problems.append(f"{where}: too many values for one file (at most {MAX_NODES})")
            return False
        return True

    exported_at = data.get("exported_at")
    if not isinstance(exported_at, str) or any(p.startswith("$.exported_at") for p in problems):
        exported_at = None

    # autosaves and slots
    def game_part(doc: Any, slot: int | None, file: str, where: str, game: str | None = None) -> tuple[SlotInfo, str]:
        """The info of one saved game and the file it restores to (for a version-1/2
        autosave, ``file`` is a placeholder: the file is the autosave of its game)."""
        if doc is None:
            return SlotInfo.empty(slot, file), file
        if not sized(doc, where):
            return SlotInfo.corrupt(slot, file, "too large or not JSON data"), file
        try:
            match, checked = load_game(doc, where, game=game, engines=engines)
        except WrongGameError as exc:  # an autosave holding another game than its name says
            problems.append(str(exc))
            return SlotInfo.corrupt(slot, file, str(exc)), file
        except (CorruptSaveError, SaveError) as exc:
            problems.append(str(exc))
            return SlotInfo.corrupt(slot, file, getattr(exc, "problem", str(exc))), file
        except Exception as exc:
            problems.append(f"{where}: {exc}")
            return SlotInfo.corrupt(slot, file, str(exc)), file
        if slot is None:
            file = autosave_file(checked["game"])
        if file in files:  # pragma: no cover - keys are unique; a v1/2 backup has one autosave
            problems.append(f"{where}: a second document for {file}")
            return SlotInfo.corrupt(slot, file, "a second document for this file"), file
        files[file] = doc
        return SlotInfo.from_game(slot, file, match, saved_at=checked["saved_at"]), file

    autosaves: dict[str, SlotInfo] = {}
    version = data.get("schema_version")
    if version >= 3:
        if "autosave" in data:
            problems.append(f"{source}: $.autosave: a version-{version} backup keeps every autosave under $.autosaves")
        autosaves_data = data.get("autosaves", {})
        if not isinstance(autosaves_data, dict):
            autosaves_data = {}
        for game, doc in autosaves_data.items():
            try:
                file = autosave_file(game)
            except UnknownGameError:
                problems.append(f"{source}: $.autosaves: {game[:60]!r} is not a game id")
                continue
            info, _ = game_part(doc, None, file, part(f"autosaves.{game}", file), game)
            if doc is not None:
                autosaves[game] = info
    else:
        if "autosaves" in data:
            problems.append(f"{source}: $.autosaves: only a version-3 backup has per-game autosaves (this is version {version})")
        doc = data.get("autosave")
        info, file = game_part(doc, None, AUTOSAVE_FILE, part("autosave", AUTOSAVE_FILE))
        if doc is not None:
            named = doc.get("game") if isinstance(doc, dict) else None
            game = info.game or (named if isinstance(named, str) and _GAME_ID.fullmatch(named) else LEGACY_GAME)
            autosaves[game] = info
    if LEGACY_GAME in autosaves:  # Japan Conquest first, then in the backup's order
        autosaves = {LEGACY_GAME: autosaves[LEGACY_GAME], **autosaves}
    autosave = autosaves.get(LEGACY_GAME, SlotInfo.empty(None, AUTOSAVE_FILE))

    slots_data = data.get("slots", {})
    if not isinstance(slots_data, dict):
        slots_data = {}
    slots = tuple(
        game_part(slots_data.get(str(n)), n, slot_file(n), part(f"slots.{n}", slot_file(n)))[0]
        for n in range(1, SLOT_COUNT + 1)
    )
    for n in range(1, SLOT_COUNT + 1):
        files.setdefault(slot_file(n), None)

    # results, records, preferences
    results: list[dict[str, Any]] = []
    records: dict[str, dict[str, int]] = {}
    preferences: dict[str, Any] = {}
    checkers: tuple[tuple[str, str, Callable[..., Any]], ...] = (
        ("results", RESULTS_FILE, check_results),
        ("records", RECORDS_FILE, check_records),
        ("preferences", PREFERENCES_FILE, check_preferences),
    )
    for key, file, check in checkers:
        files[file] = None
        doc = data.get(key)
        if doc is None:
            continue
        where = part(key, file)
        if not sized(doc, where):
            continue
        try:
            value = check(doc, where, engines)
        except CorruptSaveError as exc:
            problems.append(str(exc))
            continue
        files[file] = doc
        if key == "results":
            results = value
        elif key == "records":
            records = value[0]
        else:
            preferences = value

    skipped_data = data.get("skipped", [])
    skipped: tuple[dict[str, str], ...] = ()
    if isinstance(skipped_data, list) and all(
        isinstance(s, dict) and set(s) == {"file", "problem"} and all(isinstance(v, str) for v in s.values())
        for s in skipped_data
    ):
        skipped = tuple(dict(s) for s in skipped_data)

    summary = BackupSummary(
        source=source,
        exported_at=exported_at,
        autosave=autosave,
        slots=slots,
        results=len(results),
        latest_result=results[0] if results else None,
        records=records,
        preferences=preferences,
        skipped=skipped,
        problems=tuple(problems),
        autosaves=autosaves,
    )
    return summary, files


__all__ = [
    "AUTOSAVE_FILE",
    "AUTOSAVE_NAME",
    "MAX_BACKUP_BYTES",
    "PREFERENCES_FILE",
    "RECORDS_FILE",
    "RESULTS_FILE",
    "SLOT_COUNT",
    "BackupSummary",
    "analyse_backup",
    "autosave_file",
    "autosave_game",
    "backup_document",
    "load_backup_source",
    "slot_file",
]
