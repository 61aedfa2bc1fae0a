"""The Streamlit pages' helpers.

Pure Python at this level (no Streamlit import; tested directly): words (``*words.py``), URL
parameters (``params.py``), chart builders (``*_charts.py``), tables and exports. Anything bound
to Streamlit (session state, caching, page sections) is in :mod:`ui.widgets`.
"""
