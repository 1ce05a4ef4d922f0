"""Exact battle odds (no sampling): distributions of dice sums and win probabilities.

    >>> from fractions import Fraction
    >>> battle_odds(1, 1, 0)            # one die each, no bonus: attacker needs strictly more
    Fraction(5, 12)
    >>> battle_odds(3, 1, 2) > battle_odds(1, 1, 2)
    True
    >>> float(attacker_win_probability(1, 0, defender_items={"double": 1, "triple": 1}))
    0.0115...
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from conquest_widget.games.japan_conquest.rules import DIE_FACES

ITEM_FOR_DICE = {2: "double", 3: "triple"}


@cache
def sum_distribution(dice: int) -> tuple[Fraction, ...]:
    """``P(sum == s)`` for ``dice`` fair six-sided dice, indexed by ``s`` (0 .. 6*dice)."""
    if dice < 0:
        raise ValueError(f"dice must be >= 0, got {dice}")
    dist = [Fraction(1)]
    for _ in range(dice):
        nxt = [Fraction(0)] * (len(dist) + DIE_FACES)
        for s, p in enumerate(dist):
            if p:
                for f in range(1, DIE_FACES + 1):
                    nxt[s + f] += p / DIE_FACES
        dist = nxt
    return tuple(dist)


@cache
def at_least(dice: int, total: int) -> Fraction:
    """``P(sum of dice >= total)``."""
    dist = sum_distribution(dice)
    return sum(dist[max(total, 0) :], Fraction(0))


def defence_win_given_attack(attack_total: int, defence_dice: int, bonus: int) -> Fraction:
    """Probability that the defender holds (ties go to the defender) once the attack total is known."""
    return at_least(defence_dice, attack_total - bonus)


@cache
def battle_odds(attack_dice: int, defence_dice: int, bonus: int) -> Fraction:
    """The attacker's exact win probability when attacker and defender roll the given
    numbers of dice and the defender adds ``bonus`` (castle +2, region +1, full +1)."""
    dist = sum_distribution(attack_dice)
    return sum(
        (p * (1 - defence_win_given_attack(a, defence_dice, bonus)) for a, p in enumerate(dist) if p),
        Fraction(0),
    )


def best_defence_dice(attack_total: int, bonus: int, available: tuple[int, ...] = (1, 2, 3)) -> int:
    """The defender's choice after seeing the attack: the fewest dice that reach the best
    holding probability (an item is spent only when it changes the odds)."""
    best, best_p = 1, defence_win_given_attack(attack_total, 1, bonus)
    for d in sorted(available):
        p = defence_win_given_attack(attack_total, d, bonus)
        if p > best_p:
            best, best_p = d, p
    return best


def attacker_win_probability(attack_dice: int, bonus: int, defender_items: dict[str, int] | None = None) -> Fraction:
    """The attacker's exact win probability when the defender, after seeing the attack
    roll, answers with the best option among the items they hold.

    Only whether the defender holds a Double / a Triple matters, so the exact value is
    memoized on ``(attack_dice, bonus, holds double, holds triple)``: a game asks this
    thousands of times over a few dozen distinct inputs.

    >>> attacker_win_probability(2, 1, {"double": 3, "triple": 0}) == attacker_win_probability(2, 1, {"double": 1})
    True
    """
    items = defender_items or {}
    available = (1,) + tuple(d for d, name in ITEM_FOR_DICE.items() if items.get(name, 0) > 0)
    return _attacker_win_probability(attack_dice, bonus, available)


@cache
def _attacker_win_probability(attack_dice: int, bonus: int, available: tuple[int, ...]) -> Fraction:
    """:func:`attacker_win_probability` for the defender's dice options ``available``."""
    dist = sum_distribution(attack_dice)
    total = Fraction(0)
    for a, p in enumerate(dist):
        if p:
            d = best_defence_dice(a, bonus, available)
            total += p * (1 - defence_win_given_attack(a, d, bonus))
    return total
