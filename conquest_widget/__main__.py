"""``python -m conquest_widget ...`` runs the ``conquest-widget`` command."""

import sys

from .cli import main

sys.exit(main())
