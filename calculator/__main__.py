"""``python -m calculator``: see :mod:`calculator.cli`."""

import sys

from calculator.cli import main

sys.exit(main())
