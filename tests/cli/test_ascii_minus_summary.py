"""The summary lines of ``table`` and ``teach`` write A − B as the sentences do (review 4, C1).

Before: "difference A - B    +10.0 points" (an ASCII hyphen) under sentences that say
"a pass-rate difference A − B"; and teach's "true difference A - B = +10.0 points".
"""

from __future__ import annotations

from calculator.cli import main


def test_table_and_teach_write_the_minus_sign(capsys):
    assert main(["table", "60", "15", "5", "20"]) == 0
    out = capsys.readouterr().out
    assert "difference A − B    +10.0 points, 95% CI +1.2 to +18.4" in out
    assert "A - B" not in out
    assert main(["teach", "--n", "100", "--p10", "0.15", "--p01", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "true difference A − B = +10.0 points" in out and "A - B" not in out
