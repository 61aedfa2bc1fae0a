"""Graded scores of a task whose repeat numbers differ between the two logs (3 epochs against
1): each question is one case at its mean over every finite score of it, paired by the
per-case loader as any case, so that no sample is dropped; the per-question sums, counts and
sums of squares feed :func:`calculator.logs.share_permutation.score_label_permutation`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from calculator.cases import CaseFile
from calculator.cases.scores_input import load_score_cases

if TYPE_CHECKING:
    from calculator.cases import PairedCases

__all__ = ["pair_question_means"]


def pair_question_means(
    task: str, rows: list[pd.DataFrame], names: tuple[str, str]
) -> tuple[PairedCases, tuple[np.ndarray, ...], tuple[int, int]]:
    """Graded scores of a task whose repeat numbers differ between the logs (3 epochs against
    1): each question is one case valued at its mean over every finite score of it, paired
    by the loader as any case. Returns the paired cases, per question both logs score A's then
    B's sums of scores, their numbers and sums of squares, then its (A's, B's) scores; and the
    samples of each log used."""
    files, stats = [], []
    for frame, name in zip(rows, names, strict=True):
        values = frame["value"].where(np.isfinite(frame["value"]))
        grouped = (
            frame.assign(value=values, square=values**2, scored=values.notna())
            .groupby("case", sort=False)[["value", "square", "scored"]]
            .sum(min_count=1)
        )
        means = grouped["value"] / grouped["scored"].where(grouped["scored"] > 0)
        table = pd.DataFrame({"case": grouped.index.to_numpy(), "value": means.to_numpy()})
        table.index = pd.RangeIndex(1, len(table) + 1)
        files.append(CaseFile(name=f"{name} [{task}]", format="jsonl", frame=table))
        stats.append(grouped[grouped["scored"] > 0])
    cases = load_score_cases(files[0], files[1], ("value", "value"), id_column="case", names=names)
    used = cases.cases["case"].astype("str")
    both = stats[0].merge(stats[1], left_index=True, right_index=True, suffixes=("_a", "_b"))
    both = both.loc[both.index.astype("str").isin(set(used))]
    question_scores = tuple(
        both[f"{k}_{side}"].to_numpy(dtype=np.float64)
        for side in "ab"
        for k in ("value", "scored", "square")
    )
    finite = [  # each question's scores, A's then B's, for the exact enumeration
        frame.assign(value=frame["value"].where(np.isfinite(frame["value"])))
        .dropna(subset=["value"])
        .groupby("case", sort=False)["value"]
        .agg(list)
        for frame in rows
    ]
    pools = np.empty(len(both), dtype=object)
    pools[:] = [(finite[0][q], finite[1][q]) for q in both.index]
    question_scores = (*question_scores, pools)
    samples_used = (int(both["scored_a"].sum()), int(both["scored_b"].sum()))
    return cases, question_scores, samples_used
