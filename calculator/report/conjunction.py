"""On how many tasks one system does better, in words: the partial-conjunction counts of
:func:`calculator.compare.conjunction.better_on_tasks`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.formatting import plural

if TYPE_CHECKING:
    from calculator.compare.conjunction import TaskCount

__all__ = ["task_count_lines", "task_count_sentence"]


def task_count_sentence(count: TaskCount) -> str:
    """One direction's count: at least how many tasks, by which combination, and which tasks
    Holm's procedure names.

    Examples
    --------
    >>> from calculator.compare.conjunction import better_on_tasks
    >>> tasks = ["t1", "t2", "t3"]
    >>> (c,) = better_on_tasks(tasks, [1, 0, 5], [12, 9, 6], ("A", "B"), alternative="greater")
    >>> print(task_count_sentence(c))  # doctest: +NORMALIZE_WHITESPACE
    B passes more often than A on at least 2 of the 3 tasks at family-wise α = 0.05, whatever
    the dependence between the tasks (partial conjunction, Bonferroni combination), and on at
    least 2 if the tasks' results are independent (Fisher combination); Holm's procedure names
    t1 and t2.
    """
    result = count.count
    m = len(result.tasks)
    level = f"family-wise α = {count.alpha:g}"
    if result.fisher_count == 0 and result.bonferroni_count == 0:
        return (
            f"The data do not show {count.better} passing more often than {count.other} on any "
            f"of the {plural(m, 'task')} at {level} (partial conjunction, by the Bonferroni "
            "combination, and by Fisher's for independent tasks)."
        )
    named = "names no task" if not result.holm_named else "names " + _listed(result.holm_named)
    if result.bonferroni_count == 0:  # only the count for independent tasks finds any
        return (
            f"Whatever the dependence between the {plural(m, 'task')}, the data do not show "
            f"{count.better} passing more often than {count.other} on any of them at {level} "
            "(partial conjunction, Bonferroni combination); if the tasks' results are "
            f"independent, on at least {result.fisher_count} (Fisher combination); Holm's "
            f"procedure {named}."
        )
    return (
        f"{count.better} passes more often than {count.other} on at least "
        f"{result.bonferroni_count} of the {plural(m, 'task')} at {level}, whatever the "
        "dependence between the tasks (partial conjunction, Bonferroni combination), and on at "
        f"least {result.fisher_count} if the tasks' results are independent (Fisher "
        f"combination); Holm's procedure {named}."
    )


def task_count_lines(counts: tuple[TaskCount, ...]) -> list[str]:
    """The report's lines: what the count means, then one sentence per direction."""
    if not counts:
        return []
    both = len(counts) == 2
    head = (
        "on how many tasks each system does better (one-sided exact McNemar p of each task in "
        "that direction"
        + ("; each direction at half the level, so both hold together" if both else "")
        + "): with probability at least 1 − α no count exceeds the number of tasks on which "
        "that system truly passes more often; counting the tasks with p < α would not be such "
        "a count"
    )
    return [f"tasks     {head}"] + [f"          {task_count_sentence(c)}" for c in counts]


def _listed(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" and {names[-1]}"
