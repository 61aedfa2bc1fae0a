"""The statistician's review of every sentence, read from the page (AppTest): the same words as
the command line (tests/cli/test_review_sentences_cli.py) and the JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from calculator.cli import main

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def page_text(at: AppTest) -> str:
    parts = [unescape(m.value) for m in at.markdown] + [unescape(c.value) for c in at.caption]
    return "\n".join(parts)


def test_exact_compatible_is_lower_case_in_the_page_sentences():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"ci": "exact-compatible", "question": "better"})
    at.run()
    assert not at.exception
    text = page_text(at)
    assert "exact-compatible (Fay-Lumbard) interval" in text
    assert "Exact-compatible (Fay-Lumbard) interval" not in text
    assert "(Fay-Lumbard))" not in text


def documents_csv(*, per: int = 10, lead: int = 8) -> bytes:
    """40 documents: in 20 only A passes `lead` cases, in 20 only B does (plus 30 extra wins
    for A spread over the documents): the plain posterior is sure, the clusters are not."""
    rows, k = ["id,doc,old,new"], 0
    for doc in range(40):
        for j in range(per):
            old, new = ((1, 0) if doc < 20 else (0, 1)) if j < lead else (1, 1)
            rows.append(f"c{k},d{doc},{old},{new}")
            k += 1
    rows += [f"x{j},d{j % 40},1,0" for j in range(30)]
    return ("\n".join(rows) + "\n").encode()


def test_p_b_better_is_left_out_with_clusters_on_page_cli_and_json(tmp_path, capsys):
    from apptest_pages import open_page

    from ui.widgets import cases_files as files

    at = open_page("app_pages/cases.py")
    uploader = at.file_uploader(key=files.UPLOAD_KEYS[0])
    uploader.set_value(("docs.csv", documents_csv(), "text/plain")).run()
    group = next(w for w in at.selectbox if w.key and w.key.split("__")[0] == "cases_group")
    group.set_value("doc").run()
    assert not at.exception
    metric = next(m for m in at.metric if unescape(m.label).startswith("P(new better"))
    assert metric.value == "not shown"
    assert "Not shown with clusters: the posterior treats every case as independent" in (
        page_text(at)
    )
    # Nor the caption contrasting the p-value with a posterior the page does not show.
    assert "They answer different questions" not in page_text(at)
    path = tmp_path / "docs.csv"
    path.write_bytes(documents_csv())
    argv = ["cases", str(path), "--a", "old", "--b", "new", "--group", "doc"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "P(new better)       not shown with clusters" in out
    assert main([*argv, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["probability_B_better"] is None and payload["posterior"] is None
