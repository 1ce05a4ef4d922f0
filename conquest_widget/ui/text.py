"""The shell's own strings (each game has its own table), English and Japanese.

    >>> t("players", "ja", n="2–4")
    '2–4人'
"""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    "title": ("Conquest games", "制覇ゲーム集"),
    "play": ("Play", "遊ぶ"),
    "coming": ("coming soon", "近日公開"),
    "players": ("{n} players", "{n}人"),
    "back_to_games": ("← All games", "← ゲーム一覧"),
    "pass_to": ("Pass the screen to {name}", "{name}さんに画面を渡してください"),
    "ready": ("I am {name}: show my view", "{name}です：表示する"),
}


def t(key: str, lang: str, **kw: object) -> str:
    """The shell string ``key`` in ``lang`` ("en" or "ja"), formatted with ``kw``."""
    en, ja = STRINGS[key]
    return (ja if lang == "ja" else en).format(**kw)
