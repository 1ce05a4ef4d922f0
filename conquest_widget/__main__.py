"""``python -m conquest_widget ...`` runs the ``conquest-widget`` command."""

import sys

from conquest_widget.cli import main

sys.exit(main())
