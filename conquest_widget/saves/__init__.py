"""Save data as plain JSON files beside the notebook: autosave, five save slots,
completed-game results, records against CPUs, preferences, and one-file backups.

    >>> import tempfile
    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> from conquest_widget.saves import SaveStore
    >>> store = SaveStore(tempfile.mkdtemp())      # default: "conquest_saves"
    >>> game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> faces = game.roll(1)
    >>> _ = store.autosave(game)
    >>> store.load_autosave().state.snapshot() == game.state.snapshot()
    True

Modules: :mod:`.store` (:class:`SaveStore`), :mod:`.documents` (the documents' builders and
checkers), :mod:`.schemas` (their JSON Schemas), :mod:`.games` (each game's save codec), :mod:`.results` (results and CPU records), :mod:`.backup` (backup
documents), :mod:`.info` (slot summaries), :mod:`.atomic` (crash-safe writes),
:mod:`.locking` (the directory lock), :mod:`.claim` (a page's claim on its autosave), :mod:`._jsonschema` (imported first: jsonschema
without the 1 s import of ``rfc3987_syntax``).  docs/saves.md documents the files.
"""

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
    UnsupportedSaveVersionError,
)
from conquest_widget.saves import _jsonschema  # noqa: F401 - before jsonschema: ~1 s faster (issue 18)
from conquest_widget.saves.atomic import MAX_FILE_BYTES
from conquest_widget.saves.backup import MAX_BACKUP_BYTES, SLOT_COUNT, BackupSummary
from conquest_widget.saves.claim import AutosaveClaim
from conquest_widget.saves.documents import MAX_RESULTS, SCHEMA_VERSION
from conquest_widget.saves.info import PlayerInfo, SlotInfo
from conquest_widget.saves.results import game_id
from conquest_widget.saves.store import (
    CATEGORIES,
    DEFAULT_DIRECTORY,
    UNCHECKED,
    FileVersion,
    SaveStore,
    check_slot,
)

__all__ = [
    "CATEGORIES",
    "DEFAULT_DIRECTORY",
    "MAX_BACKUP_BYTES",
    "MAX_FILE_BYTES",
    "MAX_RESULTS",
    "SCHEMA_VERSION",
    "SLOT_COUNT",
    "UNCHECKED",
    "AutosaveChangedError",
    "AutosaveClaim",
    "BackupSummary",
    "ConfirmationRequiredError",
    "CorruptSaveError",
    "EmptySlotError",
    "FileVersion",
    "InvalidBackupError",
    "InvalidSlotError",
    "PlayerInfo",
    "SaveError",
    "SaveFileError",
    "SaveStore",
    "SaveWarning",
    "SlotInfo",
    "SlotOccupiedError",
    "UnsupportedSaveVersionError",
    "check_slot",
    "game_id",
]
