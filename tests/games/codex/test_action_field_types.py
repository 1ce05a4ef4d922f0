"""Issue 31, item 6: a Codex action whose fields are not of their declared types is refused
at ``apply`` (IllegalActionError naming the field) and changes nothing.  ``Place(..., col=True)``
(True equals 1) used to be accepted, logged as ``"col": true``, and its autosave was then
refused on load: the game could not be reloaded."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import CodexMatch, Edit, Place, Roll
from conquest_widget.saves.store import SaveStore

from .helpers import SUN, frozen, new_match


@pytest.mark.parametrize("col", [True, "1", None, (1,), [1], 1.0])
def test_a_place_with_a_badly_typed_column_is_refused_and_changes_nothing(col) -> None:
    m = new_match(dice=[(2, SUN)], editor=False)
    m.apply(Roll(), 0)
    before = frozen(m)
    with pytest.raises(IllegalActionError, match="field 'col' must be int"):
        m.apply(Place(2, 1, col, "sun"), 0)
    assert frozen(m) == before
    m.apply(Place(2, 1, 1, "sun"), 0)  # the well-typed placement is still legal
    assert m.log[-1]["action"] == {"type": "place", "territory": 2, "row": 1, "col": 1, "faction": "sun"}


def test_after_a_refused_bool_field_the_autosave_reloads(tmp_path) -> None:
    m = new_match(dice=[(2, SUN)], editor=False)
    m.apply(Roll(), 0)
    with pytest.raises(IllegalActionError):
        m.apply(Place(2, 1, True, "sun"), 0)
    m.apply(Place(2, 1, 1, "sun"), 0)
    store = SaveStore(tmp_path)
    store.autosave(m)
    assert store.problems() == {}
    loaded = store.load_autosave("codex")
    assert isinstance(loaded, CodexMatch) and loaded.to_dict() == m.to_dict()


@pytest.mark.parametrize("bad", [Edit("cash", True, "", 5), Edit("cash", 0, "", 5.0), Edit("pieces", -1, "sun", 0, [1]),
                                 Edit("pieces", -1, "sun", 0, (1, True)), Edit(None)])
def test_editor_actions_are_type_checked_too(bad) -> None:
    m = new_match()
    before = frozen(m)
    with pytest.raises(IllegalActionError, match="field '(seat|value|plots|op)'"):
        m.apply(bad, 0)
    assert frozen(m) == before
