"""``python -m baccara``: the command line."""

import sys

from baccara.cli import main

sys.exit(main())
