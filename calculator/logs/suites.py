"""A folder holding several models' runs (a HELM suite folder ``runs/<suite>/``, an Inspect
eval-set folder of several models, an lm-eval output folder of several models): one model's
runs chosen from it by name, or the folder refused naming the models it holds.

The readers say which model each file is of (HELM's ``run_spec.json``, Inspect's eval spec,
lm-eval's results file); this module only keeps the files of the model asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from calculator.logs.table import LogError
from calculator.text import first_of

__all__ = ["SeveralModels", "choose_model"]

Item = TypeVar("Item")
_LISTED = 8  # models named in a refusal


class SeveralModels(LogError):
    """A folder read as one system holds several models' runs: `models` names them all (the
    comparison of several systems reads each as a system), `where` the folder."""

    def __init__(self, message: str, models: list[str], where: str = "") -> None:
        super().__init__(message)
        self.models, self.where = tuple(models), where


def choose_model(
    items: Iterable[Item], model_of: Callable[[Item], str | None], model: str | None, where: str
) -> list[Item]:
    """The items (files, runs, tables) of `model`; with `model` None, all of them when they
    are of at most one model.

    `where` names the folder or files in a refusal; an item whose model is unknown (a HELM
    stats file without its run spec) is kept only when no model is asked for.

    Raises
    ------
    LogError
        When no model is asked for and the items are of several (naming them and how to
        choose), or when none is of the model asked for (naming those held).

    Examples
    --------
    >>> choose_model(["a/x", "b/x", "a/y"], lambda s: s.split("/")[0], "a", "runs")
    ['a/x', 'a/y']
    """
    items = list(items)
    models = {id(item): model_of(item) for item in items}
    held = sorted({name for name in models.values() if name is not None})
    if model is None:
        if len(held) > 1:
            raise SeveralModels(
                f"{where}: holds runs of several models ({_listed(held)}), read as one system "
                "only when they are of one model; choose the model of each side with "
                f"--models A,B (the folder may be given as both A and B), e.g. --models "
                f"{held[0]},{held[1]}",
                held,
                where,
            )
        return items
    kept = [item for item in items if models[id(item)] == model]
    if not kept:
        found = f"the models it holds: {_listed(held)}" if held else "no run names its model"
        raise LogError(f"{where}: no run of model {model[:80]!r} ({found}).")
    return kept


def _listed(names: list[str]) -> str:
    return first_of(names, _LISTED)
