"""Streamlit custom components (v2: drawn in the page itself, no iframe) of the app's own."""
