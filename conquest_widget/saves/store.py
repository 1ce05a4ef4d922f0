"""SaveStore: a save directory of plain JSON files (an autosave per game, 5 slots,
results, records against CPUs, preferences) and its backups.

    >>> import tempfile
    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> store = SaveStore(tempfile.mkdtemp())
    >>> game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> faces = game.roll(1)
    >>> store.save_slot(1, game).status
    'used'
    >>> store.load_slot(1).state.snapshot() == game.state.snapshot()
    True
    >>> store.save_slot(1, game)
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SlotOccupiedError: slot 1 (...slot-1.json) already holds a saved game; pass overwrite=True to replace it
    >>> [s.status for s in store.slots()]
    ['used', 'empty', 'empty', 'empty', 'empty']

See docs/saves.md for the files, their formats and the safety guarantees.
"""

from __future__ import annotations

import operator
import os
import re
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conquest_widget.core import registry
from conquest_widget.errors import (
    AutosaveChangedError,
    ConfirmationRequiredError,
    CorruptSaveError,
    EmptySlotError,
    InvalidBackupError,
    InvalidSlotError,
    SaveError,
    SaveFileError,
    SaveWarning,
    SlotOccupiedError,
    UnknownGameError,
    UnsupportedSaveVersionError,
    WrongGameError,
)
from conquest_widget.saves.atomic import (
    MAX_FILE_BYTES,
    TEMP_PREFIX,
    TEMP_SUFFIX,
    atomic_write_json,
    fsync_directory,
    parse_json,
    read_bytes,
)
from conquest_widget.saves.backup import (
    AUTOSAVE_FILE,
    AUTOSAVE_NAME,
    MAX_BACKUP_BYTES,
    PREFERENCES_FILE,
    RECORDS_FILE,
    RESULTS_FILE,
    SLOT_COUNT,
    BackupSource,
    BackupSummary,
    analyse_backup,
    autosave_file,
    autosave_game,
    backup_document,
    load_backup_source,
    slot_file,
)
from conquest_widget.saves.documents import (
    check_preferences,
    check_records,
    check_results,
    game_document,
    load_game,
    normalise_preferences,
    preferences_document,
    records_document,
    results_document,
)
from conquest_widget.saves.games import LEGACY_GAME, Engines, codec_for, codec_of
from conquest_widget.saves.info import SlotInfo
from conquest_widget.saves.locking import LOCK_NAME, DirectoryLock
from conquest_widget.saves.results import add_outcomes, cpu_outcomes, result_entry

#: default save directory (relative to the working directory, i.e. beside the notebook)
DEFAULT_DIRECTORY = "conquest_saves"

#: the version of a data file: changes with every write (a new inode each time) and with
#: any change made outside the store; None when the file is absent (opaque to callers)
FileVersion = tuple[int, ...] | None


class _Unchecked:
    """The default of ``expect=``: write whatever version the file is."""

    def __repr__(self) -> str:
        return "UNCHECKED"


UNCHECKED = _Unchecked()
#: what :meth:`SaveStore.delete_category` accepts
CATEGORIES = ("autosave", "slots", "results", "records", "preferences", "extras")
#: the data files with fixed names (Japan Conquest's autosave, the slots, results,
#: records, preferences); every other game's autosave is ``autosave-<game>.json``
#: (:func:`autosave_file`): :meth:`SaveStore.data_files` lists them all
DATA_FILES = (
    AUTOSAVE_FILE,
    *(slot_file(n) for n in range(1, SLOT_COUNT + 1)),
    RESULTS_FILE,
    RECORDS_FILE,
    PREFERENCES_FILE,
)
#: the slot files
SLOT_FILES = DATA_FILES[1 : SLOT_COUNT + 1]
#: the fixed-name game files (Japan Conquest's autosave and the slots)
GAME_FILES = DATA_FILES[: SLOT_COUNT + 1]

_DATA_STEM = r"(autosave(?:-[a-z][a-z0-9_]{0,47})?|slot-[1-5]|results|records|preferences)"
_SET_ASIDE = re.compile(rf"^{_DATA_STEM}\.corrupt-\d{{8}}T\d{{6}}Z(-\d+)?\.json$")
_PRE_RESTORE = re.compile(r"^pre-restore-\d{8}T\d{6}Z(-\d+)?\.backup\.json$")
_TEMP = re.compile(rf"^{re.escape(TEMP_PREFIX)}{_DATA_STEM}\.json\..*{re.escape(TEMP_SUFFIX)}$", re.DOTALL)


def check_slot(slot: object) -> int:
    """The slot number ``slot`` as an int, if it is one of the integers 1-5.

    Anything else (0, 6, True, "1", "../x", 1.0, None) raises :class:`InvalidSlotError`,
    so slot numbers from user input can never name a file outside the save directory.

    >>> check_slot(5)
    5
    >>> check_slot("../etc/passwd")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.InvalidSlotError: a save slot is an integer 1-5, got '../etc/passwd'
    """
    if not isinstance(slot, bool):
        try:
            n = operator.index(slot)  # type: ignore[arg-type]
        except TypeError:
            n = None
        if n is not None and 1 <= n <= SLOT_COUNT:
            return n
    raise InvalidSlotError(f"a save slot is an integer 1-{SLOT_COUNT}, got {slot!r}")


def _utc_now() -> datetime:
    return datetime.now(UTC)


class SaveStore:
    """The save data of one directory (created on the first write).

    Every method that changes files holds the directory's lock (``.lock``), and every
    file is replaced atomically, so several stores or processes may share a directory.
    Readers never write.  An unreadable file is reported (:class:`CorruptSaveError`
    naming the file and the problem) and is never overwritten or deleted without an
    explicit request; see docs/saves.md.

    ``clock`` (for tests) returns the current time as an aware datetime.  ``engines``
    (game id → :class:`~conquest_widget.core.match.Match` subclass) adds games that are
    not in the registry.  Every document names its game; loaders given ``game=`` refuse
    another game's file (:class:`~conquest_widget.errors.WrongGameError`).

        >>> import tempfile
        >>> store = SaveStore(tempfile.mkdtemp())
        >>> store.has_autosave(), store.results(), store.records(), store.preferences()
        (False, [], {}, {})
    """

    def __init__(
        self,
        directory: str | os.PathLike[str] = DEFAULT_DIRECTORY,
        *,
        clock: Callable[[], datetime] | None = None,
        engines: Engines | None = None,
    ) -> None:
        if "\0" in os.fspath(directory):
            raise SaveFileError(repr(os.fspath(directory))[:200], "a save directory path cannot contain a NUL character")
        self.directory = Path(directory).expanduser()
        self._clock = clock or _utc_now
        #: Match classes of games outside the registry (tests; a game being built)
        self.engines = dict(engines or {})
        self._lock = DirectoryLock(self.directory)
        # Files this store wrote or found valid, by stat signature: unchanged files are
        # not replayed again (a long game's replay takes a noticeable fraction of a second).
        self._valid: dict[str, tuple[int, ...]] = {}
        self._infos: dict[str, tuple[tuple[int, ...], SlotInfo]] = {}

    def __repr__(self) -> str:
        return f"SaveStore({str(self.directory)!r})"

    # ---------------------------------------------------------------- plumbing
    def _now(self) -> datetime:
        now = self._clock()
        return now.astimezone(UTC) if now.tzinfo else now.replace(tzinfo=UTC)

    def _timestamp(self) -> str:
        return self._now().isoformat(timespec="seconds").replace("+00:00", "Z")

    def _path(self, name: str) -> Path:
        return self.directory / name

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the directory lock; on first entry remove temp files left by a crash."""
        try:
            self._lock.acquire()
        except OSError as exc:
            raise SaveFileError(self.directory, f"cannot use the save directory: {exc.strerror or exc}") from exc
        try:
            if self._lock.depth == 1:
                self._remove_stale_temps()
            yield
        finally:
            self._lock.release()

    def _remove_stale_temps(self) -> None:
        # Only while holding the lock: every writer holds it, so any temp file is stale.
        try:
            names = os.listdir(self.directory)
        except OSError:
            return
        for name in names:
            if _TEMP.match(name):
                try:
                    os.unlink(self._path(name))
                except OSError:
                    pass

    # ------------------------------------------------------------ which files
    def games(self) -> list[str]:
        """The ids of the games this store can save: the registry's (Japan Conquest
        first) and those given in ``engines``."""
        ids = [spec.id for spec in registry.all_games()]
        return ids + [g for g in self.engines if g not in ids]

    def _autosave_files(self, *, present: bool = False) -> list[str]:
        """The autosave file of every game this store knows; with ``present``, also the
        autosave files in the directory of games it does not know (a newer version's)."""
        names = [autosave_file(g) for g in self.games()]
        if present:
            try:
                listed = os.listdir(self.directory)
            except OSError:
                listed = []
            names += sorted(n for n in listed if autosave_game(n) is not None and n not in names)
        return names

    def data_files(self) -> list[str]:
        """The name of every data file of this store, whether present or not: the
        autosave of each game it knows (:meth:`games`; Japan Conquest's
        ``autosave.json`` first), the five slots, results, records and preferences — what
        a backup holds and a restore replaces.

            >>> import tempfile
            >>> SaveStore(tempfile.mkdtemp()).data_files()[:5]
            ['autosave.json', 'autosave-conquest_cards.json', 'autosave-codex.json', 'autosave-japanese_risk.json', 'slot-1.json']
        """
        return [*self._autosave_files(), *DATA_FILES[1:]]

    def _listed_files(self) -> list[str]:
        """:meth:`data_files` and the autosaves of unknown games found in the directory."""
        return [*self._autosave_files(present=True), *DATA_FILES[1:]]

    def _check(self, name: str, data: Any) -> Any:
        """The validator of each data file (with this store's extra engines).  An
        autosave must hold the game its name says."""
        path = self._path(name)
        game = autosave_game(name)
        if game is not None:
            try:
                return load_game(data, path, game=game, engines=self.engines)
            except WrongGameError as exc:
                raise CorruptSaveError(path, _wrong_game(exc)) from None
        if name in SLOT_FILES:
            return load_game(data, path, engines=self.engines)
        if name == RESULTS_FILE:
            return check_results(data, path, self.engines)
        if name == RECORDS_FILE:
            return check_records(data, path, self.engines)
        return check_preferences(data, path, self.engines)

    def _read(self, name: str) -> Any:
        """Parsed JSON of a data file; ``_MISSING`` when absent."""
        path = self._path(name)
        payload = read_bytes(path)
        if payload is None:
            return _MISSING
        return parse_json(payload, path)

    def _exists(self, name: str) -> bool:
        return os.path.lexists(self._path(name))

    def _set_aside(self, name: str) -> Path:
        """Rename an unreadable file to ``<stem>.corrupt-<UTC time>.json`` (kept, not lost)."""
        stem = name[: -len(".json")]
        stamp = self._now().strftime("%Y%m%dT%H%M%SZ")
        target = self._path(f"{stem}.corrupt-{stamp}.json")
        n = 1
        while os.path.lexists(target):
            n += 1
            target = self._path(f"{stem}.corrupt-{stamp}-{n}.json")
        try:
            os.rename(self._path(name), target)
        except OSError as exc:
            raise SaveFileError(
                self._path(name), f"cannot move the unreadable file aside: {exc.strerror or exc}"
            ) from exc
        warnings.warn(
            f"{self._path(name)} was unreadable and has been kept as {target.name}", SaveWarning, stacklevel=3
        )
        return target

    def _signature(self, name: str) -> tuple[int, ...] | None:
        """Identity of a file's current version (a replaced file gets a new inode; a
        chmod changes the ctime).  A symbolic link is not followed."""
        try:
            st = os.lstat(self._path(name))
        except OSError:
            return None
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)

    def _problem(self, name: str) -> SaveFileError | None:
        """None if the file is absent or valid, else the error reading it: a
        :class:`CorruptSaveError` for what it contains (or a newer version's file), a
        plain :class:`SaveFileError` for an operating-system error while reading."""
        sig = self._signature(name)  # taken before reading: a change meanwhile means a re-check later
        if sig is not None and self._valid.get(name) == sig:
            return None
        try:
            data = self._read(name)
            if data is not _MISSING:
                self._check(name, data)
        except SaveFileError as exc:
            return exc
        except UnknownGameError as exc:  # pragma: no cover - the checkers report it as corrupt
            return CorruptSaveError(self._path(name), str(exc))
        if sig is not None:
            self._valid[name] = sig
        return None

    def _prepare_write(self, name: str) -> None:
        """Before replacing ``name``: a file unreadable for what it contains is set aside
        (renamed, kept); a file a newer version wrote, or one the system cannot read now
        (EMFILE, EACCES...), is left untouched and the write is refused (raises)."""
        if not self._exists(name):
            return
        problem = self._problem(name)
        if problem is None:
            return
        if isinstance(problem, UnsupportedSaveVersionError):
            raise UnsupportedSaveVersionError(problem.path, problem.problem + "; nothing was written")
        if not isinstance(problem, CorruptSaveError):
            raise SaveFileError(problem.path, problem.problem + " (an error of the system, not of the file: nothing was changed)")
        self._set_aside(name)

    def _write(self, name: str, doc: dict[str, Any]) -> None:
        """Atomically write a data file (holding the lock) and remember it as valid."""
        atomic_write_json(self._path(name), doc)
        sig = self._signature(name)
        if sig is not None:
            self._valid[name] = sig

    def _load_game_file(self, name: str, game: str | None = None) -> tuple[Any, dict[str, Any]] | None:
        sig = self._signature(name)
        data = self._read(name)
        if data is _MISSING:
            return None
        expected = autosave_game(name)
        if game is None and expected is not None:  # an autosave holds the game its name says
            try:
                match, doc = load_game(data, self._path(name), game=expected, engines=self.engines)
            except WrongGameError as exc:
                raise CorruptSaveError(self._path(name), _wrong_game(exc)) from None
        else:
            match, doc = load_game(data, self._path(name), game=game, engines=self.engines)
        if sig is not None:
            self._valid[name] = sig
        return match, doc

    def _write_game(self, name: str, game: Any, *, kind: str, slot: int | None = None) -> dict[str, Any]:
        doc = game_document(game, saved_at=self._timestamp(), kind=kind, slot=slot)
        return self._write_doc(name, game, doc, slot)

    def _write_doc(self, name: str, game: Any, doc: dict[str, Any], slot: int | None) -> dict[str, Any]:
        self._write(name, doc)
        sig = self._valid.get(name)
        if sig is not None:
            self._infos[name] = (sig, SlotInfo.from_game(slot, name, game, saved_at=doc["saved_at"]))
        return doc

    # ---------------------------------------------------------------- autosave
    def autosave(self, game: Any, *, expect: FileVersion | _Unchecked = UNCHECKED) -> Path:
        """Save ``game`` as the autosave, replacing the previous one (call it after every
        confirmed action; starting a new game replaces it too).

        With ``expect`` (an :meth:`autosave_version`), the write happens only if the file
        is still that version, else :class:`~conquest_widget.errors.AutosaveChangedError`
        and nothing is written: two pages on one save folder cannot silently replace each
        other's game (:class:`~conquest_widget.saves.AutosaveClaim` keeps the version).

        An autosave unreadable for what it holds is not destroyed: it is renamed
        ``autosave.corrupt-<time>.json`` (with a :class:`SaveWarning`) first.  One written
        by a newer version, or that the system cannot read just now, is left as it is and
        nothing is written (:class:`UnsupportedSaveVersionError` / :class:`SaveFileError`).

            >>> import tempfile
            >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
            >>> store = SaveStore(tempfile.mkdtemp())
            >>> store.autosave(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))).name
            'autosave.json'
            >>> store.load_autosave().turn_number()
            1
        """
        name = autosave_file(codec_of(game, self.engines).game)
        self.write_autosave(game, expect=expect)
        return self._path(name)

    def write_autosave(self, game: Any, *, expect: FileVersion | _Unchecked = UNCHECKED) -> FileVersion:
        """:meth:`autosave`, returning the version of the file written (taken while
        holding the directory lock, so no other page's write can come between)."""
        doc = game_document(game, saved_at=self._timestamp(), kind="autosave")  # SaveError before touching anything
        name = autosave_file(codec_of(game, self.engines).game)
        with self._locked():
            if not isinstance(expect, _Unchecked) and self._signature(name) != expect:
                raise AutosaveChangedError(self._path(name))
            self._prepare_write(name)
            self._write_doc(name, game, doc, None)
            return self._signature(name)

    def autosave_version(self, game: str | None = None) -> FileVersion:
        """The version of ``game``'s autosave file as it is now (None: there is none): an
        opaque value that changes with every write, for ``expect=``.

            >>> import tempfile
            >>> SaveStore(tempfile.mkdtemp()).autosave_version("codex") is None
            True
        """
        return self._signature(autosave_file(game))

    def load_autosave(self, game: str | None = None) -> Any:
        """The autosaved game ("Continue Last Game"), or None when there is none.

        Raises :class:`CorruptSaveError` when the file cannot be loaded, and
        :class:`~conquest_widget.errors.WrongGameError` when ``game`` is given and the
        autosave is another game's.  Each game has its own autosave (:func:`autosave_file`);
        ``game=None`` reads Japan Conquest's; an autosave file holding another game than
        its name says is never loaded (``CorruptSaveError`` naming the file, or
        ``WrongGameError`` when ``game`` was given)."""
        loaded = self._load_game_file(autosave_file(game), game)
        return None if loaded is None else loaded[0]

    def has_autosave(self, game: str | None = None) -> bool:
        """True when the autosave file of ``game`` exists (it may still be unreadable: see
        :meth:`autosave_info`)."""
        return self._exists(autosave_file(game))

    def autosave_info(self, game: str | None = None) -> SlotInfo:
        """What the autosave of ``game`` holds (``slot`` is None; status empty/used/corrupt;
        a file holding another game than its name says is ``"corrupt"``)."""
        return self._info(None, autosave_file(game))

    def clear_autosave(self, game: str | None = None, *, expect: FileVersion | _Unchecked = UNCHECKED) -> bool:
        """Delete the autosave of ``game``; returns whether there was one.  With
        ``expect``, only if the file is still that version (else nothing is deleted and
        False is returned: another page's game stays)."""
        name = autosave_file(game)
        with self._locked():
            if not isinstance(expect, _Unchecked) and self._signature(name) != expect:
                return False
            return _unlink(self._path(name))

    # ------------------------------------------------------------------- slots
    def slot_path(self, slot: int) -> Path:
        """The file of a slot (``slot`` is checked by :func:`check_slot`)."""
        return self._path(slot_file(check_slot(slot)))

    def save_slot(self, slot: int, game: Any, *, overwrite: bool = False) -> SlotInfo:
        """Save ``game`` into slot 1-5 and return the slot's info.

        A slot holding a game, or an unreadable file, is never overwritten unless
        ``overwrite=True`` (:class:`SlotOccupiedError` otherwise); even then an
        unreadable file is kept, renamed ``slot-N.corrupt-<time>.json``, and a newer
        version's file or one the system cannot read now is not replaced at all.

            >>> import tempfile
            >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
            >>> store = SaveStore(tempfile.mkdtemp())
            >>> game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
            >>> info = store.save_slot(2, game)
            >>> info.slot, info.mode, info.turn, info.player_names
            (2, 'standard', 1, ['Player 1', 'Player 2'])
            >>> store.save_slot(2, game, overwrite=True).status
            'used'
        """
        n = check_slot(slot)
        name = slot_file(n)
        doc = game_document(game, saved_at=self._timestamp(), kind="slot", slot=n)
        with self._locked():
            if self._exists(name):
                problem = self._problem(name)
                if not overwrite:
                    raise SlotOccupiedError(n, self._path(name), corrupt=problem is not None)
                self._prepare_write(name)
            self._write_doc(name, game, doc, n)
        return SlotInfo.from_game(n, name, game, saved_at=doc["saved_at"])

    def load_slot(self, slot: int, game: str | None = None) -> Any:
        """The game saved in a slot, rebuilt by replaying its log (a normal
        :class:`~conquest_widget.core.match.Match` of its game, e.g. a Japan Conquest ``JapanMatch``,
        ready to explore or play on).

        Raises :class:`EmptySlotError` for an empty slot, :class:`CorruptSaveError`
        (naming the file) for an unreadable or tampered one, and
        :class:`~conquest_widget.errors.WrongGameError` when ``game`` is given and the
        slot holds another game."""
        n = check_slot(slot)
        loaded = self._load_game_file(slot_file(n), game)
        if loaded is None:
            raise EmptySlotError(f"slot {n} is empty ({self._path(slot_file(n))})")
        return loaded[0]

    def delete_slot(self, slot: int) -> bool:
        """Delete a slot's file (also an unreadable one); returns whether there was one."""
        n = check_slot(slot)
        with self._locked():
            return _unlink(self._path(slot_file(n)))

    def slot_info(self, slot: int) -> SlotInfo:
        """What one slot holds; an unreadable file is reported as status ``"corrupt"``."""
        n = check_slot(slot)
        return self._info(n, slot_file(n))

    def slots(self) -> list[SlotInfo]:
        """The five slots, in order, each empty, used or corrupt (never raises for a bad file).

        >>> import tempfile
        >>> store = SaveStore(tempfile.mkdtemp())
        >>> _ = (store.directory / "slot-4.json").write_text("{not json")
        >>> [(s.slot, s.status) for s in store.slots()][3]
        (4, 'corrupt')
        >>> store.slots()[3].error
        'not valid JSON (Expecting property name enclosed in double quotes at line 1 column 2)'
        """
        return [self._info(n, slot_file(n)) for n in range(1, SLOT_COUNT + 1)]

    def _info(self, slot: int | None, name: str) -> SlotInfo:
        sig = self._signature(name)
        cached = self._infos.get(name)
        if sig is not None and cached is not None and cached[0] == sig:
            return cached[1]
        try:
            loaded = self._load_game_file(name)
        except WrongGameError as exc:
            return SlotInfo.corrupt(slot, name, _wrong_game(exc))
        except CorruptSaveError as exc:
            return SlotInfo.corrupt(slot, name, exc.problem)
        except SaveFileError as exc:
            return SlotInfo.unreadable(slot, name, exc.problem)
        if loaded is None:
            return SlotInfo.empty(slot, name)
        game, doc = loaded
        info = SlotInfo.from_game(slot, name, game, saved_at=doc["saved_at"])
        if sig is not None:
            self._infos[name] = (sig, info)
        return info

    # --------------------------------------------------------- results/records
    def _results(self) -> list[dict[str, Any]]:
        data = self._read(RESULTS_FILE)
        return [] if data is _MISSING else check_results(data, self._path(RESULTS_FILE), self.engines)

    def _records(self) -> tuple[dict[str, dict[str, int]], list[str]]:
        data = self._read(RECORDS_FILE)
        return ({}, []) if data is _MISSING else check_records(data, self._path(RECORDS_FILE), self.engines)

    def record_result(self, game: Any) -> bool:
        """Record a finished game: its result goes first in the results file and the
        human players' outcomes against its CPUs are added to the records.

        Idempotent: a game is identified by a fingerprint of its setup, dice and log, so
        recording the same game again changes nothing (returns False).  Raises
        :class:`SaveError` for an unfinished game and :class:`CorruptSaveError` (writing
        nothing) when the results or records file is unreadable.

            >>> import tempfile
            >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
            >>> from conquest_widget.games.japan_conquest.cpu import play_cpu_turns
            >>> game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[True, True], turns=5, seed=2))
            >>> _ = play_cpu_turns(game)
            >>> store = SaveStore(tempfile.mkdtemp())
            >>> store.record_result(game), store.record_result(game), len(store.results())
            (True, False, 1)
        """
        entry = result_entry(game, recorded_at=self._timestamp())
        gid = entry["game_id"]
        with self._locked():
            results = self._results()
            records, counted = self._records()
            changed = False
            new_results = None
            if all(r["game_id"] != gid for r in results):
                new_results = results_document([entry, *results])
                try:  # never write a results file this package would then refuse to read
                    check_results(new_results, self._path(RESULTS_FILE), self.engines)
                except CorruptSaveError as exc:
                    raise SaveError(f"this result cannot be recorded: {exc.problem}") from None
            outcomes = cpu_outcomes(entry)
            if outcomes and gid not in counted:
                add_outcomes(records, outcomes)
                counted.append(gid)
                self._write(RECORDS_FILE, records_document(records, counted))
                changed = True
            if new_results is not None:
                self._write(RESULTS_FILE, new_results)
                changed = True
        return changed

    def results(self, game: str | None = None) -> list[dict[str, Any]]:
        """Every recorded result (of ``game``, or of every game), latest first (see
        docs/saves.md for the entry format)."""
        return [r for r in self._results() if game is None or r["game"] == game]

    def latest_result(self, game: str | None = LEGACY_GAME) -> dict[str, Any] | None:
        """The latest recorded result of ``game`` ("Previous Results"; None = of any
        game), or None."""
        results = self.results(game)
        return results[0] if results else None

    def records(self, game: str = LEGACY_GAME) -> dict[str, dict[str, int]]:
        """Human players' results against the CPUs of ``game``, per CPU label (Japan
        Conquest: ``{"difficulty:strategy": {"wins", "losses", "draws"}}``)."""
        prefix = f"{game}:"
        return {k[len(prefix) :]: v for k, v in self._records()[0].items() if k.startswith(prefix)}

    def all_records(self) -> dict[str, dict[str, int]]:
        """The records of every game, keyed ``"<game>:<cpu label>"``."""
        return self._records()[0]

    # -------------------------------------------------------------- preferences
    def save_preferences(self, prefs: Mapping[str, Any]) -> dict[str, Any]:
        """Replace the preferences (e.g. ``{"language": "ja", "last_setup": setup}``,
        where ``last_setup`` is a :class:`GameSetup` or its dict); returns what was stored.

        An unreadable preferences file is renamed ``preferences.corrupt-<time>.json`` first.

            >>> import tempfile
            >>> from conquest_widget.games.japan_conquest import GameSetup
            >>> store = SaveStore(tempfile.mkdtemp())
            >>> _ = store.save_preferences({"language": "ja", "last_setup": GameSetup.quick(["Tokyo", "Osaka"])})
            >>> store.preferences()["language"], store.last_setup().players[1].home
            ('ja', 27)
        """
        clean = normalise_preferences(prefs, self.engines)
        with self._locked():
            self._prepare_write(PREFERENCES_FILE)
            self._write(PREFERENCES_FILE, preferences_document(clean, saved_at=self._timestamp()))
        return check_preferences(preferences_document(clean, saved_at=self._timestamp()), "preferences", self.engines)

    def preferences(self) -> dict[str, Any]:
        """The saved preferences ({} when none); raises :class:`CorruptSaveError` when unreadable."""
        data = self._read(PREFERENCES_FILE)
        return {} if data is _MISSING else check_preferences(data, self._path(PREFERENCES_FILE), self.engines)

    def last_setup(self, game: str = LEGACY_GAME) -> Any:
        """The remembered setup of ``game`` (a Japan Conquest GameSetup, or the game's
        setup class), or None."""
        entry = self.preferences().get("last_setups", {}).get(game)
        if entry is None:
            return None
        return codec_for(game, self.engines).setup_from_dict(entry["setup"])

    # ------------------------------------------------------------------ backup
    def export_backup(self, path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
        """Everything in one JSON document (backup schema version 3: the autosave of every
        game, the slots, results, records, preferences) and, when ``path`` is given,
        written there atomically.  Unreadable files cannot be exported: they are listed
        under ``"skipped"`` with their problem (so is the autosave of a game this package
        does not know).

            >>> import tempfile, pathlib
            >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
            >>> store = SaveStore(tempfile.mkdtemp())
            >>> _ = store.save_slot(3, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))
            >>> backup = store.export_backup(pathlib.Path(tempfile.mkdtemp()) / "backup.json")
            >>> backup["format"], backup["schema_version"], backup["slots"]["3"]["slot"], backup["slots"]["1"]
            ('conquest_widget.saves.backup', 3, 3, None)
        """
        with self._locked():
            docs: dict[str, Any] = {}
            skipped: list[dict[str, str]] = []
            for name in self._listed_files():
                try:
                    data = self._read(name)
                    if data is not _MISSING:
                        self._check(name, data)
                except SaveFileError as exc:
                    skipped.append({"file": name, "problem": exc.problem})
                    data = _MISSING
                docs[name] = None if data is _MISSING else data
            doc = backup_document(
                exported_at=self._timestamp(),
                autosaves={
                    g: docs[f] for g in self.games() if docs.get(f := autosave_file(g)) is not None
                },
                slots={n: docs[slot_file(n)] for n in range(1, SLOT_COUNT + 1)},
                results=docs[RESULTS_FILE],
                records=docs[RECORDS_FILE],
                preferences=docs[PREFERENCES_FILE],
                skipped=skipped,
            )
            if path is not None:
                if "\0" in os.fspath(path):
                    raise SaveFileError(repr(os.fspath(path))[:200], "a path cannot contain a NUL character")
                target = Path(path).expanduser()
                if self._is_own_file(target):
                    raise SaveFileError(target, "a backup cannot be written over a file of the save data or its lock")
                atomic_write_json(target, doc, max_bytes=MAX_BACKUP_BYTES)
        return doc

    def _is_own_file(self, target: Path) -> bool:
        """True when ``target`` (or what it links to) is a file of the save data: a data
        file (the autosave of any game included), the lock, a temporary file, a set-aside
        unreadable file or a pre-restore backup."""
        own = {*DATA_FILES, LOCK_NAME}
        home = self.directory.resolve()
        for candidate in (target.parent.resolve() / target.name, target.resolve()):
            name = candidate.name
            if candidate.parent == home and (
                name in own
                or name.startswith(TEMP_PREFIX)
                or AUTOSAVE_NAME.match(name)
                or _SET_ASIDE.match(name)
                or _PRE_RESTORE.match(name)
            ):
                return True
        return False

    def inspect_backup(self, source: BackupSource) -> BackupSummary:
        """What a backup (a path, its bytes, or the dict from :meth:`export_backup`)
        contains, and its problems — show this before :meth:`restore_backup`.

        Raises :class:`InvalidBackupError` only when it is not a backup at all."""
        data, name = load_backup_source(source)
        return analyse_backup(data, name, self.engines)[0]

    def restore_backup(self, source: BackupSource, *, keep_previous: bool = True) -> BackupSummary:
        """Replace this directory's save data with a backup's.

        Every part is validated first (each autosave must hold the game its name says);
        if anything is wrong :class:`InvalidBackupError` lists the problems and
        **nothing** is changed.  Files absent from the backup are removed — the autosave
        of every game this store knows included (:meth:`data_files`); an autosave of a
        game this package does not know is left as it is.  A version-1/2 backup's one
        autosave goes to the autosave file of the game it holds.  With ``keep_previous`` (default) the current data is first exported to
        ``pre-restore-<time>.backup.json`` in the directory; unreadable current files
        are renamed ``*.corrupt-<time>.json``, never destroyed.  Each file is replaced
        atomically.

            >>> import tempfile
            >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
            >>> old = SaveStore(tempfile.mkdtemp())
            >>> _ = old.save_slot(1, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))
            >>> new = SaveStore(tempfile.mkdtemp())
            >>> new.restore_backup(old.export_backup()).slots[0].status
            'used'
            >>> new.slots()[0].status
            'used'
        """
        data, name = load_backup_source(source)
        summary, files = analyse_backup(data, name, self.engines)
        if summary.problems:
            raise InvalidBackupError(name, list(summary.problems))
        targets = self.data_files()
        targets += [f for f in files if f not in targets]  # (none: the backup's games are this store's)
        with self._locked():
            for file in targets:  # refuse before writing anything
                problem = self._problem(file)
                if problem is not None and not isinstance(problem, CorruptSaveError | UnsupportedSaveVersionError):
                    raise SaveFileError(problem.path, problem.problem + " (nothing was changed)")
                if isinstance(problem, UnsupportedSaveVersionError):
                    raise UnsupportedSaveVersionError(problem.path, problem.problem + "; nothing was restored")
            if keep_previous and any(self._exists(f) for f in self._listed_files()):
                previous = self.export_backup()
                stamp = self._now().strftime("%Y%m%dT%H%M%SZ")
                target = self._path(f"pre-restore-{stamp}.backup.json")
                n = 1
                while os.path.lexists(target):
                    n += 1
                    target = self._path(f"pre-restore-{stamp}-{n}.backup.json")
                atomic_write_json(target, previous, max_bytes=MAX_BACKUP_BYTES)
            for file in targets:
                doc = files.get(file)
                self._prepare_write(file)
                if doc is None:
                    _unlink(self._path(file))
                else:
                    self._write(file, doc)
        return summary

    # ---------------------------------------------------------------- deletion
    def set_aside_files(self) -> list[Path]:
        """Unreadable files that were renamed ``*.corrupt-<time>.json`` instead of being lost."""
        return self._matching(_SET_ASIDE)

    def pre_restore_backups(self) -> list[Path]:
        """Backups of the previous data written by :meth:`restore_backup`."""
        return self._matching(_PRE_RESTORE)

    def _matching(self, pattern: re.Pattern[str]) -> list[Path]:
        try:
            names = os.listdir(self.directory)
        except OSError:
            return []
        return sorted(self._path(n) for n in names if pattern.match(n))

    def problems(self) -> dict[str, str]:
        """Every unreadable data file of the directory: file name → problem ({} when all
        is well).  Every game's autosave is checked (it must hold the game its name
        says), and so is an autosave file of a game this package does not know."""
        out: dict[str, str] = {}
        for name in self._listed_files():
            problem = self._problem(name)
            if problem is not None:
                out[name] = problem.problem
        return out

    def delete_category(self, category: str, *, confirm: bool = False, game: str | None = None) -> list[Path]:
        """Delete one kind of data: ``"autosave"``, ``"slots"``, ``"results"``,
        ``"records"``, ``"preferences"`` or ``"extras"`` (set-aside unreadable files and
        pre-restore backups).  Needs ``confirm=True``; returns the files deleted.

        ``"autosave"`` deletes the autosave of every game (also of a game this package
        does not know); with ``game=`` only that game's (``game`` is for ``"autosave"``
        only).

            >>> import tempfile
            >>> store = SaveStore(tempfile.mkdtemp())
            >>> store.delete_category("results")
            Traceback (most recent call last):
            ...
            conquest_widget.errors.ConfirmationRequiredError: deleting results needs confirm=True
            >>> store.delete_category("results", confirm=True)
            []
        """
        if category not in CATEGORIES:
            raise SaveError(f"unknown category {category!r}: expected one of {CATEGORIES}")
        if game is not None and category != "autosave":
            raise SaveError(f"game= selects an autosave; deleting {category} is not per game")
        if confirm is not True:
            raise ConfirmationRequiredError(f"deleting {category} needs confirm=True")
        with self._locked():
            if category == "autosave":
                names = [autosave_file(game)] if game is not None else self._autosave_files(present=True)
                paths = [self._path(n) for n in names]
            elif category == "extras":
                paths = self.set_aside_files() + self.pre_restore_backups()
            elif category == "slots":
                paths = [self._path(slot_file(n)) for n in range(1, SLOT_COUNT + 1)]
            else:
                paths = [
                    self._path(
                        {
                            "results": RESULTS_FILE,
                            "records": RECORDS_FILE,
                            "preferences": PREFERENCES_FILE,
                        }[category]
                    )
                ]
            return [p for p in paths if _unlink(p)]

    def delete_all(self, *, confirm: bool = False) -> list[Path]:
        """Delete every file of the save data (all categories); needs ``confirm=True``.
        Returns the files deleted.  The directory and its ``.lock`` file stay."""
        if confirm is not True:
            raise ConfirmationRequiredError("deleting all save data needs confirm=True")
        with self._locked():
            return [p for c in CATEGORIES for p in self.delete_category(c, confirm=True)]


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


def _wrong_game(exc: WrongGameError) -> str:
    """The problem of a WrongGameError, without the source it starts with:
    ``"this file holds a game of 'codex', not of 'japan_conquest'"``."""
    text = str(exc)
    _, sep, rest = text.partition(": this file holds")
    return ("this file holds" + rest).removesuffix(": it was not loaded") if sep else text


def _unlink(path: Path) -> bool:
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    except IsADirectoryError as exc:
        raise SaveFileError(path, "is a directory, not a save file: remove it by hand") from exc
    except OSError as exc:
        raise SaveFileError(path, f"cannot delete: {exc.strerror or exc}") from exc
    fsync_directory(Path(path).parent)
    return True


__all__ = [
    "CATEGORIES",
    "DATA_FILES",
    "DEFAULT_DIRECTORY",
    "GAME_FILES",
    "MAX_FILE_BYTES",
    "SLOT_FILES",
    "SaveStore",
    "autosave_file",
    "check_slot",
]
