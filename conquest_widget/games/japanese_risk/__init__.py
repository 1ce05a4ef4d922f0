"""japanese_risk: see spec.py and the issue for this game."""
