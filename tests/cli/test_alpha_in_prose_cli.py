"""α in prose on every surface (issue 31b; statistics 4, round-3 C15).

`compare` (Cochran's verdict, the pairs, the never-separable caveat, the ranking's header), the
release gate's verdicts, the resamples' floor and the plans wrote "at alpha = 0.05" where every
other sentence wrote "α = 0.05". Flag names (--alpha) and JSON keys ("alpha") stay.
"""

from __future__ import annotations

import json
import re

import numpy as np

from calculator.cli import main

PROSE_ALPHA = re.compile(r"(?<![-\w\"])alpha\b(?!\")")


def run(capsys, *argv: str, status: int = 0) -> str:
    assert main(list(argv)) == status
    return capsys.readouterr().out


def strings(value: object) -> list[str]:
    """Every string value of a JSON document (its words), not its keys."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def no_prose_alpha(text: str) -> None:
    assert not PROSE_ALPHA.search(text), PROSE_ALPHA.search(text) and text


def test_compare_and_cochrans_words_write_alpha_as_the_letter(capsys, tmp_path):
    rng = np.random.default_rng(1)
    rows = [
        f"{int(rng.random() < 0.8)},{int(rng.random() < 0.6)},{int(rng.random() < 0.4)}"
        for _ in range(120)
    ]
    path = tmp_path / "systems.csv"
    path.write_text("\n".join(["x,y,z", *rows]) + "\n", encoding="utf-8")
    few = tmp_path / "few.csv"
    few.write_text("x,y,z\n1,0,0\n0,1,0\n1,1,0\n1,1,1\n0,0,1\n1,0,1\n", encoding="utf-8")
    for csv in (path, few):
        out = run(capsys, "compare", str(csv))
        assert "α = 0.05" in out
        no_prose_alpha(out)
        for words in strings(json.loads(run(capsys, "compare", str(csv), "--json"))):
            no_prose_alpha(words)
    out = run(capsys, "compare", str(path), "--resamples", "1000", "--alpha", "0.0005")
    assert "cannot tell whether p ≤ α = 0.0005" in out
    no_prose_alpha(out)


def test_the_gate_verdicts_write_alpha_as_the_letter(capsys, tmp_path):
    path = tmp_path / "runs.csv"
    rows = ["id,old,new"] + [f"q{i},1,1" for i in range(50)]
    rows += [f"a{i},1,0" for i in range(15)] + [f"b{i},0,1" for i in range(3)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = run(capsys, "cases", str(path), "--id", "id", "--fail-if-worse", status=1)
    assert "gate      FAIL: new is worse than old at α = 0.05" in out
    no_prose_alpha(out)
    scores = tmp_path / "scores.csv"
    rows = ["id,old,new"] + [
        f"q{i},{0.5 + 0.01 * (i % 7)},{0.45 + 0.01 * (i % 5)}" for i in range(40)
    ]
    scores.write_text("\n".join(rows) + "\n", encoding="utf-8")
    for extra, says in (
        ([], "gate      FAIL: new is worse than old at α = 0.05, higher scores"),
        (["--margin", "0.01"], "(one-sided paired t test, p > 0.999, α = 0.05)"),
    ):
        argv = ("cases", str(scores), "--id", "id", "--fail-if-worse", *extra)
        out = run(capsys, *argv, status=1)
        assert says in out
        no_prose_alpha(out)


def test_the_plans_and_teach_write_alpha_as_the_letter(capsys):
    for argv in (
        ("plan", "--p10", "0.1", "--p01", "0.05"),
        ("plan", "--p10", "0.1", "--p01", "0.1", "--margin", "0.05"),
        ("teach", "--table", "10", "6", "0", "10", "--alpha", "0.03125"),
    ):
        out = run(capsys, *argv)
        assert "α" in out
        no_prose_alpha(out)
