"""Japanese Risk's registry entry."""

from conquest_widget.core.registry import GameSpec

SPEC = GameSpec(
    id="japanese_risk",
    title={"en": "Japanese Risk", "ja": "戦国リスク"},
    blurb={
        "en": "Secret armies on hidden territory cards, castles, ninjas: become Shogun.",
        "ja": "伏せた領地カードに秘密の軍勢、城と忍者。将軍を目指せ。",
    },
    players=range(2, 6),
    hidden_information=True,
    version=1,
    engine="conquest_widget.games.japanese_risk.engine:JapaneseRisk",
    bots="conquest_widget.games.japanese_risk.bots",
    widget="conquest_widget.games.japanese_risk.widget:App",
    seed_document="002_968c30bb395a3f41.txt",
    icon="🏯",
    picture="conquest_widget.games.japanese_risk.picture:PICTURE",
    # the engine asks every seat at every ninja window and a player defender before every
    # battle round (so a question tells nobody who holds ninjas or card armies); the human
    # at the screen whose only answer is "hold" or "commit 0" gets it played for them (a
    # human away from the screen is always asked, behind their cover: ui/controller.py)
    extra={"auto_play_forced": ("hold", "commit")},
)
