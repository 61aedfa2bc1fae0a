"""``python -m calculator``: the command line of :mod:`calculator.cli`."""

import sys

from calculator.cli import main

sys.exit(main())
