"""The app as shipped, less the calculator page's teaching sections: the variant that
`bench_page.py` measures against the shipped page (issue 13: folded sections cost nothing).

    streamlit run benchmarks/no_teaching_app.py   # from the repository root

Run from the repository root, so that the project's ``.streamlit/config.toml`` applies as it
does to ``app.py``. Nothing in the app is edited: this script replaces
``ui.widgets.teaching.teaching_sections`` (the heading and the four section toggles, with
whatever is open below them) with a function that draws nothing, and runs ``app.py``'s own
code (see :func:`patch_streamlit` for when the stand-in is put in place, and why then). Every
other element of every page is the shipped one. The page files that ``app.py``
names relative to itself are found from the repository root (Streamlit resolves a page's path
against the folder of the script it was started with, here ``benchmarks/``).
"""

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def no_teaching_sections(*args: object, **kwargs: object) -> None:
    """Stands in for ``teaching_sections``: draws nothing and computes nothing."""


def patch_streamlit() -> None:
    """Make ``st.Page`` take a relative path from the repository root, as ``app.py`` means it,
    and ``st.navigation`` put the stand-in in place before the page runs.

    The stand-in is put in place by ``st.navigation``, not here: ``app.py`` freezes the
    objects that exist before it (``gc.freeze()``, which spares them Streamlit's collection
    after every run), and the page's own modules are imported after it. Imported here, the
    teaching module and what it imports would be frozen in the variant only, and each of its
    reruns would cost some 30 ms of CPU less than the shipped page's for that reason alone.

    Done once per process and never undone: sessions run this script in parallel threads, so
    a patch undone by one run could be missing from another's.
    """
    if getattr(st.Page, "from_root", False):
        return
    shipped_page, shipped_navigation = st.Page, st.navigation

    def rooted_page(page: object, *args: object, **kwargs: object) -> object:
        if isinstance(page, str | Path) and not Path(page).is_absolute():
            page = ROOT / page
        return shipped_page(page, *args, **kwargs)

    def navigation_without_teaching(*args: object, **kwargs: object) -> object:
        from ui.widgets import teaching  # noqa: PLC0415  (after app.py's gc.freeze)

        teaching.teaching_sections = no_teaching_sections
        return shipped_navigation(*args, **kwargs)

    rooted_page.from_root = True
    st.Page = rooted_page
    st.navigation = navigation_without_teaching


patch_streamlit()
# app.py's own code, in a namespace of its own (as Streamlit runs a main script).
namespace = {"__name__": "__main__", "__file__": str(APP)}
exec(compile(APP.read_text(), str(APP), "exec"), namespace)  # noqa: S102
