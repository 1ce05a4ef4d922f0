"""The shell knows no game (issue 29): everything per game comes from the game's folder, so
adding a fifth game touches no shared file but the registry's list of spec modules.

Every module of ``conquest_widget/core``, ``conquest_widget/ui`` and ``conquest_widget/maps``
is parsed (:mod:`ast`); docstrings and other bare string statements are dropped (comments
never reach the tree), and no string literal (f-string parts included), identifier
(names, attributes, definitions, arguments, keywords) or imported module may name a game:

- a game id (``japan_conquest``, ``conquest_cards``, ``codex``, ``japanese_risk``; taken
  from the registry, so a new game's id is checked too), anywhere in the text, any case;
- a game's class: its engine (``JapanMatch``, ``ConquestCards``, ``CodexMatch``,
  ``JapaneseRisk``; there is no ``RiskMatch``), its app (``JapanConquestApp`` and the
  shell-made ``ConquestCardsApp``, ``CodexApp``, ``JapaneseRiskApp``), its board
  (``CardsBoard``, ``CodexBoard``, ``RiskBoard``), anywhere in the text; and Japan
  Conquest's engine ``Game`` as a whole identifier ("Game over" in a message is no game).

``JapanBoard`` is not on the list: it is the shared map's own class
(``maps/japan/board.py``), which Japan Conquest's replay board happens to share a name with.

The only exceptions are :data:`SPEC_LIST` (the registry's list, where a game is added) and
:data:`ALLOWED`, each with its reason; an exception that is no longer found fails too, so
the list shrinks with the code.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from conquest_widget.core import registry

PACKAGE = Path(__file__).resolve().parent.parent / "conquest_widget"
SCANNED = ("core", "ui", "maps")

#: the one place a game is named on purpose: the registry's list of spec modules
SPEC_LIST = ("core/registry.py", "SPEC_MODULES")

#: (file, kind, text) -> (how many times, why): the known occurrences; nothing else may join.
#: Empty since the replay loader reads any game's older engine object through ``Match.adopt``
#: (issue 29); an entry needs a reason naming its issue and saying when it goes.
ALLOWED: dict[tuple[str, str, str], tuple[int, str]] = {}


def _app_class_name(game_id: str) -> str:
    # the name ui.match_app.app_class gives a hosted game's MatchApp subclass
    return f"{game_id.title().replace('_', '')}App"


def forbidden() -> tuple[list[str], list[str], set[str]]:
    """(game ids, class names found anywhere in a text, names forbidden as whole identifiers)."""
    ids = [spec.id for spec in registry.all_games()]
    classes = {"JapanMatch", "ConquestCards", "CodexMatch", "JapaneseRisk", "JapanConquestApp",
               "CardsBoard", "CodexBoard", "RiskBoard"}
    for spec in registry.all_games():
        classes.add(_app_class_name(spec.id))
        for path in (spec.engine, spec.widget):
            name = (path or "").partition(":")[2]
            if name and name != "App":  # "App" is every hosted game's generic name
                classes.add(name)
    return ids, sorted(classes), {"Game"}


def _is_bare_string(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _texts(tree: ast.AST, rel: str):
    """Every (kind, text, line) of ``tree`` the check reads: strings, identifiers, imports."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if _is_bare_string(node):  # docstrings, attribute docstrings: documentation
            skip.add(id(node.value))
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any((rel, getattr(t, "id", None)) == SPEC_LIST for t in targets):
            skip.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield "string", node.value, line
        elif isinstance(node, ast.Name):
            yield "identifier", node.id, line
        elif isinstance(node, ast.Attribute):
            yield "identifier", node.attr, line
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield "identifier", node.name, line
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:  # a parameter, a keyword argument
            yield "identifier", node.arg, line
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                yield "identifier", name, line
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                yield "import", node.module, line
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield "import", alias.name, line
        elif isinstance(node, ast.alias):  # the name an import binds
            yield "identifier", node.asname or node.name.rpartition(".")[2], line


def game_mentions(source: str, rel: str) -> list[tuple[str, str, int, str]]:
    """(kind, text, line, what it names) of each string / identifier / import of ``source``
    (the module at ``rel``, relative to the package) that names a game."""
    ids, classes, whole = forbidden()
    out = []
    for kind, text, line in _texts(ast.parse(source), rel):
        lower = text.lower()
        hit = next((g for g in ids if g in lower), None)
        hit = hit or next((c for c in classes if c in text), None)
        if hit is None and kind == "identifier" and text in whole:
            hit = text
        if hit is not None:
            out.append((kind, text if kind != "string" or len(text) < 60 else text[:60] + "…", line, hit))
    return out


def scanned_modules() -> list[Path]:
    return sorted(p for d in SCANNED for p in (PACKAGE / d).rglob("*.py"))


def test_the_check_covers_every_game_and_its_classes() -> None:
    ids, classes, whole = forbidden()
    assert {"japan_conquest", "conquest_cards", "codex", "japanese_risk"} <= set(ids)
    assert {"JapanMatch", "ConquestCards", "CodexMatch", "JapaneseRisk", "JapanConquestApp", "CodexApp"} <= set(classes)
    assert whole == {"Game"} and len(scanned_modules()) > 15


def test_core_ui_and_maps_name_no_game() -> None:
    found: Counter[tuple[str, str, str]] = Counter()
    where: dict[tuple[str, str, str], list[str]] = {}
    for path in scanned_modules():
        rel = path.relative_to(PACKAGE).as_posix()
        for kind, text, line, hit in game_mentions(path.read_text(encoding="utf-8"), rel):
            # a string is keyed by the game it names (the rest of an f-string part may change)
            key = (rel, kind, hit if kind == "string" else text)
            found[key] += 1
            where.setdefault(key, []).append(f"{rel}:{line}: {kind} {text!r} names {hit}")
    new = [w for key in found if key not in ALLOWED for w in where[key]]
    assert not new, ("the shell names a game; the game's folder should give it through its spec or "
                     "GameUI (issue 29):\n" + "\n".join(new))
    changed = {key: (found[key], n) for key, (n, _) in ALLOWED.items() if found[key] != n}
    assert not changed, f"exceptions found (times, listed): {changed}; bring ALLOWED up to date"


@pytest.mark.parametrize("plant", [
    'X = "codex"',
    "from conquest_widget.games.conquest_cards import engine",
    "def f(japanese_risk_map): return 1",
    "x = obj.JapanMatch",
    "y = f'{a}JapaneseRiskApp'",
    "isinstance(a, Game)",
])
def test_a_planted_game_is_found(plant: str) -> None:
    assert game_mentions(plant, "ui/app.py")


@pytest.mark.parametrize("clean", [
    '"""The codex, japan_conquest and JapanMatch of a docstring."""',
    'def f():\n    """codex"""\n    return 1  # codex in a comment',
    'X = "Game over. Winner: {names}"',
    "class GameSpec: pass",
    'SPEC_MODULES = ("conquest_widget.games.codex.spec",)',
])
def test_documentation_and_the_spec_list_are_not_game_names(clean: str) -> None:
    rel = "core/registry.py" if "SPEC_MODULES" in clean else "ui/app.py"
    assert game_mentions(clean, rel) == []


def test_each_exception_says_why() -> None:
    for key, (n, why) in ALLOWED.items():
        assert n >= 1 and "issue 29" in why and "goes" in why, key
