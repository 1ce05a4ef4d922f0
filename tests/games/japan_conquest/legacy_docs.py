"""Documents of the older engine (Japan document format 1) for the tests of the legacy
reader (:mod:`conquest_widget.games.japan_conquest.legacy`): nothing in the package writes
them any more, so the tests make them the way ``Game.to_dict()`` did."""

from __future__ import annotations

from typing import Any

from conquest_widget.games.japan_conquest import JapanMatch
from conquest_widget.games.japan_conquest.legacy import FORMAT, FORMAT_VERSION


def legacy_doc(match: JapanMatch, dice: dict[str, Any] | None = None) -> dict[str, Any]:
    """The format-1 document of ``match``: its setup, the dice source as created
    (``dice``; default: the seeded random dice of the match's seed), its actions and the
    state snapshot.  ``dice`` must give the faces the match rolled for the document to load."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "setup": match.setup.to_dict(),
        "dice": dice if dice is not None else {"kind": "random", "seed": match.chance.seed},
        "log": [a.to_dict() for a in match.actions()],
        "snapshot": match.state.snapshot(),
    }
