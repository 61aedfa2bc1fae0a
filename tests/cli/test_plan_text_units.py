"""``plan``'s lines below its sentence give the figures as the sentence does (percentages and
points), each with the share the JSON holds after it; the JSON is unchanged.

Figures: p10 = 0.065, p01 = 0.02 gives n = 354 at 80% power and power 0.5183 at n = 200, and
the non-inferiority plan p10 = p01 = 0.1, margin 0.05 gives n = 501 (calculator.planning,
checked against Connor 1987 and Nam 1997 in tests/core/test_planning*.py).
"""

from __future__ import annotations

import json
import re

import pytest

from calculator.cli import main
from calculator.planning import plan

FIGURE = re.compile(r"[+-]?\d+(?:\.\d+)?(?:%| points)")


def run(capsys, *arguments: str) -> str:
    assert main(["plan", *arguments]) == 0
    return capsys.readouterr().out


def test_the_lines_read_as_the_sentence_with_the_shares_after(capsys):
    lines = run(capsys, "--p10", "0.065", "--p01", "0.02").splitlines()
    assert lines[2:5] == [
        "cells               only A passes 6.5% of cases (p10 = 0.065), only B passes 2.0% "
        "(p01 = 0.02)",
        "disagreement        8.5% of cases (0.085); difference A − B +4.5 points (+0.045)",
        "required n          354: exact power 80.0% (0.8004), target 80.0%",
    ]
    lines = run(capsys, "--p10", "0.065", "--p01", "0.02", "--n", "200").splitlines()
    assert lines[4:6] == [
        "power at n = 200    51.8% (0.5183)",
        "detectable          5.9 points (0.05879), the smallest |difference| with 80.0% power",
    ]


@pytest.mark.parametrize(
    "arguments",
    [
        ["--p10", "0.065", "--p01", "0.02"],
        ["--p10", "0.065", "--p01", "0.02", "--n", "200"],
        ["--pass-rate-a", "0.8", "--difference", "0.05", "--disagreement", "0.1"],
        ["--p10", "0.3", "--p01", "0.0004", "--n", "40"],
        ["--p10", "0.1", "--p01", "0.1", "--margin", "0.05"],
        ["--p10", "0.1", "--p01", "0.1", "--margin", "0.05", "--n", "200"],
    ],
)
def test_every_percentage_and_point_figure_below_is_the_sentences(capsys, arguments):
    sentence, _, *rest = run(capsys, *arguments).splitlines()
    # The figures' block ends at a blank line; after it, the Type M / Type S sentence (issue
    # 34), whose own figures the "if significant" line gives.
    lines = rest[: rest.index("")] if "" in rest else rest
    after = " ".join(rest[len(lines) :])
    cells = [line for line in lines if line.startswith("cells")]
    assert cells and "% of cases (p10 = " in cells[0]
    for line in lines:
        if line.startswith("if significant"):
            assert all(figure in after for figure in FIGURE.findall(line)), (line, after)
            continue
        if line.startswith(("pass rates", "size if", "margin")):
            continue  # the pass rates and the margin's size are not in the sentence
        for figure in FIGURE.findall(line):
            if "target" in line and line.endswith(figure):
                continue  # the target power is the sentence's only in n mode
            assert figure.lstrip("+") in sentence, (figure, line)


def test_the_json_keeps_its_shares(capsys):
    shape = json.loads(run(capsys, "--p10", "0.065", "--p01", "0.02", "--json"))
    assert shape == plan(p10=0.065, p01=0.02).to_dict()
    assert (shape["p10"], shape["p01"], shape["n"]) == (0.065, 0.02, 354)
