"""The calculator page's live panel (issue 37): one custom component fed one payload.

- Every figure and sentence in the payload is the core's and :mod:`ui.words`' (the cards are
  ``result_cards`` over ``calculator.analyze``; the chart's rows are ``pvalue_datasets`` over
  ``pvalue_sweep_frame``), for any table: the browser draws them as they are.
- The payload is JSON a browser can read: no NaN or infinity anywhere (JSON has neither).
- The component's JavaScript is built from the sources in the repository with locked
  packages, the built bundle is there and served by the app (static serving on), and its first
  line carries the digest of the sources it was built from (``frontend/build.mjs``): a source
  changed without a new build fails here, on a machine without Node too.

Reference values: the default table (60, 15, 5, 20) prints +10.0 pts, 5.00, 0.041 and 0.123,
the original calculator page's figures (as in test_app_calculator.py).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import tomllib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from calculator import analyze
from ui import words
from ui.calculator_charts import pvalue_datasets, pvalue_sweep_frame
from ui.components.live_panel import BUNDLE
from ui.live_panel import chart_layout, chart_rows, panel_payload
from ui.words import Wording

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "ui" / "components" / "live_panel" / "frontend"
counts = st.integers(min_value=0, max_value=400)


def _no_nan(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_no_nan(item) for item in value.values())
    if isinstance(value, list):
        return all(_no_nan(item) for item in value)
    return True


def test_default_table_payload_prints_the_original_page_figures() -> None:
    analysis = analyze(60, 15, 5, 20)
    payload = panel_payload(Wording(), (60, 15, 5, 20), analysis, None)
    assert [card["value"] for card in payload["cards"]] == ["+10.0 pts", "5.00", "0.041", "0.123"]
    marked = [
        cell["text"] for row in payload["table"]["cells"] for cell in row if cell["discordant"]
    ]
    assert marked == ["b = 15", "c = 5"]
    assert payload["table"]["label"] == "Paired 2 by 2 table"


@given(a=counts, b=counts, c=counts, d=counts, log_axis=st.booleans(), mid_p=st.booleans())
def test_payload_figures_are_the_cores_for_any_table(a, b, c, d, log_axis, mid_p) -> None:
    if a + b + c + d == 0:
        return
    convention = "mid-p" if mid_p else "doubling"
    wording = Wording(name_a="<b>New</b>", name_b="Old *", framing="pass")
    analysis = analyze(a, b, c, d, convention=convention)
    rows = chart_rows(
        a, b, c, d, convention=convention, correction=False, alpha=0.05, log_axis=log_axis
    )
    layout = chart_layout(
        alpha=0.05, log_axis=log_axis, x_title="x", title="t", convention=convention, large=False
    )
    payload = panel_payload(wording, (a, b, c, d), analysis, {**layout, "datasets": rows})
    cards = words.result_cards(wording, analysis, markdown=False)
    assert payload["cards"] == [
        {"key": x.key, "label": x.label, "value": x.value, "caption": x.caption} for x in cards
    ]
    # Names as given (the browser sets them as text), never escaped or dropped.
    assert payload["cards"][0]["label"].endswith("<b>New</b> − Old *")
    frame = pvalue_sweep_frame(a, b, c, d, convention=convention)
    expected = pvalue_datasets(frame, current_a=a, alpha=0.05, log_axis=log_axis)
    assert set(rows) == set(expected)
    for name, table in expected.items():
        assert len(rows[name]) == len(table)
        assert [row[table.columns[0]] for row in rows[name]] == table.iloc[:, 0].tolist()
    assert rows["current_a"] == [{"a": a, "label": f"current a = {a:,}"}]
    text = json.dumps(payload, allow_nan=False)  # raises on NaN or infinity
    assert _no_nan(json.loads(text))


def test_payload_without_an_analysis_shows_the_table_alone() -> None:
    payload = panel_payload(Wording(), (0, 0, 0, 0), None, None)
    assert payload["cards"] == [] and payload["chart"] is None and payload["summary"] is None
    assert payload["table"]["cells"][0][1] == {"text": "b = 0", "discordant": True}


def test_bundle_is_built_from_locked_sources_and_served_by_the_app() -> None:
    package = json.loads((FRONTEND / "package.json").read_text())
    lock = json.loads((FRONTEND / "package-lock.json").read_text())
    for name, version in {**package["dependencies"], **package["devDependencies"]}.items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version  # exact, locked
    assert package["scripts"]["build"] == "node build.mjs"
    build_script = (FRONTEND / "build.mjs").read_text(encoding="utf-8")
    assert BUNDLE.as_posix() in build_script.replace("../", "")
    bundle = ROOT / BUNDLE
    assert bundle.stat().st_size > 100_000  # vega, vega-lite and vega-embed, minified
    assert "render" in bundle.read_text(encoding="utf-8")[-2000:]  # the export the loader calls
    loader = (ROOT / "ui" / "components" / "live_panel" / "loader.js").read_text()
    assert f"app/{BUNDLE.as_posix()}" in loader
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["enableStaticServing"] is True
    # No element is sent as a reference to the browser's cache of messages (a reference the
    # browser could no longer resolve cost the page its connection: test_live_counts.py).
    assert config["global"]["minCachedMessageSize"] > config["server"]["maxMessageSize"] * 1e6


def sources_digest() -> str:
    """The digest build.mjs stamps on the bundle: SHA-256 over each source's path and bytes
    (build.mjs, the package files, then every file under src/), the paths with "/" between
    folders and those under src/ sorted."""
    sources = sorted(
        path.relative_to(FRONTEND).as_posix()
        for path in (FRONTEND / "src").rglob("*")
        if path.is_file()
    )
    digest = hashlib.sha256()
    for name in ["build.mjs", "package-lock.json", "package.json", *sources]:
        digest.update(f"{name}\n".encode())
        digest.update((FRONTEND / name).read_bytes())
        digest.update(b"\n")
    return digest.hexdigest()


def test_the_bundle_is_built_from_the_sources_as_they_are() -> None:
    first_line = (ROOT / BUNDLE).read_text(encoding="utf-8").split("\n", 1)[0]
    stamp = re.fullmatch(r"/\* mcnemar live panel; sources sha256 ([0-9a-f]{64}) \*/", first_line)
    assert stamp is not None, first_line[:200]
    assert stamp.group(1) == sources_digest(), (
        "the bundle was not rebuilt after a change of its sources: run `npm ci && npm run build`"
        " in ui/components/live_panel/frontend and commit static/live_panel/"
    )
