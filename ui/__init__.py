"""Pure-Python helpers of the Streamlit pages: URL parameters, words, charts, state."""
