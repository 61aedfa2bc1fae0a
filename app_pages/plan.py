"""Plan: how many paired cases a comparison needs, and why stopping at p < alpha misleads.

Each section is a function in :mod:`ui.widgets.plan_sections`, called below in reading order.
"""

import streamlit as st

from ui import plan_words as words
from ui.widgets import plan_sections as sections

#: Disagreement the peeking simulation uses while the plan cannot be computed.
FALLBACK_DISAGREEMENT = 0.2

st.title(words.TITLE)
st.write(words.INTRO)
chosen = sections.question()
margin = sections.margin_input() if chosen == words.NOT_WORSE else None
effect = sections.effect_inputs(chosen)
settings = sections.plan_settings(chosen)
if margin is None:
    result = sections.plan_result(effect, settings)
    disagreement = None if result is None else result.disagreement
else:
    result = sections.noninferiority_result(effect, margin, settings)
    disagreement = None if result is None else result.p10 + result.p01
sections.peeking(
    FALLBACK_DISAGREEMENT if disagreement is None else disagreement,
    alpha=settings["alpha"],
    test=settings["test"],
    planned=result if margin is None else None,  # the price: for a plan for a difference
)
