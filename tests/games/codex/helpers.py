"""Helpers for the Codex tests: matches with scripted dice and an editor."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from conquest_widget.games.codex.engine import CodexMatch, CodexSetup, Pick

#: colour-die faces
EMBER, TIDE, GROVE, SUN, JOKER = 1, 2, 3, 4, 5


def new_match(n: int = 2, *, k: int = 3, cash: int = 0, first: int = 0, dice: Sequence[Sequence[int]] = (),
              picks: Sequence[str] | None = None, editor: bool = True) -> CodexMatch:
    """A match past the free-share picks (``picks[seat]``, default all "sun"), with the
    first player ``first`` and the dice scripted as ``[territory, colour face]`` pairs."""
    m = CodexMatch(CodexSetup.quick(n, k=k, starting_cash=cash, editor=editor), seed=1,
                   forced=[first, *[list(d) for d in dice]])
    for s in range(n):
        m.apply(Pick(picks[s] if picks else "sun"), s)
    return m


def frozen(m: CodexMatch) -> Any:
    """Everything observable about a match, to check that an illegal action changed nothing."""
    return (json.dumps(m.to_dict(), sort_keys=True), len(m.events), m.chance.draws,
            json.dumps(m.view(None), sort_keys=True), json.dumps(m.ledger(), sort_keys=True))


def events(m: CodexMatch, kind: str, since: int = 0) -> list[dict[str, Any]]:
    return [e for e in m.events_for(None, since) if e["type"] == kind]
