"""Maps shared by games: the Japanese prefecture map (Japan Conquest, Japanese Risk)."""
