"""Options that a path does not use are refused by name there, never dropped (the review of this
change, 5 and 6): on a per-case pass/fail file ``--every`` and ``--order`` (the monitor's),
``--anytime-prior`` where nothing prints the anytime-valid test, ``--allow-exclusions`` (the
logs' 5% rule); with ``--categories`` every option of the pass/fail comparison, while ``--alpha``
sets its intervals' level. Each ran before with no effect and no word."""

from __future__ import annotations

import json

import pytest

from calculator.cli import main


@pytest.fixture
def per_case(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("id,A,B\n" + "".join(f"q{i},{i % 3 > 0:d},{i % 4 == 0:d}\n" for i in range(40)))
    return str(path)


@pytest.fixture
def labels(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("id,a,b\n" + "".join(f"q{i},{i % 3},{(i + 1) % 3}\n" for i in range(30)))
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cases", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--every", "5"], "--every sets how --monitor reads the cases"),
        (["--order", "id"], "--order sets how --monitor reads the cases"),
        (["--anytime-prior", "3"], "--anytime-prior names the mixture of the anytime-valid test"),
        (["--allow-exclusions"], "--allow-exclusions lifts the 5% limit"),
    ],
)
def test_a_per_case_file_refuses_what_it_would_not_use(capsys, per_case, options, said):
    status, out, err = run(capsys, per_case, "--id", "id", "--a", "A", "--b", "B", *options)
    assert status == 2 and out == ""
    assert said in err


def test_the_anytime_prior_is_answered_where_the_anytime_test_is_printed(capsys, per_case):
    status, out, err = run(
        capsys, per_case, "--id", "id", "--a", "A", "--b", "B", "--anytime-prior", "3", "--json"
    )
    assert status == 0, err
    assert "Beta(3, 3)" in json.dumps(json.loads(out)["anytime"])


@pytest.mark.parametrize(
    "options",
    [["--every", "5"], ["--names", "x,y"], ["--allow-exclusions"], ["--anytime-prior", "3"]],
)
def test_categories_refuse_the_pass_fail_comparisons_options(capsys, labels, options):
    status, out, err = run(
        capsys, labels, "--id", "id", "--a", "a", "--b", "b", "--categories", *options
    )
    assert status == 2 and out == ""
    assert err.startswith(f"error: {options[0]} ")  # refused by its name, whichever rule says it


def test_categories_take_alpha_as_the_intervals_level(capsys, labels):
    status, out, err = run(
        capsys, labels, "--id", "id", "--a", "a", "--b", "b", "--categories", "--alpha", "0.01"
    )
    assert status == 0, err
    assert "99% Bonferroni-type intervals" in out
