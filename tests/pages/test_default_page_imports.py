"""The calculator page imports only what its default view draws (issue 37: a server's cold
start is its imports and the page's first run).

- ``scipy.stats`` and ``scipy.optimize`` cost about 0.4 s beyond ``scipy.special``; the core
  imports them through ``calculator._lazy_scipy``, and the default page calls neither.
- The plans and the scores' comparisons (worded by ``calculator.report.words`` only once such a
  result asks), the many-systems comparisons, the teaching sections' bodies and the k x k
  section's body (both behind closed toggles) are imported when first used.
- pandas (a quarter of a second): the page's charts send their tables as columns turned into
  rows, its downloads import it when asked for, and the live panel's elements send their data
  in a list, which Streamlit does not scan for data frames (a dict it does, importing pandas).
- The collector is off while ``app.py`` imports what the page draws, then on again, with those
  modules' objects frozen.

Run in a fresh interpreter: this one has imported them already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Modules (and their submodules) the default page draws nothing with.
NOT_DRAWN = (
    "pandas",  # the charts' tables go as rows; the panel's data is no dict Streamlit scans
    "scipy.stats",
    "scipy.optimize",
    "statsmodels",
    "calculator.planning",
    "calculator.scores",
    "calculator.compare",
    "calculator.teaching",
    "ui.teaching_charts",
    "ui.widgets.teaching_bodies",
    "ui.widgets.square_grid",
)

SCRIPT = """
import gc
import json
import sys
from streamlit.testing.v1 import AppTest

NOT_DRAWN = NOT_DRAWN_HERE


class CollectorWatch:
    # Records whether the collector is on when the first startup modules are looked for.

    seen = {}

    def find_spec(self, name, path=None, target=None):
        if name in ("calculator", "ui.calculator_charts"):
            CollectorWatch.seen[name] = gc.isenabled()
        return None


sys.meta_path.insert(0, CollectorWatch())


def loaded():
    return sorted(
        name for name in sys.modules
        if any(name == prefix or name.startswith(prefix + ".") for prefix in NOT_DRAWN)
    )


at = AppTest.from_file("app.py", default_timeout=120)
at.run()
assert not at.exception, [e.value for e in at.exception]
assert at.get("bidi_component"), "the calculator page did not draw its live panel"
default = loaded()
state = {
    "gc_enabled": gc.isenabled(),
    "frozen": gc.get_freeze_count(),
    "gc_during_imports": CollectorWatch.seen,
}
# Opening the folded sections imports their bodies: the names above are the modules used.
for key in ("t_null", "t_oc", "t_pair", "t_quiz", "sq"):
    at.toggle(key=key).set_value(True)
at.run()
assert not at.exception, [e.value for e in at.exception]
state["frozen_after_opening"] = gc.get_freeze_count()
print(json.dumps({"default": default, "opened": loaded(), **state}))
""".replace("NOT_DRAWN_HERE", repr(NOT_DRAWN))


def test_the_default_calculator_page_imports_only_what_it_draws() -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["default"] == [], found
    # The positive control: the open sections load what their bodies draw with.
    for name in ("calculator.teaching", "ui.teaching_charts", "ui.widgets.teaching_bodies"):
        assert name in found["opened"], found
    assert "ui.widgets.square_grid" in found["opened"], found
    # The collector was off while app.py imported, is back on after, and their objects are frozen.
    assert found["gc_during_imports"] == {"calculator": False, "ui.calculator_charts": False}
    assert found["gc_enabled"] is True
    assert found["frozen"] > 100_000, found
    # What the opened sections imported (pandas with the teaching charts) is frozen after the
    # run that imported it (app.freeze_late_imports).
    assert "pandas" in found["opened"], found
    assert found["frozen_after_opening"] > found["frozen"] + 10_000, found


def test_the_lazy_stand_in_is_the_module_once_used() -> None:
    from scipy import stats as real

    from calculator._lazy_scipy import stats

    assert stats.binom is real.binom
    assert float(stats.binom.pmf(2, 4, 0.5)) == 0.375  # C(4, 2) / 16


def test_words_found_late_are_found_on_first_use() -> None:
    # In a fresh interpreter: each plan or comparison finds its words the first time it asks.
    script = (
        "import json\n"
        "from calculator.report.words import payload, text\n"
        "from calculator.planning import noninferiority_plan, plan\n"
        "from calculator.scores import compare_scores\n"
        "power = plan(p10=0.1, p01=0.05)\n"
        "ni = noninferiority_plan(p10=0.05, p01=0.05, margin=0.05)\n"
        "scores = compare_scores([0.9, 0.8, 0.75, 1.0], [0.7, 0.8, 0.5, 0.9], margin=0.1)\n"
        "print(json.dumps([bool(text(power)), bool(text(ni)), bool(text(scores.margin)),\n"
        "                  'report' in payload(scores), 'sentence' in payload(scores.margin)]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == [True] * 5


def test_each_late_entry_names_a_type_and_its_words() -> None:
    # The tables name types and functions by text: each must name what exists.
    import importlib

    from calculator.report import words

    for table in (words._TEXT_LATER, words._PAYLOAD_LATER):
        for (module, name), (words_module, function) in table.items():
            kind = getattr(importlib.import_module(module), name)
            assert (kind.__module__, kind.__qualname__) == (module, name)
            assert callable(getattr(importlib.import_module(words_module), function))
