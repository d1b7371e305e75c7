"""``python -m drawdsl`` runs the ``drawdsl`` command."""

import sys

from drawdsl.cli import main

if __name__ == "__main__":
    sys.exit(main())
