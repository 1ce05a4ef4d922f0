"""Conquest (the card game)'s registry entry."""

from conquest_widget.core.registry import GameSpec

SPEC = GameSpec(
    id="conquest_cards",
    title={"en": "Conquest (card game)", "ja": "コンクエスト（カードゲーム）"},
    blurb={
        "en": "Build Jack, Queen and King piles from a standard deck; the biggest piles score.",
        "ja": "トランプでジャック・クイーン・キングの山を育て、最大の山が得点。",
    },
    players=range(2, 5),
    hidden_information=True,
    version=1,
    engine="conquest_widget.games.conquest_cards.engine:ConquestCards",
    bots="conquest_widget.games.conquest_cards.bots",
    widget="conquest_widget.games.conquest_cards.widget:App",
    seed_document="004_5917743913ab6c9e.txt",
    icon="🂡",
    picture="conquest_widget.games.conquest_cards.picture:PICTURE",
)
