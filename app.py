"""McNemar calculator: the Streamlit entry point (``streamlit run app.py``).

Page config, then navigation. Each page is one module in ``app_pages/``; add a page by adding
one line to ``PAGES``.
"""

import gc

import streamlit as st

import calculator  # noqa: F401  (numpy and scipy: loaded before the objects are frozen)
import ui.calculator_charts  # noqa: F401  (altair and pandas, likewise)

# The default page's own modules, likewise: imported by the page's first run instead, after the
# freeze, their objects were walked by the collection after every rerun (about 30 ms of 90 ms of
# server CPU per rerun, measured with benchmarks/sections_check.py).
import ui.widgets.calculator_inputs  # noqa: F401, E402
import ui.widgets.calculator_results  # noqa: F401, E402
import ui.widgets.decision  # noqa: F401, E402
import ui.widgets.odds_ratio  # noqa: F401, E402
import ui.widgets.teaching  # noqa: F401, E402


@st.cache_resource(show_spinner=False)
def freeze_startup_objects() -> bool:
    """Exempt the imported modules' objects from garbage collection, once per process.

    Streamlit runs a full collection after every rerun (``runner.postScriptGC``); with scipy,
    pandas and altair loaded, walking their ~170,000 objects costs 150-250 ms here, most of a
    rerun. Frozen, they are skipped, and the collection still frees each run's own garbage.
    """
    gc.freeze()
    return True


freeze_startup_objects()

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

st.navigation(PAGES).run()
