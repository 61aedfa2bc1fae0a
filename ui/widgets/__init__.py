"""Streamlit-bound parts of the pages: session state, caching, and the page sections that render.

Everything pure (words, URL parameters, chart builders, tables, exports) is one level up, in
``ui/``, and never imports Streamlit.
"""
