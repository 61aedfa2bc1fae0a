"""The app as shipped, less the calculator page's teaching sections: the variant that
`bench_page.py` measures against the shipped page (issue 13: folded sections cost nothing).

    streamlit run benchmarks/no_teaching_app.py   # from the repository root

``ui.widgets.teaching.teaching_sections`` (the heading and the four section toggles, with
whatever is open below them) draws nothing; every other element of every page is the shipped
one (see ``app_variant.py`` for how, and for why the stand-in is put in place when it is).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from app_variant import run_without  # noqa: E402

run_without(["ui.widgets.teaching:teaching_sections"])
