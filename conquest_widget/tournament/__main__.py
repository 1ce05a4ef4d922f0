"""``python -m conquest_widget.tournament ...``: the ``tournament`` command on its own."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
