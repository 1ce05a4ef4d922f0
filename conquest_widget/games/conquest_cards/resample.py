"""Resampling the hidden cards: a full state consistent with what one seat sees.

The unseen cards (the game's cards minus the viewer's hand, every pile and any revealed
hand) are dealt uniformly at random into the other hands (their sizes are public) and
the deck.  The Hard CPU samples a new world this way for every decision; a lesson can
turn a sample into a playable match with :func:`match_from_sample`.

    >>> import random
    >>> from conquest_widget.games.conquest_cards.engine import ConquestCards
    >>> from conquest_widget.games.conquest_cards.setup import CardsSetup
    >>> m = ConquestCards(CardsSetup.quick(2, suits=("S", "H")), seed=5)
    >>> v = m.view(0)
    >>> s = resample_hidden(v, random.Random(1))
    >>> s["hands"][0] == v["hand"], len(s["hands"][1]), len(s["deck"])
    (True, 2, 36)
    >>> match_from_sample(s, v).view(0)["hand"] == v["hand"]
    True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from conquest_widget.errors import ConquestError

from .cards import deck_cards


class ResampleError(ConquestError, ValueError):
    """A view that cannot be resampled (the public view, or a malformed view)."""


def unseen_cards(view: Mapping[str, Any]) -> list[str]:
    """The cards the viewer has not seen, in canonical order (with multiplicity: two
    jokers are two entries).

    >>> from conquest_widget.games.conquest_cards.engine import ConquestCards
    >>> from conquest_widget.games.conquest_cards.setup import CardsSetup
    >>> len(unseen_cards(ConquestCards(CardsSetup.quick(2), seed=1).view(1)))
    38
    """
    if view.get("viewer") is None or "hand" not in view:
        raise ResampleError("resampling needs a seat's view (the public view has no hand)")
    seen = Counter(view["hand"])
    for p in view["players"]:
        for pile in p["piles"]:
            seen.update(pile["cards"])
    for h in view.get("revealed") or ():
        seen.update(h)
    left = Counter(deck_cards(view["options"]["jokers"])) - seen
    out = []
    for c in deck_cards(view["options"]["jokers"]):
        if left[c] > 0:
            out.append(c)
            left[c] -= 1
    return out


def resample_hidden(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A full state (every hand, the deck top first, the piles) that agrees with
    ``view``: the unseen cards are dealt at random into the other hands and the deck."""
    me = view["viewer"]
    unseen = unseen_cards(view)
    rng.shuffle(unseen)
    hands: list[list[str]] = []
    k = 0
    for p in view["players"]:
        if p["seat"] == me:
            hands.append(list(view["hand"]))
        elif view.get("revealed") is not None:
            hands.append([])
        else:
            size = p["hand_size"]
            hands.append(unseen[k:k + size])
            k += size
    deck = unseen[k:]
    if len(deck) != view["deck_size"]:
        raise ResampleError(f"the view is inconsistent: {len(deck)} unseen cards left for a deck of {view['deck_size']}")
    return {
        "viewer": me,
        "suits": [p["suit"] for p in view["players"]],
        "options": dict(view["options"]),
        "hands": hands,
        "deck": deck,
        "piles": [[list(pile["cards"]) for pile in p["piles"]] for p in view["players"]],
        "turn": view["turn"],
        "stage": view["stage"],
        "turns_played": view["turns_played"],
        "selected": list(view.get("selected") or ()),
    }


def true_state(match: Any) -> dict[str, Any]:
    """The real full state of a match in the same form as :func:`resample_hidden` (for
    the "sees all cards" search of the hidden-information measurement, never for a bot
    in a real game)."""
    st = match.state
    return {
        "viewer": None,
        "suits": list(st["suits"]),
        "options": match.setup.options(),
        "hands": [list(h) for h in st["hands"]],
        "deck": list(st["deck"])[::-1],
        "piles": [[list(x) for x in p] for p in st["piles"]],
        "turn": st["turn"],
        "stage": st["stage"],
        "turns_played": st["turns_played"],
        "selected": list(st["selected"]),
    }


def match_from_sample(sample: Mapping[str, Any], view: Mapping[str, Any], *, seed: int = 0) -> Any:
    """A playable match (editor position) from a sample of a view in the draw or play
    stage; the selection in progress is not carried over."""
    from .engine import ConquestCards
    from .setup import CardsSetup, PlayerSeat, Position

    if sample["stage"] not in ("draw", "play"):
        raise ResampleError(f"a match can be built only in the draw or play stage, not {sample['stage']!r}")
    setup = CardsSetup(tuple(PlayerSeat(p["name"]) for p in view["players"]), tuple(sample["suits"]),
                       **sample["options"])
    pos = Position(tuple(map(tuple, sample["hands"])), tuple(tuple(map(tuple, p)) for p in sample["piles"]),
                   tuple(sample["deck"]), sample["turn"], sample["stage"], sample["turns_played"])
    return ConquestCards.from_position(setup, pos, seed=seed)
