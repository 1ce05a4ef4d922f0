"""The Codex of Conquest (seed 003): grid conquest and a stock market for 2-6 players.

- ``engine.CodexMatch``: the rules on the shared match protocol (actions ``Pick``, ``Buy``,
  ``Sell``, ``Roll``, ``Place``, ``EndTurn``, ``ForcedSell``; the test editor; ``preview``);
- ``board``: the 2k x 3k grid of six territories and the faction groups (union-find);
- ``market``: prices and the cash effects of a placement; ``rules``: every number;
- ``bots``: Easy, Normal and Hard CPUs; ``text``: English and Japanese strings.

    >>> from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
    >>> m = CodexMatch(CodexSetup.quick(3), seed=2)
    >>> m.to_act(), len(m.view(None)["board"])
    ((0,), 96)

Rules as implemented, with their tests: docs/rules_codex.md; CPUs: docs/ai_codex.md.
"""
