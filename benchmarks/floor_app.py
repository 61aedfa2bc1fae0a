"""The framework's floor: one slider and one line of text, nothing else.

`benchmarks/bench_page.py` runs it beside the calculator, from a temporary directory so that
Streamlit's default configuration applies (not this project's .streamlit/config.toml), and
reports each figure of the calculator as a multiple of this app's.
"""

import streamlit as st

value = st.slider("Value", min_value=0, max_value=100, value=15, key="value")
st.write(f"The slider is at {value}.")
