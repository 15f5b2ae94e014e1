"""`python -m pokerlab ...`: the `pokerlab` command without its installed script (e.g. with only
``PYTHONPATH=src``)."""

import sys

from pokerlab.interfaces.cli import main

sys.exit(main())
