"""Save data as plain JSON files beside the notebook: autosave, five save slots,
completed-game results, records against CPUs, preferences, and one-file backups.

    >>> import tempfile
    >>> from conquest_widget.japan import Game, GameSetup
    >>> from conquest_widget.saves import SaveStore
    >>> store = SaveStore(tempfile.mkdtemp())      # default: "conquest_saves"
    >>> game = Game(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> game.roll(1)
    >>> _ = store.autosave(game)
    >>> store.load_autosave().snapshot() == game.snapshot()
    True

Modules: :mod:`.store` (:class:`SaveStore`), :mod:`.schema` (file formats and
validators), :mod:`.results` (results and CPU records), :mod:`.backup` (backup
documents), :mod:`.info` (slot summaries), :mod:`.atomic` (crash-safe writes),
:mod:`.locking` (the directory lock).  docs/saves.md documents the files.
"""

from ..errors import (
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
from .atomic import MAX_FILE_BYTES
from .backup import MAX_BACKUP_BYTES, SLOT_COUNT, BackupSummary
from .info import PlayerInfo, SlotInfo
from .results import game_id
from .schema import MAX_RESULTS, SCHEMA_VERSION
from .store import CATEGORIES, DEFAULT_DIRECTORY, SaveStore, check_slot

__all__ = [
    "CATEGORIES",
    "DEFAULT_DIRECTORY",
    "MAX_BACKUP_BYTES",
    "MAX_FILE_BYTES",
    "MAX_RESULTS",
    "SCHEMA_VERSION",
    "SLOT_COUNT",
    "BackupSummary",
    "ConfirmationRequiredError",
    "CorruptSaveError",
    "EmptySlotError",
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
