"""The Codex of Conquest's registry entry."""

from conquest_widget.core.registry import GameSpec

SPEC = GameSpec(
    id="codex",
    title={"en": "The Codex of Conquest", "ja": "征服の書"},
    blurb={
        "en": "Place faction pieces on grid territories, conquer smaller groups, trade shares.",
        "ja": "4つの勢力の駒を置いて小さな集団を征服し、株を売買する。",
    },
    players=range(2, 7),
    hidden_information=False,
    version=1,
    engine="conquest_widget.games.codex.engine:CodexMatch",
    bots="conquest_widget.games.codex.bots",
    widget="conquest_widget.games.codex.widget:App",
    seed_document="003_52b6586dc5bff5c5.txt",
    icon="📜",
    picture="conquest_widget.games.codex.picture:PICTURE",
)
