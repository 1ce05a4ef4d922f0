"""Japan Conquest's registry entry."""

from conquest_widget.core.registry import GameSpec

SPEC = GameSpec(
    id="japan_conquest",
    title={"en": "Japan Conquest", "ja": "全国制覇すごろく"},
    blurb={
        "en": "Travel Japan's 47 prefectures, claim, upgrade and battle for regions.",
        "ja": "47都道府県をめぐり、領地を獲得・強化し、地方の制覇を競うすごろく。",
    },
    players=range(2, 5),
    hidden_information=False,
    version=2,
    engine="conquest_widget.games.japan_conquest.match:JapanMatch",
    bots="conquest_widget.games.japan_conquest.bots",
    widget="conquest_widget.games.japan_conquest.widget:App",
    seed_document="000_585f01d26873a462.txt",
    icon="🗾",
    picture="conquest_widget.games.japan_conquest.picture:PICTURE",
    # `conquest-widget simulate --mode/--turns`: the game mode and the turn limit
    simulate_options=("mode", "turns"),
    seat_stats="conquest_widget.games.japan_conquest.stats:seat_stats",
    saves="conquest_widget.games.japan_conquest.saves:SAVES",
    legacy_documents=True,
)
