"""The flips and the reports, as a reviewer of issue 33 found them wrong: each test fails on the
code before its fix. Inputs copied from the review into tests/data/review (two Inspect logs of
an error rate, gA and gB: 40 questions, lower is better) or built here; every expected count is
recounted from the file with ``json``, never from the product."""

from __future__ import annotations

import json
from pathlib import Path

from calculator.cli import main

DATA = Path(__file__).parents[1] / "data" / "review"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main(["cases", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def _scores(log: Path) -> dict[str, float]:
    samples = json.loads(log.read_text())["samples"]
    return {s["id"]: s["scores"]["error_rate"]["value"] for s in samples}


def test_score_flips_take_regression_from_better_lower(capsys):
    """With --better lower, a case where B's error rate is higher is a regression of B, on the
    text report, the JSON and the CSV's direction column."""
    a, b = _scores(DATA / "gA" / "log.json"), _scores(DATA / "gB" / "log.json")
    worse = {q for q in a if b[q] > a[q]}  # B's error rate higher: B worse
    better = {q for q in a if b[q] < a[q]}
    assert worse and better and len(worse) != len(better)
    argv = (DATA / "gA", DATA / "gB", "--better", "lower")
    status, out, err = run(capsys, *argv, "--flips", "2", "--json")
    assert status == 0, err
    flips = json.loads(out)["flips"]
    assert flips["better"] == "lower"
    assert (flips["regressions"], flips["improvements"]) == (len(worse), len(better))
    by_direction = {"regression": set(), "improvement": set()}
    for flip in flips["flips"]:
        by_direction[flip["direction"]].add(flip["id"])
    assert by_direction == {"regression": worse, "improvement": better}
    status, out, err = run(capsys, *argv, "--flips", "2")
    assert status == 0, err
    assert f"regressions (mA, the baseline, scores better: lower is better): {len(worse)}" in out
    largest = max(worse, key=lambda q: b[q] - a[q])
    listed = out.split("regressions (mA")[2].split("improvements (mB")[0]  # the regressions
    assert f"  t/{largest}: mA {a[largest]:.4g}, mB {b[largest]:.4g}" in listed
    # Without --better (the log states no direction), higher is taken as better.
    status, out, err = run(capsys, DATA / "gA", DATA / "gB", "--flips", "2", "--json")
    flips = json.loads(out)["flips"]
    assert flips["better"] == "higher"
    assert (flips["regressions"], flips["improvements"]) == (len(better), len(worse))


def _pass_fail_file(tmp_path: Path) -> Path:
    path = tmp_path / "cases.csv"
    path.write_text("id,a,b\n" + "".join(f"q{k},{k % 2},{k % 3 == 0:d}\n" for k in range(30)))
    return path


def test_flips_csv_refuses_to_overwrite_an_input(capsys, tmp_path):
    """--flips-csv naming the per-case file read (by another spelling of its path) is refused
    by name, and the file is left as it was."""
    path = _pass_fail_file(tmp_path)
    before = path.read_bytes()
    spelled = tmp_path / "sub" / ".." / "cases.csv"
    (tmp_path / "sub").mkdir()
    status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips-csv", spelled)
    assert status == 2 and "--flips-csv" in err and "input" in err and not out
    assert path.read_bytes() == before
    # A log folder: a CSV written inside it would join the files read next time.
    status, out, err = run(capsys, DATA / "gA", DATA / "gB", "--flips-csv", DATA / "gA" / "f.csv")
    assert status == 2 and "--flips-csv" in err and not (DATA / "gA" / "f.csv").exists()


def test_flips_csv_dash_is_refused_by_name(capsys, tmp_path, monkeypatch):
    """``--flips-csv -`` wrote a file named "-"; it is refused, naming the option and the
    value, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    path = _pass_fail_file(tmp_path)
    status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips-csv", "-")
    assert status == 2 and "--flips-csv -" in err and "standard output" in err
    assert not (tmp_path / "-").exists()


def test_a_negative_flips_count_is_refused_by_name(capsys, tmp_path):
    """``--flips -1`` was taken as a slice (all but the last flip; "-5 of 11" in Markdown)."""
    path = _pass_fail_file(tmp_path)
    for extra in ((), ("--format", "markdown"), ("--json",)):
        status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips", "-1", *extra)
        assert status == 2 and not out
        assert "--flips must be a non-negative integer" in err and "got -1" in err
    status, out, err = run(capsys, path, "--a", "a", "--b", "b", "--flips", "0")
    assert status == 0 and "churn" in out and "0 shown of" in out


def _inspect_logs(folder: Path, model: str, tasks: dict[str, list[bool]]) -> Path:
    """One Inspect log per task in `folder`, a question per outcome (True: graded C)."""
    folder.mkdir()
    for k, (task, passes) in enumerate(tasks.items()):
        samples = [
            {
                "id": f"q{i}",
                "epoch": 1,
                "input": f"question {i}",
                "target": "t",
                "scores": {"match": {"value": "C" if ok else "I"}},
            }
            for i, ok in enumerate(passes)
        ]
        log = {
            "version": 2,
            "status": "success",
            "eval": {"task": task, "model": model, "scorers": [{"name": "match"}]},
            "samples": samples,
        }
        (folder / f"log{k}.json").write_text(json.dumps(log))
    return folder


def _one_task(tmp_path: Path) -> tuple[Path, Path]:
    """One task of 100 questions: A passes 74, B 95, B passes every one A passes (b = 0,
    c = 21: the exact two-sided p is 2 * 0.5**21 = 9.5e-07, far below 0.05)."""
    a = [i < 74 for i in range(100)]
    b = [i < 95 for i in range(100)]
    return (
        _inspect_logs(tmp_path / "A", "mA", {"t": a}),
        _inspect_logs(tmp_path / "B", "mB", {"t": b}),
    )


def test_html_chart_of_one_task_fills_the_dot_its_own_p_decides(capsys, tmp_path):
    """With one task there is no Holm p: the task's own p (9.5e-07) decides its dot, as the
    page's chart does, and the table has no Holm column."""
    import re

    a, b = _one_task(tmp_path)
    status, out, err = run(capsys, a, b, "--format", "html")
    assert status == 0, err
    circles = re.findall(r'<circle [^>]*fill="([^"]+)"', out)
    assert circles and all(fill != "white" for fill in circles)  # task and suite: filled
    table = out[out.index("<table>") : out.index("</table>")]
    assert "Holm" not in table and "9.5e-07" in table


def test_one_task_row_is_decided_by_its_own_p_on_every_chart(tmp_path):
    """The rule's one home, TaskAnalysis.family_pvalue / rejects: a family of one is its own
    p; with several tasks, Holm's. The page's chart frame reads it too."""
    from calculator.logs import analyze_logs, pair_logs, read_log
    from ui.suite_chart import suite_frame

    a, b = _one_task(tmp_path)
    result = analyze_logs(pair_logs(read_log(a), read_log(b)))
    (task,) = result.tasks
    assert task.holm_pvalue is None
    assert task.family_pvalue == task.pvalue == 2 * 0.5**21  # exact: b = 0, c = 21
    assert task.rejects()
    frame = suite_frame(result)
    assert frame["p"].iloc[0] == "9.5e-07" and frame["filled"].iloc[0]


def _suite(tmp_path: Path) -> tuple[Path, Path]:
    """Three tasks of 60 questions; B passes 12 more on t1, 3 more on t2, as many on t3
    (two cases each way there)."""
    a = {
        "t1": [i < 30 for i in range(60)],
        "t2": [i < 30 for i in range(60)],
        "t3": [i < 30 for i in range(60)],
    }
    b = {
        "t1": [i < 42 for i in range(60)],
        "t2": [i < 33 for i in range(60)],
        "t3": [2 <= i < 32 for i in range(60)],
    }
    return (
        _inspect_logs(tmp_path / "A", "mA", a),
        _inspect_logs(tmp_path / "B", "mB", b),
    )


def test_suite_chart_marks_say_which_test_and_question_each_answers(capsys, tmp_path):
    """The suite's p is never Holm-adjusted, and with --alternative greater it answers the
    one-sided question while the tasks' marks answer the two-sided one: the legend (the page's
    chart) and the HTML caption say so instead of 'p ≤ alpha after Holm' for every dot."""
    from calculator.logs import analyze_logs, pair_logs, read_log
    from ui.suite_chart import SUITE, suite_frame

    a, b = _suite(tmp_path)
    result = analyze_logs(pair_logs(read_log(a), read_log(b)), alternative="greater")
    frame = suite_frame(result).set_index("task")
    assert frame.loc[SUITE, "mark"] == "suite: p for the question asked ≤ 0.05"
    assert result.pooled.decision.alternative == "greater" and result.pooled.decision.reject
    assert frame.loc["t1", "mark"] == "task: two-sided p, Holm-adjusted ≤ 0.05"
    assert frame.loc["t3", "mark"] == "task: two-sided p, Holm-adjusted > 0.05"
    assert not any("after Holm" in m for m in frame["mark"])
    status, out, err = run(capsys, a, b, "--alternative", "greater", "--format", "html")
    assert status == 0, err
    caption = out[out.index("<figcaption>") : out.index("</figcaption>")]
    assert "two-sided test gives p ≤ alpha once Holm-adjusted across the tasks" in caption
    assert "one-sided exact McNemar test; one test, not Holm-adjusted" in caption


def test_reports_show_the_task_clustered_test_they_say_is_shown(capsys, tmp_path):
    """The Markdown and HTML reports said the task-clustered test "is shown for contrast"
    without showing it: they show its p, as the text report's "by task" line does."""
    import re

    a, b = _suite(tmp_path)
    status, text, err = run(capsys, a, b)
    assert status == 0, err
    (by_task,) = [line for line in text.splitlines() if line.startswith("by task")]
    p = re.search(r"held at the exact sign-flip test's p, (p = [0-9.]+)", by_task).group(1)
    status, md, err = run(capsys, a, b, "--format", "markdown")
    assert status == 0, err
    assert "the task\\-clustered test is shown for contrast" in md
    (item,) = [line for line in md.splitlines() if line.startswith("- By task\\:")]
    assert "two\\-sided clustered McNemar test, task as cluster \\(3 tasks\\)" in item
    assert p.replace("=", "\\=").replace(".", "\\.") in item
    status, page, err = run(capsys, a, b, "--format", "html")
    assert status == 0, err
    assert re.search(r"<li>By task: shown for contrast, not the answer[^<]*" + re.escape(p), page)


def test_markdown_table_names_the_test_and_question_of_each_p(capsys, tmp_path):
    """With --alternative greater the tasks' rows hold their two-sided p and the suite's row the
    one-sided p: the note says which is which (it said 'each task's own test' alone)."""
    a, b = _suite(tmp_path)
    status, md, err = run(capsys, a, b, "--alternative", "greater", "--format", "markdown")
    assert status == 0, err
    (note,) = [line for line in md.splitlines() if line.startswith("_p\\:")]
    assert "each task's two\\-sided exact McNemar test \\(different\\: pB \\!\\= pA\\)" in note
    assert "suite\\: the question asked \\(better\\: pB \\> pA\\)" in note
    assert "by the one\\-sided exact McNemar test, one test, not adjusted" in note
    status, page, err = run(capsys, a, b, "--margin", "0.05", "--format", "html")
    assert status == 0, err
    assert "suite: the question asked (non-inferior: pB &gt; pA - margin)" in page
    assert "by the Tango score test, one test, not adjusted" in page


def test_markdown_table_names_the_held_test_with_group(capsys, tmp_path):
    """With --group the p is the cluster-robust test held at an exact test's p (here the exact
    McNemar test's): the note names it (it said 'the test that decides')."""
    path = tmp_path / "grouped.csv"
    rows = [f"c{k},1,{int(k % 4 != 0)},d{k // 3}" for k in range(24)]
    path.write_text("id,A,B,doc\n" + "\n".join(rows) + "\n")
    status, md, err = run(
        capsys, path, "--a", "A", "--b", "B", "--group", "doc", "--format", "markdown"
    )
    assert status == 0, err
    (note,) = [line for line in md.splitlines() if line.startswith("_p\\:")]
    assert "cluster\\-robust score test, held at the exact McNemar test's p" in note


def test_flips_of_repeats_say_they_rest_on_pairing_epoch_k_with_epoch_k(capsys):
    """Two Inspect logs of two tasks with three epochs (the review's rA, rB): the flips pair
    epoch k of A with epoch k of B, an arbitrary pairing; the text and Markdown reports say so
    where they list them, and that the decision counts questions."""
    argv = (DATA / "rA", DATA / "rB")
    status, out, err = run(capsys, *argv, "--flips", "1")
    assert status == 0, err
    said = "each flip pairs repeat k of mA with repeat k of mB: an arbitrary pairing"
    assert said in out and "it counts questions, each with its repeats" in out
    assert out.index(said) < out.index("regressions (only mA, the baseline, passes): 1 shown")
    status, md, err = run(capsys, *argv, "--format", "markdown")
    assert status == 0, err
    block = md[md.index("<details>") :]
    assert said.replace(":", "\\:") in block
    status, out, err = run(capsys, DATA / "gA", DATA / "gB", "--flips", "1")
    assert "arbitrary pairing" not in out  # no repeats: nothing to say


def test_regression_and_improvement_say_a_is_the_baseline_on_every_surface(capsys, tmp_path):
    """The words take A as the baseline: the --flips help, the text, Markdown and HTML
    headings, the JSON's "baseline" and the page's introduction say so."""
    import contextlib
    import io

    from calculator.cli import main as cli
    from ui.flips_words import INTRO

    help_text = io.StringIO()
    with contextlib.redirect_stdout(help_text), contextlib.suppress(SystemExit):
        cli(["cases", "--help"])
    flat = " ".join(help_text.getvalue().split())
    assert "regressions (only A, the baseline, passes)" in flat
    assert "only A, the baseline, passes" in INTRO and "only B, the new system, passes" in INTRO
    a, b = _suite(tmp_path)
    status, out, err = run(capsys, a, b, "--flips", "1")
    assert "churn     regressions (only mA, the baseline, passes)" in out
    status, out, err = run(capsys, a, b, "--flips", "1", "--json")
    assert json.loads(out)["flips"]["baseline"] == "A"
    status, md, err = run(capsys, a, b, "--format", "markdown")
    assert "<summary>Flips against mA, the baseline\\:" in md
    assert "#### regressions \\(only mA, the baseline, passes\\)" in md
    status, page, err = run(capsys, a, b, "--format", "html")
    assert "<summary>Flips against mA, the baseline:" in page
    assert "<h3>improvements (only mB, the new system, passes)" in page


def test_markdown_keeps_the_sentences_punctuation_out_of_a_names_code_span(capsys, tmp_path):
    """A name with an address is shown as code; the sentence's "'s" and "," after it were
    wrapped into the span (`mB_=HYPERLINK("http://x")'s`). Still no link in the rendering."""
    from markdown_it import MarkdownIt

    name = 'mB_=HYPERLINK("http://x")'
    a = _inspect_logs(tmp_path / "A", "mA", {"t": [i < 30 for i in range(60)]})
    b = _inspect_logs(tmp_path / "B", name, {"t": [i < 45 for i in range(60)]})
    status, md, err = run(capsys, a, b, "--format", "markdown")
    assert status == 0, err
    assert f"`{name}`'s pass rate" in md
    assert "'s`" not in md and ",`" not in md
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert "<a " not in html and f"<code>{name}</code>".replace('"', "&quot;") in html


def test_scores_markdown_names_the_side_and_the_clusters_of_its_p(capsys, tmp_path):
    """A scores table's p is the sign-flip test on the side asked, by cluster with --group:
    the note says both (it said 'the sign-flip permutation test' alone)."""
    path = tmp_path / "scores.csv"
    rows = [f"c{k},{k % 7 / 10},{(k * 3) % 5 / 10},g{k // 4}" for k in range(40)]
    path.write_text("id,x,y,grp\n" + "\n".join(rows) + "\n")
    argv = (path, "--a", "x", "--b", "y", "--format", "markdown")
    status, md, err = run(capsys, *argv, "--group", "grp", "--alternative", "greater")
    assert status == 0, err
    (note,) = [line for line in md.splitlines() if line.startswith("_p\\:")]
    assert "one\\-sided, B's mean higher, clusters \\(not cases\\) flipped" in note
    status, md, err = run(capsys, *argv)
    (note,) = [line for line in md.splitlines() if line.startswith("_p\\:")]
    assert "sign\\-flip permutation test, two\\-sided \\(the paired t test" in note
