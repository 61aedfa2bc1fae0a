"""``cases --flips N``, ``--flips-csv``, ``--text COL`` and ``--format markdown`` on per-case
files and logs: what each prints, the options refused by name where they do not apply, and the
Markdown report parsed with markdown-it-py (CommonMark with GitHub's tables): its table, its
collapsed block, and hostile texts from a file rendered as text, never as a link, an image or
HTML."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from calculator.cli import main

HOSTILE = [
    "[x](http://evil)",
    "![i](http://e/p.png)",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "```\n</details>\n<a href='http://evil'>x</a>",
    '=HYPERLINK("http://evil","x")',
    "www.evil.com and https://evil.example/x",
]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cases", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def two_files(tmp_path):
    """A's and B's per-case files: cases h0..h6 with hostile prompts and outputs; h0-h3 only A
    passes for even ids, only B for odd ones, the rest both pass."""
    rows_a, rows_b = ["id,ok,prompt,out"], ["id,ok,prompt,out"]

    def cell(text: str) -> str:
        return '"' + text.replace('"', '""') + '"'

    for k, text in enumerate(HOSTILE):
        a_ok, b_ok = (1, 0) if k % 2 == 0 else (0, 1)
        if k >= 4:
            a_ok = b_ok = 1
        rows_a.append(f"h{k},{a_ok},{cell(text)},{cell('A says ' + text)}")
        rows_b.append(f"h{k},{b_ok},{cell(text)},{cell('B says ' + text)}")
    for k in range(40):  # agreeing cases, so that the test has a table to work on
        rows_a.append(f"c{k},{k % 2},plain,a")
        rows_b.append(f"c{k},{k % 2},plain,b")
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("\n".join(rows_a) + "\n")
    b.write_text("\n".join(rows_b) + "\n")
    return a, b


COLUMNS = ("--id", "id", "--a", "ok", "--b", "ok", "--text", "prompt", "--text", "out")


def test_text_lists_the_first_n_of_each_direction_with_texts_escaped(capsys, two_files):
    status, out, err = run(capsys, *two_files, *COLUMNS, "--flips", "1")
    assert status == 0, err
    churn = (
        "churn     regressions (only A, the baseline, passes): 2; "
        "improvements (only B, the new system, passes): 2"
    )
    assert churn in out
    assert "regressions (only A, the baseline, passes): 1 shown of 2" in out
    assert "  h0: A pass, B fail" in out and "A [out]: A says [x](http://evil)" in out
    assert "  h1: A fail, B pass" in out and "h2:" not in out
    assert "\x1b" not in out


def test_json_and_csv_carry_every_flip_with_full_texts(capsys, two_files, tmp_path):
    path = tmp_path / "flips.csv"
    status, out, err = run(
        capsys, *two_files, *COLUMNS, "--flips", "1", "--json", "--flips-csv", path
    )
    assert status == 0, err
    flips = json.loads(out)["flips"]
    assert [(f["id"], f["direction"], f["A"], f["B"]) for f in flips["flips"]] == [
        ("h0", "regression", 1, 0),
        ("h2", "regression", 1, 0),
        ("h1", "improvement", 0, 1),
        ("h3", "improvement", 0, 1),
    ]
    assert flips["flips"][3]["A_texts"]["outputs"]["out"] == "A says " + HOSTILE[3]
    assert flips["churn"] == [{"task": None, "n": 47, "regressions": 2, "improvements": 2}]
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert [r["id"] for r in rows] == ["h0", "h2", "h1", "h3"]
    assert rows[0]["prompt"] == HOSTILE[0] and rows[2]["B_output"] == "B says " + HOSTILE[1]


def _parse(markdown: str):
    parser = MarkdownIt("commonmark").enable("table")
    return parser.parse(markdown), parser.render(markdown)


def test_markdown_report_renders_its_table_and_a_collapsed_block(capsys, two_files):
    status, out, err = run(capsys, *two_files, *COLUMNS, "--format", "markdown", "--flips", "5")
    assert status == 0, err
    tokens, html = _parse(out)
    kinds = [t.type for t in tokens]
    assert kinds.count("table_open") == 1
    headers = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "th_open"]
    assert headers == ["task", "n", "A pass rate", "B pass rate", "difference A − B", "p"]
    cells = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "td_open"]
    assert cells[:5] == ["all cases", "47", "53.2%", "53.2%", "0.0"]  # 25 of 47 each
    blocks = [t.content for t in tokens if t.type == "html_block"]
    assert blocks[0].startswith(
        "<details>\n<summary>Flips against A, the baseline\\: 2 regressions, 2 improvements"
    )
    assert blocks[-1].strip() == "</details>"
    assert html.count("<details>") == 1 and html.count("</details>") == 1
    # every hostile text shows as text: no link, image, script or tag of the file's
    assert "<a " not in html and "<img" not in html and "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "![i](http://e/p.png)" in html  # in a code block: shown as written
    for token in tokens:
        for child in token.children or []:
            assert child.type not in ("link_open", "image", "html_inline")


def test_markdown_of_a_suite_with_hostile_names(capsys):
    from pathlib import Path

    logs = Path(__file__).parents[1] / "data" / "evallogs" / "generated" / "lm-eval"
    names = "[x](http://evil),<img src=x>"
    status, out, err = run(
        capsys, logs / "toylm-a", logs / "toylm-b", "--names", names, "--format", "markdown"
    )
    assert status == 0, err
    tokens, html = _parse(out)
    headers = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "th_open"]
    assert headers[-1] == "Holm p" and len(headers) == 7
    rows = sum(1 for t in tokens if t.type == "tr_open")
    assert rows == 1 + 4 + 1  # the header, four tasks, the suite
    assert "<img" not in html and "<a " not in html
    assert "<code>[x](http://evil)</code> pass rate" in html  # the name, as text (code)
    assert "<details>" in html and "the first 10 of each" in html


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--json", "--format", "markdown"], "--json and --format markdown ask for two outputs"),
        (["--text", "prompt"], "--text shows texts beside the flips: give it with --flips N"),
        (["--flips", "2", "--text", "nope"], "no text column 'nope'"),
        (
            ["--flips", "2", "--monitor"],
            "--flips lists the flips of a paired comparison; --monitor",
        ),
    ],
)
def test_options_refused_by_name(capsys, two_files, options, said):
    status, out, err = run(capsys, *two_files, "--id", "id", "--a", "ok", "--b", "ok", *options)
    assert status == 2 and out == ""
    assert said in err


def test_categories_refuse_the_flips(capsys, tmp_path):
    labels = tmp_path / "l.csv"
    labels.write_text("id,a,b\n" + "".join(f"q{k},{k % 3},{(k + 1) % 3}\n" for k in range(30)))
    status, _, err = run(capsys, labels, "--a", "a", "--b", "b", "--categories", "--flips", "2")
    assert status == 2 and "--categories compares labels" in err


def _score_file(tmp_path):
    """60 cases of scores on a 0-100 scale with ties among the differences, a hostile prompt
    beside each; returns the path and the rows as written."""
    import random

    draw = random.Random(7)
    rows = []
    for k in range(60):
        x = draw.choice([10, 20, 35, 50, 70, 90])
        y = draw.choice([10, 20, 35, 50, 70, 90])
        rows.append((f"s{k}", x, y, f"{HOSTILE[k % len(HOSTILE)]} {k}"))
    path = tmp_path / "scores.csv"
    body = "".join(f'{i},{x},{y},"{p.replace(chr(34), 2 * chr(34))}"\n' for i, x, y, p in rows)
    path.write_text("id,x,y,prompt\n" + body)
    return path, rows


def _recount(rows):
    """The largest differences each way, recounted without the product: A − B > 0 largest
    first, then B − A > 0 largest first, ties in the file's order (a stable sort)."""
    up = sorted((r for r in rows if r[1] > r[2]), key=lambda r: -(r[1] - r[2]))
    down = sorted((r for r in rows if r[2] > r[1]), key=lambda r: -(r[2] - r[1]))
    return up, down


def test_a_scores_file_lists_the_largest_differences_on_text_json_and_csv(capsys, tmp_path):
    path, rows = _score_file(tmp_path)
    up, down = _recount(rows)
    assert up and down and len(up) + len(down) < len(rows)  # some ties at zero left out
    table = tmp_path / "flips.csv"
    argv = (path, "--a", "x", "--b", "y", "--text", "prompt")
    status, out, err = run(capsys, *argv, "--flips", "2", "--json", "--flips-csv", table)
    assert status == 0, err
    flips = json.loads(out)["flips"]
    assert flips["kind"] == "scores" and flips["churn"][0]["n"] == 60
    assert (flips["regressions"], flips["improvements"]) == (len(up), len(down))
    listed = [(f["id"], f["A"], f["B"], f["prompt"]) for f in flips["flips"]]
    assert listed == [tuple(r) for r in up + down]  # every one, in order, its text beside it
    assert [f["direction"] for f in flips["flips"]] == ["regression"] * len(up) + [
        "improvement"
    ] * len(down)
    written = list(csv.DictReader(io.StringIO(table.read_text())))
    assert [(r["id"], r["A"], r["B"]) for r in written] == [
        (i, str(x), str(y)) for i, x, y, _ in up + down
    ]
    assert written[0]["prompt"].lstrip("'") == up[0][3]  # whole, a formula cell quoted
    status, out, err = run(capsys, *argv, "--flips", "2")
    assert status == 0, err
    heading = "regressions (x, the baseline, scores better: higher is better)"
    assert f"churn     {heading}: {len(up)}; " in out
    assert f"{heading}, the largest differences: 2 shown of {len(up)}" in out
    for i, x, y, _ in up[:2] + down[:2]:
        assert f"  {i}: x {x}, y {y}" in out
    for i, *_ in up[2:] + down[2:]:
        assert f"  {i}: " not in out


def test_logs_refuse_text_columns_and_html_of_scores(capsys):
    from pathlib import Path

    mock = Path(__file__).parents[1] / "data" / "evallogs" / "generated" / "inspect"
    a, b = mock / "mock-a-3epochs.eval", mock / "mock-b-3epochs.eval"
    status, _, err = run(capsys, a, b, "--flips", "2", "--text", "x")
    assert status == 2 and "--text names text columns of a per-case file" in err
    status, _, err = run(capsys, a, b, "--metric", "graded", "--format", "html")
    assert status == 2 and "--format html draws differences in pass rate" in err


def test_log_scores_flips_are_the_largest_differences(capsys):
    from pathlib import Path

    mock = Path(__file__).parents[1] / "data" / "evallogs" / "generated" / "inspect"
    a, b = mock / "mock-a-3epochs.eval", mock / "mock-b-3epochs.eval"
    status, out, err = run(capsys, a, b, "--metric", "graded", "--json", "--flips", "1")
    assert status == 0, err
    flips = json.loads(out)["flips"]
    assert flips["kind"] == "scores"
    for direction, sign in (("regression", 1), ("improvement", -1)):
        gaps = [sign * (f["A"] - f["B"]) for f in flips["flips"] if f["direction"] == direction]
        assert all(g > 0 for g in gaps) and gaps == sorted(gaps, reverse=True)
    assert sum(c["regressions"] + c["improvements"] for c in flips["churn"]) == len(flips["flips"])


def test_html_report_is_self_contained_with_a_chart_and_hostile_names_as_text(capsys):
    from html.parser import HTMLParser
    from pathlib import Path

    logs = Path(__file__).parents[1] / "data" / "evallogs" / "generated" / "lm-eval"
    names = "<script>alert(1)</script>,<img src=x>"
    status, out, err = run(
        capsys, logs / "toylm-a", logs / "toylm-b", "--names", names, "--format", "html"
    )
    assert status == 0, err

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[tuple[str, dict]] = []

        def handle_starttag(self, tag, attrs) -> None:  # noqa: ANN001
            self.tags.append((tag, dict(attrs)))

    parser = Tags()
    parser.feed(out)
    kinds = [tag for tag, _ in parser.tags]
    assert "script" not in kinds and "img" not in kinds and "link" not in kinds
    assert not any("src" in attrs or "href" in attrs for _, attrs in parser.tags)
    assert kinds.count("svg") == 1 and kinds.count("circle") == 4 + 1  # four tasks, the suite
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert kinds.count("details") == 1 and kinds.count("tr") == 1 + 4
    # the only address in the file is the SVG namespace, which is never fetched
    assert out.count("http") == 1 and 'xmlns="http://www.w3.org/2000/svg"' in out


class _Tags:
    """The start tags of an HTML document, with their attributes."""

    def __init__(self, document: str) -> None:
        from html.parser import HTMLParser

        found: list[tuple[str, dict]] = []

        class Parser(HTMLParser):
            def handle_starttag(self, tag, attrs) -> None:  # noqa: ANN001
                found.append((tag, dict(attrs)))

        Parser().feed(document)
        self.tags = found
        self.kinds = [tag for tag, _ in found]


def test_html_of_a_per_case_file_is_self_contained_with_its_texts_inert(capsys, two_files):
    status, out, err = run(capsys, *two_files, *COLUMNS, "--format", "html", "--flips", "5")
    assert status == 0, err
    tags = _Tags(out)
    assert "script" not in tags.kinds and "img" not in tags.kinds and "a" not in tags.kinds
    assert not any("src" in attrs or "href" in attrs for _, attrs in tags.tags)
    assert tags.kinds.count("svg") == 1 and tags.kinds.count("circle") == 1  # its one row
    assert tags.kinds.count("tr") == 1 + 1 and "<td>all cases</td>" in out
    assert "<td class=n>47</td><td class=n>53.2%</td><td class=n>53.2%</td>" in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out and tags.kinds.count("details") == 1
    assert "<h2>Decision and gate</h2>" in out and "Gate: none asked for." in out
    assert out.count("http://evil") == out.count("[x](http://evil)") + out.count("'http://evil'")


def test_html_of_scores_is_refused_by_name(capsys, tmp_path):
    path, _ = _score_file(tmp_path)
    status, _, err = run(capsys, path, "--a", "x", "--b", "y", "--format", "html")
    assert status == 2 and "--format html draws differences in pass rate" in err
    assert "--format markdown" in err


def test_markdown_of_a_scores_file_renders_its_table_and_flips(capsys, tmp_path):
    path, rows = _score_file(tmp_path)
    up, down = _recount(rows)
    argv = (path, "--a", "x", "--b", "y", "--text", "prompt", "--fail-if-worse")
    status, out, err = run(capsys, *argv, "--format", "markdown", "--flips", "3")
    assert status in (0, 1), err
    tokens, html = _parse(out)
    headers = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "th_open"]
    assert headers == ["task", "n", "x mean", "y mean", "difference x − y", "p"]
    cells = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "td_open"]
    # The means recounted: sums of whole numbers over 60, to three significant figures.
    mean_x, mean_y = (sum(r[k] for r in rows) / 60 for k in (1, 2))
    assert cells[:2] == ["all cases", "60"]
    assert float(cells[2]) == pytest.approx(mean_x, rel=5e-3)
    assert float(cells[3]) == pytest.approx(mean_y, rel=5e-3)
    assert float(cells[4]) == pytest.approx(mean_x - mean_y, abs=5e-3 * abs(mean_x - mean_y))
    assert "### Decision and gate" in out and "- Gate\\: " in out
    summary = (
        f"<summary>Flips against x, the baseline\\: {len(up)} regressions, {len(down)} "
        "improvements \\(the largest score differences\\); the first 3 of each"
    )
    assert summary in out
    assert html.count("<details>") == 1 and html.count("</details>") == 1
    shown = [line.split("**")[1] for line in out.splitlines() if line.startswith("**s")]
    assert shown == [r[0] for r in up[:3] + down[:3]]  # the largest, each way, in order
    assert "<a " not in html and "<img" not in html and "<script" not in html
    for token in tokens:
        for child in token.children or []:
            assert child.type not in ("link_open", "image", "html_inline")


def test_markdown_of_logs_compared_as_scores(capsys):
    from pathlib import Path

    mock = Path(__file__).parents[1] / "data" / "evallogs" / "generated" / "inspect"
    a, b = mock / "mock-a-3epochs.eval", mock / "mock-b-3epochs.eval"
    status, out, err = run(capsys, a, b, "--metric", "graded", "--format", "markdown")
    assert status == 0, err
    status, document, err = run(capsys, a, b, "--metric", "graded", "--json")
    task = json.loads(document)["tasks"][0]
    tokens, html = _parse(out)
    headers = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "th_open"]
    assert headers == ["task", "n", "A mean", "B mean", "difference A − B", "p"]
    cells = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "td_open"]
    means = task["scores"]["mean"]
    assert "<td>mock_qa</td>" in html and int(cells[1]) == task["scores"]["n"] == 30
    assert float(cells[2]) == pytest.approx(means["A"], rel=5e-3)
    assert float(cells[3]) == pytest.approx(means["B"], rel=5e-3)
    assert "Repeated samples of each question" in out and html.count("<details>") == 1


def test_question_means_flips_are_questions_with_their_texts(capsys):
    """Graded scores, 3 epochs against 1: each question at its mean; its flips are questions."""
    from pathlib import Path

    mock = Path(__file__).parents[1] / "data" / "evallogs" / "generated" / "inspect"
    a, b = mock / "mock-a-3epochs.eval", mock / "mock-b-1epoch.json"
    status, out, err = run(capsys, a, b, "--metric", "graded", "--json", "--flips", "1")
    assert status == 0, err
    flips = json.loads(out)["flips"]["flips"]
    assert flips and all(f["repeat"] is None and f["id"].startswith("q") for f in flips)
    assert all(f["texts"] == "read" and f["prompt"] for f in flips)


@given(
    st.text(
        alphabet=st.sampled_from(list("ab []()!<>&|`*_#-+.:/@\\\n\"'=$~{}")) | st.characters(),
        max_size=60,
    )
)
def test_no_text_makes_a_link_an_image_or_html_in_the_report(text):
    """Any text through the report's escaping (escape_markdown after printable, in a table
    cell too) parses to text and code only."""
    from calculator.report.markdown import _md

    cell = _md(text)
    document = f"| a | b |\n| --- | --- |\n| {cell} | x |\n\n{cell}\n"
    tokens = MarkdownIt("commonmark").enable("table").parse(document)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"link_open", "image", "html_inline", "html_block", "heading_open"}
    assert sum(t.type == "td_open" for t in tokens) == 2  # the cell never breaks the row


@pytest.mark.parametrize(
    ("gate", "heading", "said"),
    [
        (True, "### Decision and gate", "- Gate\\: "),
        (False, "### Decision and gate", "- Gate\\: none asked for\\."),
        (None, "### Decision", None),  # the page: it asks no gate, so none is mentioned
    ],
)
def test_the_gate_line_is_said_only_where_a_gate_can_be_asked(gate, heading, said):
    from pathlib import Path

    from calculator.logs import pair_logs, read_log
    from calculator.logs.analysis import analyze_logs
    from calculator.report.html_report import html_report
    from calculator.report.markdown import markdown_report

    folder = Path(__file__).parents[1] / "data" / "evallogs" / "generated" / "lm-eval"
    result = analyze_logs(pair_logs(read_log(folder / "toylm-a"), read_log(folder / "toylm-b")))
    report = markdown_report(result, None, alpha=0.05, gate=gate)
    page = html_report(result, None, alpha=0.05, gate=gate)
    headings = [line for line in report.splitlines() if line.startswith("### ")]
    assert headings[0] == heading
    assert "### Decision\n\n- over " in report.replace(" and gate", "")  # the suite's answer
    if said is None:
        assert "gate" not in report.lower() and "gate" not in page.lower()
        assert "<h2>Decision</h2>" in page
    else:
        assert said in report and "<li>Gate: " in page
