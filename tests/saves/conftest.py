"""Save-hardening tests (issue 17) share the game builders of tests/test_saves.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
