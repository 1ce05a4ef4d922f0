"""A running game's claim on its autosave file, so that two pages on one save folder
never replace each other's game without a word (issue 31 item 10).

Every game has one autosave file (:func:`~conquest_widget.saves.backup.autosave_file`).
A page that starts, resumes or loads a game takes a claim: the version of the file at
that moment.  Each later write goes through only if the file is still the version this
page last wrote; when another page has written it meanwhile (it resumed the same game,
or started another), the write is refused with
:class:`~conquest_widget.errors.AutosaveChangedError`, the claim is marked ``lost`` and
later writes are skipped: the other page's game stays in the autosave, this page keeps
its game on screen and tells its player, who can save it to a slot or make it the
autosave again (:meth:`AutosaveClaim.reclaim`).  No lease and no lock is held between
writes, so a page that vanished (a closed laptop) blocks nobody.

    >>> import tempfile
    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> from conquest_widget.saves import SaveStore
    >>> store = SaveStore(tempfile.mkdtemp())
    >>> page_a, page_b = AutosaveClaim(store, "japan_conquest"), AutosaveClaim(store, "japan_conquest")
    >>> game_a = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> game_b = JapanMatch(GameSetup.quick(["Hokkaido", "Okinawa"], seed=2))
    >>> page_a.write(game_a)
    True
    >>> page_b.write(game_b)          # B read the file before A wrote it: refused
    False
    >>> page_b.lost, store.load_autosave().setup.players[0].home
    (True, 13)
    >>> page_b.reclaim(); page_b.write(game_b), page_a.write(game_a), page_a.lost
    (True, False, True)
"""

from __future__ import annotations

from typing import Any

from conquest_widget.errors import AutosaveChangedError
from conquest_widget.saves.store import FileVersion, SaveStore


class AutosaveClaim:
    """The autosave of ``game`` (a game id) as one page last saw it in ``store``."""

    def __init__(self, store: SaveStore, game: str) -> None:
        self.store = store
        self.game = game
        #: the file version this page read or last wrote
        self.version: FileVersion = store.autosave_version(game)
        #: True once another page wrote the autosave: this page's writes are skipped
        self.lost = False

    def write(self, match: Any) -> bool:
        """Autosave ``match`` if the file is still this page's; False (nothing written,
        ``lost`` set) if another page changed it, or if the claim was already lost."""
        if self.lost:
            return False
        try:
            self.version = self.store.write_autosave(match, expect=self.version)
        except AutosaveChangedError:
            self.lost = True
            return False
        return True

    def reclaim(self) -> None:
        """Claim the autosave file as it is now (the player chose this page's game over
        the other page's): the next :meth:`write` replaces it."""
        self.version = self.store.autosave_version(self.game)
        self.lost = False

    def clear(self) -> bool:
        """Delete the autosave (a finished game) if it is still this page's."""
        if self.lost:
            return False
        return self.store.clear_autosave(self.game, expect=self.version)
