"""Run ``app.py`` as shipped with some of its page sections replaced by nothing: the variants
the page benchmark measures the shipped page against (``no_teaching_app.py``,
``required_only_app.py``).

A variant script calls :func:`run_without` with the sections to leave out, each named as
``"module:function"`` (for example ``"ui.widgets.teaching:teaching_sections"``). Nothing in
the app is edited: each named function is replaced, in its module, by a function that draws
nothing and computes nothing, and then ``app.py``'s own code runs. The calculator page looks
its sections up in their modules at every run (``decision.decision_section(...)``, or a
``from ... import`` executed with the page), so it finds the stand-ins; every other element
of every page is the shipped one.

Run a variant from the repository root, so that the project's ``.streamlit/config.toml``
applies as it does to ``app.py``. The page files that ``app.py`` names relative to itself are
found from the repository root (Streamlit resolves a page's path against the folder of the
script it was started with, here ``benchmarks/``).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def draws_nothing(*args: object, **kwargs: object) -> None:
    """Stands in for a left-out section: draws nothing and computes nothing."""


def patch_streamlit(left_out: tuple[str, ...]) -> None:
    """Make ``st.Page`` take a relative path from the repository root, as ``app.py`` means it,
    and ``st.navigation`` put the stand-ins in place before the page runs.

    The stand-ins are put in place by ``st.navigation``, not here: ``app.py`` freezes the
    objects that exist before it (``gc.freeze()``, which spares them Streamlit's collection
    after every run), and some of the page's modules are imported after it. Imported here,
    they and what they import would be frozen in the variant only, and each of its reruns
    would cost some 30 ms of CPU less than the shipped page's for that reason alone.

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

    def navigation_without(*args: object, **kwargs: object) -> object:
        for name in left_out:
            module_name, function = name.split(":")
            module = importlib.import_module(module_name)  # after app.py's gc.freeze
            if not hasattr(module, function):
                raise AttributeError(f"{name}: no such section to leave out")
            setattr(module, function, draws_nothing)
        return shipped_navigation(*args, **kwargs)

    rooted_page.from_root = True
    st.Page = rooted_page
    st.navigation = navigation_without


def run_without(left_out: Iterable[str]) -> None:
    """Run ``app.py``'s own code, in a namespace of its own (as Streamlit runs a main script),
    with the sections in `left_out` drawing nothing."""
    patch_streamlit(tuple(left_out))
    namespace = {"__name__": "__main__", "__file__": str(APP)}
    exec(compile(APP.read_text(), str(APP), "exec"), namespace)  # noqa: S102
