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
effect = sections.effect_inputs()
settings = sections.plan_settings()
result = sections.plan_result(effect, settings)
sections.peeking(
    FALLBACK_DISAGREEMENT if result is None else result.disagreement,
    alpha=settings["alpha"],
    test=settings["test"],
)
