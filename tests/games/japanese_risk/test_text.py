"""Every event of a game reads as a sentence in English and Japanese."""

from __future__ import annotations

import random
import re

from conquest_widget.games.japanese_risk.text import STRINGS, describe_event

from .helpers import random_game


def test_every_event_type_has_a_line_in_both_languages():
    rng = random.Random(3)
    seen = set()
    for _ in range(15):
        m = random_game(rng, n=rng.choice([2, 3, 4, 5]))
        names = list(m.setup.players)
        for seat in [None, *range(m.n_seats)]:
            for e in m.events_for(seat):
                seen.add(e["type"])
                for lang in ("en", "ja"):
                    line = describe_event(e, lang, names)
                    assert line and line != e["type"] and "{" not in line, (e, lang)
    assert {"round", "income", "turn", "battle_round", "captured", "revealed"} <= seen
    for key, (en, ja) in STRINGS.items():
        assert en and ja, key


def test_log_lines_are_sentences_with_plurals_dice_and_neutral_owners() -> None:
    """The log reads as sentences: "1 army" / "2 armies", "1 hit", dice as die faces,
    "is neutral" (issue 30: "attack [1, 3] (2 hits)", "1 armies", "belongs to neutral")."""
    names = ["Ann", "Bo"]

    def en(e: dict) -> str:
        return describe_event(e, "en", names)

    def ja(e: dict) -> str:
        return describe_event(e, "ja", names)

    rnd = {"type": "battle_round", "territory": 13, "att": [1, 3], "dfn": [4, 6], "ah": 2, "dh": 1,
           "attackers": 2, "defenders": 0}
    assert en(rnd) == "Battle for Tokyo: the attacker rolls ⚀ ⚂: 2 hits; the defender rolls ⚃ ⚅: 1 hit"
    assert ja(rnd) == "東京都の戦い: 攻撃側のダイス ⚀ ⚂: 2命中、防御側のダイス ⚃ ⚅: 1命中"
    assert en({"type": "income", "seat": 0, "n": 1}) == "Ann receives 1 army"
    assert en({"type": "income", "seat": 0, "n": 2}) == "Ann receives 2 armies"
    assert en({"type": "captured", "seat": 1, "territory": 13, "armies": 1}) == "Bo took Tokyo with 1 army"
    assert en({"type": "revealed", "territory": 13, "owner": "neutral"}) == "Tokyo is neutral"
    assert ja({"type": "revealed", "territory": 13, "owner": "neutral"}) == "東京都は中立"
    assert en({"type": "revealed", "territory": 13, "owner": 1}) == "Tokyo belongs to Bo"
    assert en({"type": "preroll", "territory": 13, "dice": [2], "hits": 1}) == \
        "Sea crossing: the defender of Tokyo rolls ⚁: 1 hit"
    assert en({"type": "launch", "seat": 0, "territory": 13, "armies": 1, "ninjas": 0, "sea": 0}) == \
        "Ann attacks Tokyo with 1 army"
    assert en({"type": "launch", "seat": 0, "territory": 13, "armies": 3, "ninjas": 1, "sea": 0}) == \
        "Ann attacks Tokyo with 3 armies and 1 ninja"
    assert ja({"type": "launch", "seat": 0, "territory": 13, "armies": 3, "ninjas": 1, "sea": 0}) == \
        "Annが東京都へ攻撃（3部隊、忍者1人）"
    assert en({"type": "muster", "seat": 0, "src": 12, "territory": 13, "n": 1, "ninja": True, "sea": False}) == \
        "Ann sends 1 ninja from Chiba against Tokyo"
    assert en({"type": "muster", "seat": 0, "src": 12, "territory": 13, "n": 2, "ninja": False, "sea": False}) == \
        "Ann sends 2 armies from Chiba against Tokyo"


def test_no_line_of_a_real_game_reads_as_raw_data() -> None:
    """No list brackets, no "1 armies" / "1 hits", no "belongs to neutral" in any line of
    random games, in English."""
    rng = random.Random(5)
    lines = []
    for _ in range(10):
        m = random_game(rng, n=rng.choice([2, 3, 4]))
        for e in m.events_for(None):
            lines.append(describe_event(e, "en", list(m.setup.players)))
    assert any("⚀" in x or "⚃" in x for x in lines)
    for line in lines:
        assert "[" not in line and "belongs to neutral" not in line, line
        assert not re.search(r"\b1 (armies|hits|ninjas|defenders|territories)\b", line), line
        assert not re.search(r"\b([02-9]|\d\d+) (army|hit|ninja)\b(?! )", line), line


def test_defending_ninjas_are_told_in_sentences_in_both_languages() -> None:
    """A defence with ninjas (issue 30) reads as one sentence, with plurals, in EN and JA."""
    names = ["Ann", "Bo"]
    committed = {"type": "committed", "seat": 1, "territory": 11, "n": 2, "ninjas": 1}
    assert describe_event(committed, "en", names) == "Bo brings 2 armies from the card of Saitama and 1 ninja from reserve"
    assert describe_event(committed, "ja", names) == "Boが埼玉県のカードから2部隊と予備の忍者1人を投入"
    only = {"type": "committed", "seat": 1, "territory": 11, "n": 0, "ninjas": 2}
    assert describe_event(only, "en", names) == "Bo brings 2 ninjas from reserve to defend Saitama"
    assert describe_event(only, "ja", names) == "Boが予備の忍者2人を埼玉県の防衛に投入"
    assert describe_event({"type": "committed", "seat": 1, "territory": 11, "n": 1}, "en", names) == \
        "Bo brings 1 army from the card of Saitama"
    revealed = {"type": "revealed", "territory": 11, "owner": 1, "ninjas": 1}
    assert describe_event(revealed, "en", names) == "Saitama belongs to Bo, who also defends it with 1 ninja standing there"
    assert describe_event(revealed, "ja", names) == "埼玉県の持ち主はBo（そこに立つBoの忍者1人も防衛）"
    assert describe_event({"type": "revealed", "territory": 11, "owner": 1}, "en", names) == "Saitama belongs to Bo"
    rnd = {"type": "battle_round", "territory": 11, "att": [2], "dfn": [5, 6], "ah": 1, "dh": 0,
           "attackers": 1, "defenders": 0, "wounded": 0, "ninjas": 1}
    assert describe_event(rnd, "en", names) == ("Battle for Saitama: the attacker rolls ⚁: 1 hit; the defender rolls "
                                                "⚄ ⚅: 0 hits; the defender has 1 ninja left there")
    assert describe_event(rnd, "ja", names).endswith("（防衛の忍者 残り1人）")
