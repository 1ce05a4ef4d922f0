"""Japanese Risk at a table (issue 28), kernel side: another seat's secret never reaches a
seat's page.  Two tables are twins: the same setup and chance seed and the same public
history, but Ann (seat 1) puts her income on her cards on different prefectures (a secret:
card armies are hidden).  Ben's page (seat 2) at each table, the game's own board drawn
from a TableController, must send byte-identical widget states (every model of the page's
tree, model ids named by order of first appearance), before and after Ben plans and
commits his own income by clicks on his board."""

from __future__ import annotations

import re
from pathlib import Path

from conquest_widget import tables
from conquest_widget.games.japanese_risk.widget import UI, make_setup
from conquest_widget.ui.game_ui import SeatChoice
from conquest_widget.ui.table_page import TablePage

from .test_table_page import states

MODEL_ID = re.compile(r"IPY_MODEL_[0-9a-f]{32}")


def normalised(page: TablePage) -> str:
    names: dict[str, str] = {}
    return MODEL_ID.sub(lambda m: names.setdefault(m.group(0), f"MODEL_{len(names)}"), states(page))


def twin(tmp_path: Path, name: str, ann_at: int) -> tuple[TablePage, tables.SeatClient]:
    """A table where Ann puts all her income on her ``ann_at``-th hidden prefecture, and Ben's page."""
    store = tables.open_store(tmp_path / name)
    setup = make_setup([SeatChoice(n) for n in ("Ann", "Ben", "Chika")], {"round_limit": 2})
    new = tables.create_table(store, "japanese_risk", setup, ["human"] * 3, seed=2024)
    ann = tables.join(store, new.invites[0])
    ben = TablePage(tables.join(store, new.invites[1]), UI, start=False)
    return ben, ann


def place_all(client: tables.SeatClient, nth: int) -> None:
    view = client.view()
    mine = [t["code"] for t in view["territories"] if t["owner"] == client.seat and not t["revealed"]]
    client.act({"type": "place", "territory": mine[nth], "count": view["me"]["income_left"]})


def test_another_seats_card_armies_never_reach_bens_page(tmp_path: Path) -> None:
    (ben_a, ann_a), (ben_b, ann_b) = twin(tmp_path, "a", 0), twin(tmp_path, "b", 1)
    assert normalised(ben_a) == normalised(ben_b)
    place_all(ann_a, 0)
    place_all(ann_b, 1)
    assert ann_a.view()["me"]["card_armies"] != ann_b.view()["me"]["card_armies"]  # the secrets differ
    for page in (ben_a, ben_b):
        assert page.table.poll()
    assert ben_a.table.view == ben_b.table.view and ben_a.table.events == ben_b.table.events  # public alike
    assert normalised(ben_a) == normalised(ben_b)
    # Ben plans his income on his first prefecture by clicks (planned badges), then commits it
    for page in (ben_a, ben_b):
        board = page.board
        first = next(t["code"] for t in board.view["territories"] if t["owner"] == 1)
        while not board.buttons["plus"].disabled or board.buttons["place-confirm"].disabled:
            board.click(first)
        assert "cw-card-badge cw-planned" in board.map.label_of(first)  # drawn dashed (labels.css)
    assert normalised(ben_a) == normalised(ben_b)
    for page in (ben_a, ben_b):
        page.board.buttons["place-confirm"].click()
        assert page.table.view["me"]["card_armies"] and not page.board.alloc
    assert normalised(ben_a) == normalised(ben_b)
