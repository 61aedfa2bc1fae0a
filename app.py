"""McNemar calculator: the Streamlit entry point (``streamlit run app.py``).

Page config, then navigation. Each page is one module in ``app_pages/``; add a page by adding
one line to ``PAGES``.
"""

import gc
import importlib
import sys

import streamlit as st

#: What the default page draws with: numpy and scipy (the core), Altair (the charts' layouts),
#: and the page's own modules (not pandas, which its default view does not need). Imported once,
#: before the freeze below; imported by the page's first run instead, after it, their objects
#: were walked by the collection after every rerun (about 30 ms of 90 ms of server CPU per
#: rerun, measured with benchmarks/sections_check.py).
STARTUP_MODULES = (
    "calculator",
    "ui.calculator_charts",
    "ui.widgets.calculator_inputs",
    "ui.widgets.calculator_results",
    "ui.widgets.anytime",
    "ui.widgets.decision",
    "ui.widgets.odds_ratio",
    "ui.widgets.square",
    "ui.widgets.teaching",
)


@st.cache_resource(show_spinner=False)
def load_and_freeze() -> bool:
    """Import :data:`STARTUP_MODULES` and exempt every object then alive from garbage
    collection, once per process.

    Streamlit runs a full collection after every rerun (``runner.postScriptGC``); with scipy,
    pandas and altair loaded, walking their objects cost 150-250 ms here, most of a rerun.
    Frozen, they are skipped, and the collection still frees each run's own garbage.
    The collector is off while they load: each full collection during the imports walked every
    object loaded so far, 40 to 160 ms of a server's first run in all (issue 37's cold start).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for name in STARTUP_MODULES:
            importlib.import_module(name)
    finally:
        if was_enabled:
            gc.enable()
    gc.freeze()
    return True


load_and_freeze()


@st.cache_resource(show_spinner=False)
def _modules_at_last_freeze() -> list[int]:
    """How many modules were loaded when the collector's objects were last frozen (one number,
    kept for the process)."""
    return [len(sys.modules)]


def freeze_late_imports() -> None:
    """After a run that imported modules (pandas with a first report or teaching section,
    another page's), freeze their objects too, as :func:`load_and_freeze` froze the startup
    modules': else every later rerun's collection walks them (pandas and pyarrow, about 33,000
    objects, 3.5 ms a run). What is alive at that moment is frozen with them: a few runs' worth
    of objects, once per new batch of modules, that a cycle can no longer free."""
    frozen = _modules_at_last_freeze()
    if len(sys.modules) > frozen[0]:
        gc.freeze()
        frozen[0] = len(sys.modules)


# An emoji icon: the browser draws it from a data: URL. A ":material/..." page icon made every
# visitor's browser fetch it from an outside host (a classroom without internet logged an
# error, and each visit was announced to a third party); the page needs nothing from outside.
st.set_page_config(page_title="McNemar calculator", page_icon="⚖️", layout="wide")

PAGES = [
    st.Page(
        "app_pages/calculator.py", title="Calculator", icon=":material/calculate:", default=True
    ),
    st.Page("app_pages/cases.py", title="Per-case data", icon=":material/table_view:"),
    st.Page("app_pages/plan.py", title="Plan", icon=":material/straighten:"),
]

try:
    st.navigation(PAGES).run()
finally:
    freeze_late_imports()  # also when the run ends in a rerun or a stop
