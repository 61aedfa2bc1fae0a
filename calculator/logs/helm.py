"""HELM per-instance statistics: ``per_instance_stats.json``, or the run folder holding it.

HELM writes, for each run, a folder ``benchmark_output/runs/<suite>/<run name>/`` with
``run_spec.json`` (the run's name and its model) and ``per_instance_stats.json``: a JSON array with
one entry per (instance, train trial), ``{"instance_id", "train_trial_index", "stats": [...]}``,
where each stat is ``{"name": {"name", "split", "perturbation"?}, "count", "sum", "mean", ...}``.
The value of a stat for an instance is its ``mean``. The case is (``instance_id``,
``train_trial_index``): a train trial is a repeat of the question with other in-context examples.
Stats of perturbed instances (a ``perturbation`` in the name) and of other splits than the one
asked for (the test split unless told) are left aside.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from calculator.logs.table import (
    LogError,
    LogTable,
    as_float,
    check_rows,
    long_frame,
    repeat_number,
)

__all__ = ["is_helm_stats", "read_helm", "run_model", "run_name_parts"]


def is_helm_stats(document: object) -> bool:
    """Whether a JSON document is HELM's per-instance stats (a list of instances with stats)."""
    return (
        isinstance(document, list)
        and bool(document)
        and isinstance(document[0], dict)
        and "instance_id" in document[0]
        and "stats" in document[0]
    )


def run_name_parts(run_name: str) -> tuple[str, str | None]:
    """A HELM run name split into the task (the name without ``model=``) and the model.

    Examples
    --------
    >>> run_name_parts("bbq:subject=all,method=multiple_choice_joint,model=openai_gpt-4o")
    ('bbq:subject=all,method=multiple_choice_joint', 'openai_gpt-4o')
    """
    scenario, _, arguments = run_name.partition(":")
    kept, model = [], None
    for part in arguments.split(",") if arguments else []:
        if part.startswith("model="):
            model = part[len("model=") :]
        else:
            kept.append(part)
    return (f"{scenario}:{','.join(kept)}" if kept else scenario), model


def read_helm(
    runs: list[tuple[str, list, dict | None]], *, system: str, split: str = "test"
) -> LogTable:
    """The long table of HELM runs.

    Parameters
    ----------
    runs : list of (name, per-instance stats, run spec or None)
        Each run's file name, its parsed ``per_instance_stats.json`` and its ``run_spec.json``.
    system : str
        The model's name when no run spec names it.
    split : str
        The split analysed ("test" unless told).

    Raises
    ------
    LogError
        When a run has no unperturbed stat of `split`, or two runs are the same task.
    """
    rows: dict[str, list] = {key: [] for key in ("task", "case", "repeat", "metric", "value")}
    metrics: dict[str, None] = {}
    notes, seen_tasks, digest = [], {}, hashlib.sha256()
    named = all(spec for _, _, spec in runs)
    models = {
        _model(spec) or run_name_parts((spec or {}).get("name") or "")[1] for _, _, spec in runs
    }
    models.discard(None)
    if len(models) > 1:
        raise LogError(
            "the HELM runs given as one system are of several models "
            f"({', '.join(sorted(models))}); give each model's runs separately."
        )
    for name, instances, spec in runs:
        digest.update(json.dumps(instances, sort_keys=True).encode())
        run_name, named_after = _run_name(name, spec)
        task, model = run_name_parts(run_name)
        if named_after:
            notes.append(
                f"{name}: HELM's per-instance stats do not name their run and no run_spec.json "
                f"was read with them, so the task is named after the {named_after}: {task!r}"
            )
        system = _model(spec) or model or system
        if task in seen_tasks:
            raise LogError(f"{seen_tasks[task]} and {name} are both HELM run {task!r}.")
        seen_tasks[task] = name
        kept, perturbed, splits = _add_run(name, instances, task, split, rows, metrics)
        if not kept:
            raise LogError(
                f"{name}: no unperturbed stat of the {split!r} split (splits logged: "
                f"{', '.join(sorted(splits)) or 'none'}); name the split to analyse."
            )
        if perturbed:
            notes.append(f"{perturbed:,} stats of perturbed instances left aside")
    if split != "test":
        notes.append(f"the {split!r} split analysed, not HELM's test split")
    rows["system"] = [system] * len(rows["case"])
    return LogTable(
        format="helm",
        system=system,
        sources=tuple(seen_tasks.values()),
        frame=long_frame(rows),
        metrics=tuple(metrics),
        notes=tuple(notes),
        data_key=digest.digest(),
        tasks_named=named,
    )


def run_model(name: str, spec: dict | None) -> str | None:
    """The model of a run (the file `name` read with its run spec `spec`, or None): the
    spec's adapter model, else the ``model=`` of the run's name (the spec's, or its folder's)."""
    return _model(spec) or run_name_parts(_run_name(name, spec)[0])[1]


def _run_name(name: str, spec: dict | None) -> tuple[str, str | None]:
    """A run's name and, when no run spec gave it, what it was taken from ("folder", "file").

    HELM names a run in its ``run_spec.json`` and in its folder's name
    (``runs/<suite>/<run name>/``); ``per_instance_stats.json`` itself does not name it. A run
    read without its spec is named after the folder holding the file (within a folder read),
    else after the file's name.
    """
    named = (spec or {}).get("name")
    if isinstance(named, str) and named:
        return named, None
    if Path(name).parent.name:
        return Path(name).parent.name, "folder"
    return Path(name).stem, "file"


def _model(spec: dict | None) -> str | None:
    adapter = (spec or {}).get("adapter_spec") or {}
    return adapter.get("model")


def _add_run(
    name: str,
    instances: list,
    task: str,
    split: str,
    rows: dict[str, list],
    metrics: dict[str, None],
) -> tuple[int, int, set[str]]:
    """Append one run's unperturbed stats of `split` (the file `name`'s); (kept, perturbed,
    splits seen)."""
    kept = perturbed = 0
    splits: set[str] = set()
    for instance in instances:
        if not isinstance(instance, dict):
            continue
        case = str(instance.get("instance_id"))
        where = f"{name}: instance {case[:60]!r}"
        trial = repeat_number(
            instance.get("train_trial_index"), 0, f"{where}, field 'train_trial_index'"
        )
        stats = instance.get("stats") or []
        if not isinstance(stats, list) or not all(
            isinstance(stat, dict) and isinstance(stat.get("name") or {}, dict) for stat in stats
        ):
            raise LogError(
                f"{task}: instance {case[:60]!r}: its stats are not a list of objects with a "
                "name object, as HELM writes them; the file is damaged or not HELM's."
            )
        for stat in stats:
            label = stat.get("name") or {}
            splits.add(str(label.get("split")))
            if label.get("perturbation") is not None:
                perturbed += 1
                continue
            if label.get("split") != split:
                continue
            metric = str(label.get("name"))
            metrics.setdefault(metric, None)
            rows["task"].append(task)
            rows["case"].append(case)
            rows["repeat"].append(trial)
            rows["metric"].append(metric)
            mean = stat.get("mean")
            if isinstance(mean, int) and not isinstance(mean, bool):
                mean = as_float(mean, f"{where}, stat {metric[:60]!r}, field 'mean'")
            rows["value"].append(mean if isinstance(mean, int | float) else None)
            kept += 1
        check_rows(len(rows["case"]), task)
    return kept, perturbed, splits
