"""System labels of a long file (and the names of wide columns and files) as system names:
at most MAX_NAME_LENGTH characters and distinct, the number of systems bounded with a message
that lists the candidates and names the flag, and labels matched by one hash, not by list search.

Each test failed on the reader before this change (issue 23, items 10 and 11): labels were kept
at any length (a 10,000-character label was a 10,000-character system name, shown in every
pair), 40,000 labels were matched in quadratic time (59 s) and refused with a message that did
not say which systems there were. The expected names and counts are worked out by hand from the
file written in each test. Speed and memory are measured in benchmarks/bench_cases.py
(``--hostile``), not here.
"""

from __future__ import annotations

import numpy as np
import pytest

from calculator.analysis import MAX_NAME_LENGTH
from calculator.cases.multi import load_systems
from calculator.cases.names import system_names


def long_file(labels: list[str], outcomes: list[list[int]]) -> bytes:
    """One row per (case, system): case i has outcomes[i][j] for labels[j]."""
    lines = ["id,system,ok"]
    for i, row in enumerate(outcomes):
        lines += [f"c{i},{label},{value}" for label, value in zip(labels, row, strict=True)]
    return ("\n".join(lines) + "\n").encode()


OUTCOMES = [[1, 0, 1], [0, 0, 1], [1, 1, 0]]


def test_long_labels_become_short_distinct_names_with_a_finding():
    # Before: the names were the labels themselves, 10,001 characters each.
    labels = ["a" * 10_000 + "1", "a" * 10_000 + "2", "b"]
    cases = load_systems(long_file(labels, OUTCOMES), system_column="system", file_names=["l.csv"])
    assert all(len(name) <= MAX_NAME_LENGTH for name in cases.names)
    assert cases.names == ("a" * 59 + "…", "a" * 55 + "… (2)", "b")
    assert cases.outcomes.astype(int).tolist() == OUTCOMES
    (note,) = [issue for issue in cases.issues if issue.kind == "renamed_system"]
    assert note.count == 2 and note.column == "system" and len(note.message) < 400
    assert sum(cases.excluded.values()) == 0  # a note: every row stays in


def test_long_labels_can_be_chosen_by_their_full_text():
    # Held-out variant: labels that differ only past the limit, chosen explicitly, in another
    # order; spaces inside a label collapse in its name.
    labels = ["x" * 80 + " one", "x" * 80 + " two", "plain  label"]
    cases = load_systems(
        long_file(labels, OUTCOMES),
        system_column="system",
        systems=[labels[2], labels[1]],
        file_names=["l.csv"],
    )
    assert cases.names == ("plain label", "x" * 59 + "…")
    assert cases.outcomes.astype(int).tolist() == [[1, 0], [1, 0], [0, 1]]
    assert cases.excluded["other_system"] == 3  # the first label's three rows


def test_many_systems_are_refused_with_the_first_candidates_and_the_flag():
    # Before: 40,000 labels took about a minute and the message named none of them.
    count = 40_000
    # The outcome varies: a constant column is never guessed as the outcome (harness-log rule).
    data = ("id,system,ok\n" + "".join(f"{i},s{i},{i % 2}\n" for i in range(count))).encode()
    with pytest.raises(ValueError, match="40,000 systems") as refused:
        load_systems(data, system_column="system", file_names=["l.csv"])
    message = str(refused.value)
    assert "--systems" in message and "'s0', 's1', 's2', 's3', 's4'" in message
    assert len(message) < 400


def test_a_few_systems_chosen_among_many_labels_are_read():
    # Held-out variant: numeric labels (another reading path), three chosen of 45,000; every
    # other row is "a system not chosen".
    count = 45_000
    rows = [f"{i % 3},{i},{i % 2}\n" for i in range(count)]
    data = ("id,system,ok\n" + "".join(rows)).encode()
    cases = load_systems(
        data, system_column="system", systems=["0", "1", "2"], file_names=["l.csv"]
    )
    assert cases.names == ("0", "1", "2")
    # case 0 has system 0 (ok 0); case 1 system 1 (ok 1); case 2 system 2 (ok 0): each case
    # has one system only, so none is complete.
    assert cases.n == 0 and cases.excluded["other_system"] == count - 3
    assert cases.excluded["missing_system"] == 3


def test_wide_columns_cut_to_the_same_name_stay_distinct():
    # Before: two columns whose first 60 characters agree were refused as "the same system
    # twice", though the file names them apart.
    first, second = "m" * 70 + "_base", "m" * 70 + "_tuned"
    data = f"id,{first},{second},other\nq1,1,0,1\nq2,0,0,1\n".encode()
    cases = load_systems(data, id_column="id", file_names=["w.csv"])
    assert cases.names == ("m" * 59 + "…", "m" * 55 + "… (2)", "other")
    assert len(set(cases.names)) == 3


def test_system_names_are_linear_and_distinct_whatever_the_collisions():
    # Property by construction: 20,000 labels sharing their first 100 characters get 20,000
    # distinct names within the limit (numbering continues from the last number given).
    labels = ["p" * 100 + str(k) for k in range(20_000)]
    names, issue = system_names(labels, "l.csv", "system")
    assert len(set(names)) == len(labels)
    assert max(len(name) for name in names) <= MAX_NAME_LENGTH
    assert names[1] == "p" * 55 + "… (2)" and names[-1].endswith("… (20000)")
    assert issue is not None and issue.count == len(labels)


def test_a_short_label_keeps_its_name_when_a_cut_one_would_take_it():
    # The cut of a long label never takes the name of a label written that way.
    cut = "q" * 59 + "…"
    names, _ = system_names(["q" * 70, cut], "l.csv", "system")
    assert names == ("q" * 55 + "… (2)", cut)
    assert np.unique(names).size == 2
