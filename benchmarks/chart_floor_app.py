"""The chart floor: one slider, one metric and one Vega-Lite chart (61 points, three lines, a rule).

A page that must draw a chart can never be as cheap as one line of text, so the calculator is
measured against this app as well as against the text floor (`floor_app.py`). The benchmarks run
it from an empty temporary folder, so Streamlit's default settings apply, not this project's.
"""

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

POINTS = 61

value = st.slider("Value", min_value=0, max_value=100, value=15, key="value")
st.metric("Value", value)
x = np.linspace(0.0, 1.0, POINTS)
lines = pd.DataFrame(
    {
        "x": np.tile(x, 3),
        "y": np.concatenate([x * value / 100, x**2, np.sqrt(x)]),
        "line": np.repeat(["scaled", "square", "root"], POINTS),
    }
)
chart = alt.Chart(lines).mark_line().encode(x="x", y="y", color="line", strokeDash="line")
rule = alt.Chart(pd.DataFrame({"x": [value / 100]})).mark_rule().encode(x="x")
st.altair_chart(chart + rule)
