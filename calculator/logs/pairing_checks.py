"""The refusals of a pairing of two logs that leaves too much out: rows the other log lacks,
and repeats one log holds fewer of (:data:`calculator.logs.pairing.MAX_EXCLUDED_SHARE`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.logs.table import LogError
from calculator.text import plural

if TYPE_CHECKING:
    import pandas as pd

    from calculator.logs.pairing import PairedLogs

__all__ = ["refuse_different_documents", "refuse_large_exclusions", "refuse_uneven_repeats"]


def refuse_large_exclusions(paired: PairedLogs, rows: list[pd.DataFrame], limit: float) -> None:
    """More than `limit` of a side's rows left out (tasks or cases the other log lacks, rows
    the loader excluded) is refused: such a remainder is rarely a random one."""
    reasons: dict[str, int] = {}
    for task in paired.tasks:
        for reason, count in task.cases.excluded.items():
            reasons[reason] = reasons.get(reason, 0) + count
    for side, frame in enumerate(rows):
        unpaired = paired.unpaired_tasks[side]
        by_design = sum(task.repeats_unpaired[side] for task in paired.tasks)
        used = sum(  # with question means, the samples in them; else the paired cases
            task.cases.n if task.samples_used is None else task.samples_used[side]
            for task in paired.tasks
        )
        total = len(frame) - by_design
        left_out = total - used
        if not total or left_out / total <= limit:
            continue
        name = paired.names[side]
        detail = ", ".join(
            f"{reason.replace('_', ' ')} {count:,}" for reason, count in reasons.items() if count
        )
        if unpaired:
            detail = "; ".join(
                part
                for part in (f"{plural(len(unpaired), 'task')} only in {name}'s log", detail)
                if part
            )
        raise LogError(
            f"{left_out:,} of {name}'s {total:,} rows ({left_out / total:.1%}) would be left out "
            f"({detail or 'unpaired'}), over the limit of {limit:.0%}: the two runs were not made "
            "on the same questions (a --limit run, another task list, failed samples), or rows "
            "could not be read; rerun on the same questions, or pass --allow-exclusions to "
            "analyse the paired cases only."
        )


def refuse_uneven_repeats(paired: PairedLogs, rows: list[pd.DataFrame], limit: float) -> None:
    """Refuse, naming it, a log with fewer repeats of some of the questions both logs hold
    than the other has (a repeat number both logs use elsewhere in the task, missing on
    these questions): such gaps are often failed samples, not a random part. A repeat number
    one log never uses in the task (3 epochs against 1) is by design and not counted here."""
    import pandas as pd

    paired_tasks = {task.task for task in paired.tasks}

    def keys(frame: pd.DataFrame, columns: list[str]) -> pd.MultiIndex:
        return pd.MultiIndex.from_frame(frame[columns])

    for side, frame in enumerate(rows):
        # Every task at once (a scan per task made 2,000 tasks quadratic: hostile review 4, H4).
        mine, theirs = (f[f["task"].isin(paired_tasks)] for f in (frame, rows[1 - side]))
        common = mine[
            keys(mine, ["task", "case"]).isin(keys(theirs, ["task", "case"]))
            & keys(mine, ["task", "repeat"]).isin(keys(theirs, ["task", "repeat"]))
        ]
        triples = ["task", "case", "repeat"]
        uneven = int((~keys(common, triples).isin(keys(theirs, triples))).sum())
        if len(frame) and uneven / len(frame) > limit:
            name, other_name = paired.names[side], paired.names[1 - side]
            raise LogError(
                f"{uneven:,} of {name}'s {len(frame):,} samples ({uneven / len(frame):.1%}) are "
                f"repeats of questions {other_name}'s log holds with fewer repeats of them, over "
                f"the limit of {limit:.0%}: both logs hold these questions, but {other_name} "
                "lacks some of their repeats (failed or skipped samples are rarely a random "
                "part); rerun them, or pass --allow-exclusions to pair the repeats both logs "
                "hold (every repeat still counts in the pass shares)."
            )


HASHED = {
    "lm-eval": ("documents", "doc_id", "lm-eval's doc_hash"),
    "inspect": ("samples", "id", "a digest of each sample's input"),
}


def refuse_different_documents(
    a: pd.DataFrame, b: pd.DataFrame, between: str = "the logs", log_format: str = "lm-eval"
) -> None:
    """The content hash (lm-eval's ``doc_hash``, the digest of an Inspect sample's input) must
    agree for a (task, case) both logs hold; `between` names the two logs in the refusal."""
    if a["hash"].isna().all() or b["hash"].isna().all():
        return
    keys = ["task", "case"]
    left = a[keys + ["hash"]].drop_duplicates(keys)
    right = b[keys + ["hash"]].drop_duplicates(keys)
    both = left.merge(right, on=keys, suffixes=("_a", "_b"))
    both = both[both["hash_a"].notna() & both["hash_b"].notna()]
    differ = both[both["hash_a"] != both["hash_b"]]
    if len(differ):
        first = differ.iloc[0]
        cases, case_id, digest = HASHED.get(log_format, HASHED["lm-eval"])
        raise LogError(
            f"{len(differ):,} of {len(both):,} {cases} differ between {between} under the same "
            f"task and {case_id} ({digest}; the first: task {first['task']!r}, {case_id} "
            f"{first['case']}): these are different questions (another task, dataset version or "
            "order), not paired cases; compare logs of the same task and data."
        )
