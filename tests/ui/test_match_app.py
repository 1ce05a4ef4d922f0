"""The shared match app: setup form → play → results, resume and slots, the cover screen
between humans, and what reaches the widgets (only the viewer's secrets).  Played with
the toy game of :mod:`toy_game` and a minimal board that follows the board contract."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import ipywidgets as W
import pytest
from ipywidgets.widgets.widget import _instances as WIDGETS

from conquest_widget.core.safe_text import html_text
from conquest_widget.errors import SecretsLockedError
from conquest_widget.saves import SaveStore
from conquest_widget.ui.game_ui import HUMAN, GameUI, Option, SeatChoice
from conquest_widget.ui.match_app import MatchApp

from .toy_game import Seat, ToyMatch, ToySetup


class ToyBoard(W.VBox):
    """Shows the viewer's card; one button per legal action."""

    def __init__(self, controller: Any, lang: str) -> None:
        super().__init__()
        self.c = controller
        self.card = W.HTML()
        self.buttons = W.HBox()
        self.children = [self.card, self.buttons]
        controller.observe(lambda _c: self.redraw(), names="version")
        self.redraw()

    def set_lang(self, lang: str) -> None:
        pass

    def redraw(self) -> None:
        v = self.c.view
        self.card.value = f"card {v['my_card']}" if "my_card" in v else "?"
        buttons = []
        for a in self.c.legal:
            b = W.Button(description=a["type"])
            b.on_click(lambda _b, a=a: self.c.act(a))
            buttons.append(b)
        self.buttons.children = buttons


# the toy setup has names only: who is human is kept in the name ("cpu:" prefix)
def make_setup(seats: list[SeatChoice], options: dict[str, Any]) -> ToySetup:
    return ToySetup(tuple(Seat(s.name if s.human else f"cpu:{s.name}") for s in seats))


def seat_choices(setup: ToySetup) -> list[SeatChoice]:
    return [SeatChoice(p.name[4:], "greedy") if p.name.startswith("cpu:") else SeatChoice(p.name, HUMAN)
            for p in setup.players]


UI = GameUI(
    game="toy", make_setup=make_setup, seat_choices=seat_choices, board=ToyBoard,
    results_html=lambda out, view, lang: f"<p class='toy-hands'>{html_text(str(view.get('hands')))}</p>",
    event_text=lambda e, lang: f"{e['type']} by seat {e['seat']}" + (f": {e['card']}" if "card" in e else ""),
    options=(Option("fast", {"en": "Fast", "ja": "速い"}, default=False),
             Option("deck", {"en": "Deck", "ja": "山札"}, default=10, choices=(6, 10),
                    choice_labels={"en": ("short", "full"), "ja": ("短い", "全部")}),
             Option("rounds", {"en": "Rounds", "ja": "回数"}, default=1, low=1, high=3)),
)


class ToyApp(MatchApp):
    ui = UI
    engines = {"toy": ToyMatch}


def widget_states() -> str:
    """Every live widget's synced state, as the browser would receive it."""
    return json.dumps([w.get_state() for w in list(WIDGETS.values())], default=str)


def buttons(app: W.Widget, description: str) -> list[W.Button]:
    found = []

    def walk(w: Any) -> None:
        if isinstance(w, W.Button) and w.description == description:
            found.append(w)
        for child in getattr(w, "children", ()):
            walk(child)

    walk(app)
    return found


def click(app: W.Widget, description: str) -> None:
    form = getattr(app, "form", None)
    if app.screen == "setup" and form is not None and description in (form.button_label("start"),
                                                                       form.button_label("back")):
        # the New game form is one widget: its Start and Back are buttons of the page
        form.click("start" if description == form.button_label("start") else "back")
        return
    log = getattr(app, "log_view", None)
    if log is not None and log.cover and description == log.uncover_label:
        assert log.click("uncover")  # the cover's button is drawn by the log's page module
        return
    b = buttons(app, description)
    assert b, f"no visible button {description!r}"
    b[0].click()


def setup_game(app: ToyApp, kinds: list[str], seed: int = 7) -> None:
    click(app, "New game")
    app.n_players.value = len(kinds)
    for (_name, kind), value in zip(app.seat_rows, kinds, strict=False):
        kind.value = value
    app.speed.value = "instant"
    app.seed.value = str(seed)
    click(app, "Start")


def test_a_game_from_setup_to_results_records_the_result(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, "greedy"])
    assert app.screen == "play" and app.controller.viewer == 0
    assert (tmp_path / "autosave-toy.json").exists()
    click(app, "keep")
    assert app.screen == "results"
    results = next(w for w in app.body.children if "cw-results" in w._dom_classes)
    assert "wins" in results.value or "Shared win" in results.value
    assert "toy-hands" in results.value  # the game's own story of the end
    store = SaveStore(tmp_path, engines={"toy": ToyMatch})
    assert len(store.results("toy")) == 1
    assert not store.has_autosave("toy")


def test_setup_problems_are_shown_and_nothing_starts(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    click(app, "New game")
    app.seat_rows[0][0].value = "<b>" + "x" * 40
    click(app, "Start")
    assert app.screen == "setup" and "Seat 1" in app.message.value and app.controller is None
    app.seat_rows[0][0].value = "Ann"
    for _, kind in app.seat_rows:
        kind.value = "greedy"
    click(app, "Start")
    assert app.screen == "setup" and "At least one seat must be Human" in app.message.value
    app.seat_rows[0][1].value = HUMAN
    app.seed.value = "twelve"
    click(app, "Start")
    assert "The seed must be a whole number" in app.message.value
    assert not (tmp_path / "autosave-toy.json").exists()


def page_sends(app: ToyApp, **changes: Any) -> None:
    """What the page of the New game form sends when the player types or picks: its synced
    ``values`` with ``changes`` (as ipywidgets applies a state update from the page)."""
    app.form.set_state({"values": {**app.form.values, **changes}})


def test_what_the_page_fills_in_reaches_the_fields_and_what_it_does_not_offer_is_refused(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    click(app, "New game")
    names = list(app.form.values["names"])
    page_sends(app, n=2, names=["Zoe", *names[1:]], kinds=["greedy", HUMAN, *app.form.values["kinds"][2:]],
               opt={"fast": True, "deck": 6, "rounds": 2}, speed="instant", seed="12")
    assert (app.n_players.value, app.seat_rows[0][0].value, app.seat_rows[0][1].value) == (2, "Zoe", "greedy")
    assert app.seat_rows[1][1].value == HUMAN and app.speed.value == "instant" and app.seed.value == "12"
    assert {k: f.value for k, f in app.option_widgets.items()} == {"fast": True, "deck": 6, "rounds": 2}
    # a page may send anything: what the form does not offer is not taken (the page is
    # given the kernel's values back), a number beyond its bounds is brought within them
    page_sends(app, n=99, names=[7, *names[1:]], kinds=["superbot", HUMAN], speed="warp",
               opt={"fast": "yes", "deck": 7, "rounds": 50})
    assert (app.n_players.value, app.seat_rows[0][0].value, app.seat_rows[0][1].value) == (2, "Zoe", "greedy")
    assert app.speed.value == "instant"
    assert {k: f.value for k, f in app.option_widgets.items()} == {"fast": True, "deck": 6, "rounds": 3}
    assert app.form.values["n"] == 2 and app.form.values["opt"]["rounds"] == 3 and app.form.values["speed"] == "instant"
    # null is not taken either (a trait that takes anything takes None without its check)
    before = dict(app.form.values)
    page_sends(app, n=None, kinds=[None] * 6, speed=None, opt={"fast": None, "deck": None, "rounds": None})
    assert app.form.values == before
    # set from Python, the page is sent the new values
    app.seat_rows[1][0].value = "Yui"
    assert app.form.values["names"][1] == "Yui"
    click(app, "Start")
    assert app.screen == "play" and [s.name for s in app._seats] == ["Zoe", "Yui"]
    assert app.form.comm is None  # the form went away with its screen


def test_start_takes_the_values_the_page_shows(tmp_path) -> None:
    """The page's Start carries the values it shows: a seat the player set to Human plays as
    a human even when the kernel's fields missed the edit (a clean-clone browser run once
    started a seat picked as Human as a CPU), and a value the form does not offer is still
    refused."""
    app = ToyApp(save_dir=tmp_path)
    click(app, "New game")
    shown = {**app.form.values, "n": 2, "names": ["Zoe", "Yui", *app.form.values["names"][2:]],
             "kinds": [HUMAN, HUMAN, *app.form.values["kinds"][2:]], "speed": "no such speed", "seed": "5"}
    assert app.seat_rows[1][1].value != HUMAN  # the kernel's field still holds the CPU
    app.form._on_page_msg(app.form, {"click": "start", "values": shown}, [])
    assert app.screen == "play" and [(s.name, s.bot) for s in app._seats] == [("Zoe", HUMAN), ("Yui", HUMAN)]
    assert app.controller.cpu_speed == "fast"  # not offered: the field kept its value


def test_a_language_switch_relabels_the_form_and_keeps_what_was_typed(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    click(app, "New game")
    page_sends(app, names=["Zoe", *app.form.values["names"][1:]], seed="42", opt={**app.form.values["opt"], "deck": 6})
    before = dict(app.form.values)
    app.set_lang("ja")
    assert app.form.values == before and app.seat_rows[0][0].value == "Zoe" and app.seed.value == "42"
    assert app.form.desc["t"]["start"] == "開始" and app.option_widgets["deck"].options == (("短い", 6), ("全部", 10))
    assert ["人間", "human"] in app.form.desc["kinds"]


def test_a_hostile_name_in_the_form_is_never_markup(tmp_path) -> None:
    """Names are hostile text: a default name of the game or a name typed in the page is
    data of the form (an input's value in the page, which puts every text in with
    textContent: tests/test_page_files.py), and once the game starts no widget holds it as
    markup."""
    evil = "<img src=x onerror=1>"

    class Hostile(ToyApp):
        ui = replace(UI, default_names={"en": (evil, "<b>Ben</b>")})

    app = Hostile(save_dir=tmp_path)
    click(app, "New game")
    assert app.seat_rows[0][0].value == evil and app.form.values["names"][:2] == [evil, "<b>Ben</b>"]
    assert evil not in json.dumps(app.form.desc)  # the labels hold no name
    typed = "<script>x</script>"
    page_sends(app, n=2, names=[evil, typed], kinds=[HUMAN, "greedy"], seed="3", speed="instant")
    assert app.seat_rows[1][0].value == typed
    click(app, "Start")
    assert app.screen in ("play", "results") and [s.name for s in app._seats] == [evil, typed]
    states = widget_states()
    assert evil not in states and typed not in states


def test_exit_and_resume_continue_the_same_game_with_the_same_viewer(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, ["greedy", HUMAN, "greedy"], seed=3)
    view = dict(app.controller.view)
    assert app.controller.viewer == 1
    click(app, "Exit")
    assert app.screen == "start" and app.controller is None
    again = ToyApp(save_dir=tmp_path)  # a new page
    click(again, "Resume")
    assert again.screen == "play" and again.controller.viewer == 1
    assert again.controller.view == view


def test_save_to_a_slot_and_load_it(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, "greedy"], seed=5)
    click(app, "Save")
    pick = next(w for w in app.save_box.children if isinstance(w, W.Dropdown))
    pick.value = 2
    next(w for w in app.save_box.children if "cw-save-confirm" in w._dom_classes).click()
    assert "Saved to slot 2" in app.message.value
    view = dict(app.controller.view)
    fresh = ToyApp(save_dir=tmp_path)
    load = [b for b in buttons(fresh, "Load")]
    assert len(load) == 1
    load[0].click()
    assert fresh.controller.view == view


def test_hot_seat_cover_screen_and_no_other_secret_in_any_widget(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, HUMAN], seed=11)
    match = app.controller._match  # the test reads the truth; the widgets must not
    cards = list(match.state["hands"])
    # right after Start nobody is known to be at the screen: Ann's cover, no card anywhere
    assert app.controller.cover == "Ann" and app.log_view.cover == "Pass the screen to Ann"
    assert not any(f"card {c}" in widget_states() for c in cards)
    click(app, "I am Ann: show my view")
    assert app.controller.viewer == 0 and f"card {cards[0]}" in app.board.card.value
    click(app, "keep")
    assert app.controller.cover == "Ben"
    assert app.log_view.cover == "Pass the screen to Ben" and app.log_view.uncover_label == "I am Ben: show my view"
    assert f"card {cards[0]}" not in widget_states()
    click(app, "I am Ben: show my view")
    assert app.controller.viewer == 1 and app.controller.cover == ""
    states = widget_states()
    assert f"card {cards[1]}" in states
    assert f"card {cards[0]}" not in states and f": {cards[0]}" not in states


def test_save_and_exit_under_the_cover_then_resume_behind_a_cover(tmp_path) -> None:
    """Save and Exit work while the cover is up and uncover nothing; Resume (as after Exit
    or a reload) opens behind the cover of the human to act."""
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, HUMAN, HUMAN], seed=11)
    cards = list(app.controller._match.state["hands"])
    click(app, "I am Ann: show my view")
    click(app, "keep")
    assert app.controller.cover == "Ben"
    click(app, "Save")
    next(w for w in app.save_box.children if "cw-save-confirm" in w._dom_classes).click()
    assert "Saved to slot" in app.message.value and app.controller.cover == "Ben"
    assert not any(f"card {c}" in widget_states() for c in cards)
    click(app, "Exit")
    click(app, "Resume")
    assert app.controller.cover == "Ben" and app.controller.viewer is None
    assert not any(f"card {c}" in widget_states() for c in cards)
    fresh = ToyApp(save_dir=tmp_path)  # a reload: a new app on the same save folder
    click(fresh, "Resume")
    assert fresh.controller.cover == "Ben"
    assert not any(f"card {c}" in widget_states() for c in cards)


def test_saving_over_an_occupied_slot_asks_first_naming_its_game(tmp_path) -> None:
    from conquest_widget.games.japan_conquest import GameSetup, JapanMatch

    store = SaveStore(tmp_path)
    store.save_slot(1, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, "greedy"], seed=5)
    click(app, "Save")
    pick = next(w for w in app.save_box.children if isinstance(w, W.Dropdown))
    assert pick.value == 2, "the Save box offers a free slot first, not another game's"
    pick.value = 1
    next(w for w in app.save_box.children if "cw-save-confirm" in w._dom_classes).click()
    question = " ".join(w.value for w in app.save_box.children if isinstance(w, W.HTML))
    assert "Slot 1 holds Japan Conquest" in question and "Overwrite it?" in question
    assert store.slot_info(1).game == "japan_conquest"  # nothing replaced yet
    next(w for w in app.save_box.children if "cw-save-cancel" in w._dom_classes).click()
    assert store.slot_info(1).game == "japan_conquest"
    click(app, "Save")
    pick = next(w for w in app.save_box.children if isinstance(w, W.Dropdown))
    pick.value = 1
    next(w for w in app.save_box.children if "cw-save-confirm" in w._dom_classes).click()
    next(w for w in app.save_box.children if "cw-save-overwrite" in w._dom_classes).click()
    assert app.store.slot_info(1).game == "toy" and "Saved to slot 1" in app.message.value
    # the next Save offers the game's own slot, and asks again before replacing it
    click(app, "Save")
    pick = next(w for w in app.save_box.children if isinstance(w, W.Dropdown))
    assert pick.value == 1
    next(w for w in app.save_box.children if "cw-save-confirm" in w._dom_classes).click()
    assert any("cw-save-overwrite" in w._dom_classes for w in app.save_box.children)


def test_a_slot_of_another_game_is_listed_but_not_loadable(tmp_path) -> None:
    from conquest_widget.games.japan_conquest import GameSetup, JapanMatch

    SaveStore(tmp_path).save_slot(1, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))
    app = ToyApp(save_dir=tmp_path)
    labels = " ".join(w.value for w in _all(app) if isinstance(w, W.HTML))
    assert "Slot 1: Japan Conquest" in labels
    assert not buttons(app, "Load")


def test_japanese_labels(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path, lang="ja")
    assert buttons(app, "新しいゲーム")
    app.set_lang("en")
    assert buttons(app, "New game")


def test_every_kind_of_option_is_offered_and_reaches_make_setup(tmp_path) -> None:
    seen = []

    class Recording(ToyApp):
        ui = replace(UI, make_setup=lambda seats, options: seen.append(options) or make_setup(seats, options))

    app = Recording(save_dir=tmp_path, lang="ja")
    click(app, "新しいゲーム")
    deck = app.option_widgets["deck"]
    assert deck.options == (("短い", 6), ("全部", 10)) and deck.value == 10
    app.set_lang("en")
    assert app.option_widgets["deck"].options == (("short", 6), ("full", 10))
    deck.value = 6
    app.option_widgets["rounds"].value = 3
    app.option_widgets["fast"].value = True
    click(app, "Start")
    assert seen == [{"fast": True, "deck": 6, "rounds": 3}]


def _all(w: Any) -> list[Any]:
    out = [w]
    for c in getattr(w, "children", ()):
        out.extend(_all(c))
    return out


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    for w in list(WIDGETS.values()):
        w.close()


def test_cpus_play_one_by_one_in_the_background_inside_an_event_loop(tmp_path) -> None:
    """In a kernel (a running event loop) CPU moves are shown one at a time at the chosen
    speed, with "CPU is playing…" meanwhile; the human's turn comes back by itself."""
    import asyncio

    async def scenario() -> tuple[list[bool], int, str]:
        app = ToyApp(save_dir=tmp_path)
        click(app, "New game")
        app.n_players.value = 3
        for (_, kind), value in zip(app.seat_rows, ["greedy", "greedy", HUMAN], strict=False):
            kind.value = value
        app.speed.value = "fast"
        app.seed.value = "4"
        busy: list[bool] = []
        click(app, "Start")
        app.controller.observe(lambda ch: busy.append(ch["new"]), names="cpu_busy")
        assert app.controller.legal == []  # the CPUs have not played yet
        for _ in range(100):
            await asyncio.sleep(0.05)
            if app.controller.legal and not app.controller.cpu_busy:
                break
        return busy, len(app.controller.legal), app.busy.value

    busy, n_legal, busy_text = asyncio.run(scenario())
    assert busy[0] is True and busy[-1] is False  # "CPU is playing…" was shown, then cleared
    assert n_legal == 2 and busy_text == ""


def test_replay_a_slot_and_branch_from_it_then_replay_a_finished_game(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, HUMAN], seed=11)
    app_cards = list(app.controller._match.state["hands"])
    click(app, "I am Ann: show my view")
    click(app, "keep")
    click(app, "I am Ben: show my view")
    app.controller.save(app.store, 1)
    click(app, "Exit")
    replay_buttons = [b for b in _all(app) if isinstance(b, W.Button) and "cw-replay-1" in b._dom_classes]
    assert replay_buttons
    replay_buttons[0].click()
    assert app.screen == "replay"
    explorer = next(w for w in app.body.children if "cw-replay" in w._dom_classes)
    # an unfinished game with secrets: the public view only, whoever is at the screen
    assert explorer.replay.length == 1 and explorer.viewer is None and explorer.public_only
    assert [v for _label, v in explorer.seat_chooser.options] == ["public"]
    with pytest.raises(SecretsLockedError):
        explorer.show_everything()
    with pytest.raises(SecretsLockedError):
        explorer.show_seat(0)
    assert not any(f"card {c}" in widget_states() for c in app_cards)
    explorer.go(0)
    click(app, "Branch here")
    assert app.screen == "play" and app.controller.view["turn"] == 0  # playing on from the start
    click(app, "I am Ann: show my view")
    click(app, "keep")
    click(app, "I am Ben: show my view")
    click(app, "swap")
    assert app.screen == "results"
    click(app, "Replay")
    explorer = next(w for w in app.body.children if "cw-replay" in w._dom_classes)
    assert explorer.replay.length == 2
    # the game has ended: every seat's view and "Show everything" are offered
    assert not explorer.public_only and "all" in [v for _label, v in explorer.seat_chooser.options]
    explorer.show_everything()


# ----------------------------------------------------------- two pages, one save folder
def _autosaved(tmp_path) -> Any:
    return SaveStore(tmp_path, engines={"toy": ToyMatch}).load_autosave("toy")


def test_two_pages_on_one_game_never_replace_each_other_without_a_word(tmp_path) -> None:
    """Issue 31 item 10: the same game open in two tabs (two kernels, one save folder).
    Page B resumes page A's game and plays a different move; A's next move is not
    written over B's game: A is told, keeps its game on screen and can save it to a slot
    or make it the autosave again (and then B is told in turn)."""
    a = ToyApp(save_dir=tmp_path)
    setup_game(a, [HUMAN, HUMAN, HUMAN], seed=11)
    click(a, "I am Ann: show my view")
    click(a, "keep")
    b = ToyApp(save_dir=tmp_path)  # a second tab: Resume continues the same game
    click(b, "Resume")
    click(b, "I am Ben: show my view")
    click(b, "swap")
    assert _autosaved(tmp_path).state["swapped"] == [False, True, False]
    assert a.elsewhere.layout.display == "none"
    click(a, "I am Ben: show my view")
    click(a, "keep")  # A's game goes on on screen ...
    assert a.controller._match.state["swapped"] == [False, False, False]
    # ... but B's game is the autosave still, and A says so
    assert _autosaved(tmp_path).state["swapped"] == [False, True, False]
    assert a.elsewhere.layout.display is None
    assert "Another tab" in a.elsewhere.children[0].value
    # A's game can go to a slot ...
    click(a, "Save")
    next(w for w in a.save_box.children if "cw-save-confirm" in w._dom_classes).click()
    store = SaveStore(tmp_path, engines={"toy": ToyMatch})
    assert store.load_slot(1, game="toy").state["swapped"] == [False, False, False]
    # ... or become the autosave again; then B is the page that is told
    click(a, "Autosave this game here")
    assert a.elsewhere.layout.display == "none"
    assert _autosaved(tmp_path).state["swapped"] == [False, False, False]
    click(b, "I am Chika: show my view")
    click(b, "keep")
    assert b.screen == "results"  # B's game ended on B's page: its result is recorded ...
    assert _autosaved(tmp_path).state["swapped"] == [False, False, False]  # ... A's game stays
    assert len(store.results("toy")) == 1


def test_a_page_whose_autosave_was_taken_asks_before_leaving(tmp_path) -> None:
    a = ToyApp(save_dir=tmp_path)
    setup_game(a, [HUMAN, HUMAN, HUMAN], seed=11)
    b = ToyApp(save_dir=tmp_path)
    setup_game(b, [HUMAN, HUMAN], seed=12)  # B starts another game: it replaces the autosave
    click(a, "I am Ann: show my view")
    click(a, "keep")
    assert a.elsewhere.layout.display is None
    assert _autosaved(tmp_path).n_seats == 2
    click(a, "Exit")
    assert a.screen == "play" and "not saved anywhere" in a.save_box.children[0].value
    click(a, "Cancel")
    assert a.screen == "play"
    click(a, "Exit")
    click(a, "Leave without saving")
    assert a.screen == "start" and _autosaved(tmp_path).n_seats == 2


def test_a_page_that_vanished_blocks_nobody(tmp_path) -> None:
    """No lease: a page that went away without a word (a closed laptop) holds nothing, so
    a later page resumes and autosaves its game as usual."""
    gone = ToyApp(save_dir=tmp_path)
    setup_game(gone, [HUMAN, HUMAN, HUMAN], seed=11)
    later = ToyApp(save_dir=tmp_path)
    click(later, "Resume")
    click(later, "I am Ann: show my view")
    click(later, "swap")
    assert later.elsewhere.layout.display == "none"
    assert _autosaved(tmp_path).state["swapped"] == [True, False, False]


@pytest.mark.parametrize(("lang", "head"), [("en", "Played by"), ("ja", "操作")])
def test_every_column_of_the_results_table_is_labelled(tmp_path, lang: str, head: str) -> None:
    import re

    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, "greedy"])
    click(app, "keep")
    app.set_lang(lang)
    results = next(w for w in app.body.children if "cw-results" in w._dom_classes).value
    table = re.search(r"<table class='cw-standings'>.*?</table>", results).group(0)
    heads = re.findall(r"<th>(.*?)</th>", table)
    cells = re.findall(r"<tr><td>.*?</tr>", table)[0].count("<td>")
    assert len(heads) == cells and all(heads), heads  # a heading over every column
    assert head in heads


def test_a_hosted_game_opened_alone_opens_in_the_saved_language(tmp_path) -> None:
    SaveStore(tmp_path, engines={"toy": ToyMatch}).save_preferences({"language": "ja"})
    assert buttons(ToyApp(save_dir=tmp_path), "新しいゲーム")
    assert buttons(ToyApp(save_dir=tmp_path, lang="en"), "New game")

