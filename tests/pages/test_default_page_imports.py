"""The calculator page imports only what its default view uses (issue 37: a server's cold start
is its imports and the page's first run). ``scipy.stats`` and ``scipy.optimize`` cost about
0.4 s beyond ``scipy.special``; the core imports them through ``calculator._lazy_scipy``, so
that the default page, which calls neither, does not pay for them.

Run in a fresh interpreter: this one has imported them already.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from streamlit.testing.v1 import AppTest

at = AppTest.from_file("app.py", default_timeout=120)
at.run()
assert not at.exception, [e.value for e in at.exception]
assert at.get("bidi_component"), "the calculator page did not draw its live panel"
print(sorted(name for name in ("scipy.stats", "scipy.optimize", "statsmodels")
             if name in sys.modules))
"""


def test_the_default_calculator_page_imports_neither_scipy_stats_nor_optimize() -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "[]", run.stdout


def test_the_lazy_stand_in_is_the_module_once_used() -> None:
    from scipy import stats as real

    from calculator._lazy_scipy import stats

    assert stats.binom is real.binom
    assert float(stats.binom.pmf(2, 4, 0.5)) == 0.375  # C(4, 2) / 16
