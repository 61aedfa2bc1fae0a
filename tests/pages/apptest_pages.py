"""Opening one page of the app under Streamlit's AppTest, shared by the page tests."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60  # seconds per run: a first run imports scipy, pandas and altair


def open_page(page: str) -> AppTest:
    """Run the app, switch to `page` (a path such as "app_pages/plan.py") and check it ran."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    return at
