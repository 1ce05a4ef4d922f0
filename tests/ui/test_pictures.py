"""The picker's pictures (issue 29): each game draws its own, in its own folder, named by
its spec's ``picture``; the shell only checks it is an inert SVG (or draws a blank card)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from conquest_widget import ConquestApp
from conquest_widget.core import registry
from conquest_widget.ui.pictures import FALLBACK, PictureError, check_picture, picture

#: sha256 of each picture as ui/pictures.py drew it by game id before issue 29: the picker
#: looks the same now that each game draws its own
BEFORE_ISSUE_29 = {
    "japan_conquest": "4532ed69d80c1f75f2315fcb63866fb041b308f1b97e52a50daf2b260b05f079",
    "conquest_cards": "a4486779d949d5772630a308abdb1b057f041cafec7d7a475ffa24c8db11ea7b",
    "codex": "164af76c744164310cea2c55a3b689f8f810c33c35f9bd365ca72df0e6d0602a",
    "japanese_risk": "338c0fe5332acabd299a9cf47dd23c5d09dcd0caff5b0355e10be91be78b2043",
}
#: the blank card (what the old picture() drew for an unknown id)
FALLBACK_BEFORE = "9106d805b89a9716c7e8e4b1b36e9e141de3718884f24730382a57f7244d0f39"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("spec", registry.all_games(), ids=lambda s: s.id)
def test_each_game_brings_its_picture_from_its_own_folder_byte_for_byte(spec) -> None:
    assert spec.picture is not None and spec.picture.startswith(f"conquest_widget.games.{spec.id}.")
    assert _sha(picture(spec)) == BEFORE_ISSUE_29[spec.id]
    assert check_picture(picture(spec), spec.id) == picture(spec)


def test_a_game_without_a_picture_gets_the_blank_card() -> None:
    bare = replace(registry.get("codex"), id="chess", picture=None)
    assert picture(bare) == FALLBACK and _sha(FALLBACK) == FALLBACK_BEFORE


@pytest.mark.parametrize("bad", [
    "<div>no svg</div>", 42, "<svg><script>alert(1)</script></svg>", '<svg onload="alert(1)"></svg>',
    '<svg><a href="https://example.com"><rect/></a></svg>', "<svg><foreignObject><p>x</p></foreignObject></svg>",
    '<svg><rect style="fill:url(javascript:alert(1))"/></svg>', "<svg><style>*{}</style></svg>",
    '<svg><image xlink:href="x.png"/></svg>',
])
def test_a_picture_that_is_not_an_inert_svg_is_refused(bad) -> None:
    with pytest.raises(PictureError, match="the picture of chess"):
        check_picture(bad, "chess")


def test_the_picker_shows_each_games_picture(tmp_path) -> None:
    app = ConquestApp(save_dir=tmp_path)
    shown = [box.children[0].value for box in app.picker.children]
    assert shown == [picture(spec) for spec in registry.all_games()]
