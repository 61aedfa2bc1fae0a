"""``compare`` on per-case files refuses the options of harness logs by name (--metric,
--filter, --allow-exclusions), as ``cases`` does, whether the columns hold pass/fail outcomes
or scores compared by ranks: none is silently ignored. The words come from
calculator.report.compare_refusals through the workflow's refusal codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from calculator.cli import main
from calculator.compare.workflow import SystemsAsk, SystemsRefused, refuse_log_options

PASS_FAIL = ["id,A,B,C", "q0,1,0,0", "q1,1,1,0", "q2,1,0,1", "q3,1,0,0"]
SCORES = ["id,A,B,C", "q0,0.36,0.70,0.28", "q1,0.49,0.77,0.69", "q2,0.29,0.95,0.65"]


def files(tmp_path: Path, kind: str) -> list[str]:
    if kind == "files":  # one file per system, pass/fail
        paths = []
        for name, column in (("a.csv", 1), ("b.csv", 2)):
            rows = [f"{r.split(',')[0]},{r.split(',')[column]}" for r in PASS_FAIL[1:]]
            (tmp_path / name).write_text("\n".join(["id,ok", *rows]) + "\n")
            paths.append(str(tmp_path / name))
        return paths
    path = tmp_path / f"{kind}.csv"
    path.write_text("\n".join(PASS_FAIL if kind == "pass_fail" else SCORES) + "\n")
    return [str(path), "--systems", "A,B,C"]


@pytest.mark.parametrize("kind", ["pass_fail", "scores", "files"])
@pytest.mark.parametrize(
    ("option", "named"),
    [
        (["--metric", "acc"], "--metric applies to evaluation-harness logs"),
        (["--metric", "t=acc"], "--metric applies to evaluation-harness logs"),
        (["--filter", "x"], "--filter applies to evaluation-harness logs"),
        (["--allow-exclusions"], "--allow-exclusions lifts the 5% limit"),
    ],
)
def test_log_options_on_per_case_files_are_refused_by_name(tmp_path, capsys, kind, option, named):
    status = main(["compare", *files(tmp_path, kind), "--id", "id", *option])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert named in err and "is a per-case file" in err


def test_the_workflow_gives_each_option_its_code():
    for ask, code in (
        (SystemsAsk(metric="acc"), "metric"),
        (SystemsAsk(filter="strict-match"), "filter"),
        (SystemsAsk(allow_exclusions=True), "allow_exclusions"),
    ):
        with pytest.raises(SystemsRefused) as refused:
            refuse_log_options(ask, "s.csv")
        assert (refused.value.option, refused.value.detail) == (code, "s.csv")
    refuse_log_options(SystemsAsk(), "s.csv")  # nothing asked of logs: nothing refused
