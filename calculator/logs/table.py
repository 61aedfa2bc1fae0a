"""The long table every log reader produces, and the refusal type of the log readers.

A harness log, whatever its format, becomes one row per (system, task, case, repeat, metric):
the value a metric took on one repeat of one question. :class:`LogTable` holds those rows with
what the reader learnt about the file (its format, the filters and metrics it logs); the
pairing (:mod:`calculator.logs.pairing`) turns it into the per-case files the existing loader
pairs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from calculator.errors import CalculatorError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COLUMNS",
    "MAX_ROWS",
    "LogError",
    "LogTable",
    "as_float",
    "check_rows",
    "long_frame",
    "repeat_number",
]

#: The columns of the long table, in order; "hash" (the question's content hash, lm-eval's
#: ``doc_hash``) and "filter" (lm-eval's filter) are None where the format has none.
COLUMNS = ("system", "task", "case", "repeat", "metric", "value", "hash", "filter")
#: Largest repeat number read (an epoch, a train trial): far above any harness's, and small
#: enough that a number such as 10**30 is refused by name instead of overflowing a column.
MAX_REPEAT = 1_000_000
#: Most rows of one system's long table (one per case, repeat and metric), read, paired and
#: tested in a few microseconds and about 300 bytes each: two lm-eval logs of 2.45 million
#: documents (one metric) took 27 s of CPU and 1.6 GB, two of 3.8 million rows (40 metrics
#: per document) 11 s and 1.4 GB, so two systems at the limit stay under 30 s and 2 GB. A run
#: of 2,000 tasks of 500 documents with two metrics has 2 million.
MAX_ROWS = 2_000_000


class LogError(CalculatorError):
    """A harness log that cannot be analysed as given; the message says why and what to do."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LogTable:
    """One system's evaluation log as a long table.

    Attributes
    ----------
    format : str
        "lm-eval", "inspect" or "helm".
    system : str
        The model or system evaluated (from the log; else the file name).
    sources : tuple of str
        The files read.
    frame : pandas.DataFrame
        One row per (task, case, repeat, metric[, filter]) with the columns :data:`COLUMNS`;
        "value" is a float (NaN where the log holds no finite number: such rows are counted,
        never dropped silently), "repeat" an integer (0 when the format has no repeats).
    metrics : tuple of str
        Every metric the log holds, in the log's own order (the first is the task's first).
    notes : tuple of str
        What the reader noticed and left as it is (a corpus-level metric, a perturbed stat).
    data_key : bytes
        A digest of the files read, to refuse the same log given as both systems.
    tasks_named : bool
        Whether the task names come from the log (its content, or lm-eval's file names); False
        when they are file names chosen by someone else, which say nothing of the task.
    corpus_metrics : tuple of str
        Metrics logged per case as [gold, prediction] pairs (lm-eval's corpus-level metrics:
        corpus BLEU, span F1), whose rows hold no per-case value.
    higher_is_better : tuple of (str, str, bool)
        (task, metric, whether a higher value is better) as the harness states it (lm-eval's
        results file beside the samples, :mod:`calculator.logs.directions`); empty when unsaid.
    """

    format: str
    system: str
    sources: tuple[str, ...]
    frame: pd.DataFrame = field(repr=False)
    metrics: tuple[str, ...]
    notes: tuple[str, ...] = ()
    data_key: bytes = field(default=b"", repr=False)
    tasks_named: bool = True
    corpus_metrics: tuple[str, ...] = ()
    higher_is_better: tuple[tuple[str, str, bool], ...] = ()

    @property
    def tasks(self) -> tuple[str, ...]:
        """The tasks in the log, sorted."""
        return tuple(sorted(self.frame["task"].unique()))

    @property
    def filters(self) -> tuple[str, ...]:
        """lm-eval's filters in the log (empty for formats without filters)."""
        values = self.frame["filter"].dropna().unique()
        return tuple(sorted(str(value) for value in values))


_TEXT = ("system", "task", "case", "metric")


class RowBuilder:
    """The long table's columns as a reader collects them: what a record's rows share (its
    task, case, repeat, hash, filter: `shared`) once per record with its number of rows, the
    metric and value once per row. The shared columns are spread over the rows only when the
    frame is made, text columns as text arrays taken from their distinct values: 3.8 million
    rows of an lm-eval log of 40 metrics per record took 16 s when every row held six lists,
    and pandas then inferred the type of 4 million strings one by one."""

    def __init__(self, shared: tuple[str, ...]) -> None:
        self.shared: dict[str, list] = {name: [] for name in shared}
        self.counts: list[int] = []
        self.metric: list[str] = []
        self.value: list[object] = []

    def __len__(self) -> int:
        return len(self.metric)

    def frame(self, **constant: object) -> pd.DataFrame:
        """The long table, with the columns of `constant` the same on every row."""
        import numpy as np
        import pandas as pd

        counts = np.asarray(self.counts, dtype=np.int64)
        size = int(counts.sum())
        record_of_row = np.repeat(np.arange(counts.size), counts)
        columns: dict[str, object] = {}
        for name, values in self.shared.items():
            if name in _TEXT:
                columns[name] = pd.array(values, dtype="str").take(record_of_row)
            else:
                dtype = np.int64 if name == "repeat" else object
                columns[name] = np.repeat(np.asarray(values, dtype=dtype), counts)
        for name, value in constant.items():
            if name in _TEXT:
                columns[name] = pd.array([value], dtype="str").take(np.zeros(size, np.int64))
            else:
                columns[name] = np.full(size, value, dtype=np.int64 if name == "repeat" else object)
        names = {name: code for code, name in enumerate(dict.fromkeys(self.metric))}
        codes = np.fromiter(map(names.__getitem__, self.metric), np.int64, size)
        columns["metric"] = pd.array(list(names), dtype="str").take(codes)
        columns["value"] = self.value
        return long_frame(columns)


def long_frame(rows: dict[str, list]) -> pd.DataFrame:
    """The long table from column lists (missing "hash"/"filter" lists become None)."""
    import numpy as np
    import pandas as pd

    size = len(rows["case"])
    columns = {}
    for name in COLUMNS:
        values = rows.get(name)
        columns[name] = [None] * size if values is None else values
    frame = pd.DataFrame(columns)
    values = pd.to_numeric(frame["value"], errors="coerce").astype("float64")
    # Infinity (JSON's Infinity, or 1e999) is no score: held as "no number", as NaN is, so that
    # it is counted with the missing values and never passes a threshold or enters a mean.
    frame["value"] = values.where(np.isfinite(values))
    frame["repeat"] = frame["repeat"].astype("int64")
    for name in ("system", "task", "case", "metric"):
        frame[name] = frame[name].astype("str")
    return frame


def as_float(value: int | float, where: str) -> float:
    """A JSON number as a float; an integer too large for one refused, naming `where`.

    JSON's integers have no bound and Python reads them exactly: one of 400 digits (under
    Python's limit of 4,300) overflows a float, which every log's values become.

    Examples
    --------
    >>> as_float(3, "x"), as_float(0.5, "x")
    (3.0, 0.5)
    """
    try:
        return float(value)
    except OverflowError:
        digits = len(str(abs(int(value))))
        raise LogError(
            f"{where}: an integer of {digits:,} digits, too large to compute with (numbers are "
            "read up to about 1.8e308 in absolute value); no harness writes such a value: the "
            "file is damaged or not a log."
        ) from None


def repeat_number(value: object, default: int, where: str) -> int:
    """A repeat number (an epoch, a train trial) as logged: a whole number, else refused.

    Examples
    --------
    >>> repeat_number(None, 1, "x"), repeat_number(3, 1, "x"), repeat_number(2.0, 1, "x")
    (1, 3, 2)
    """
    if value is None:
        return default
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and (not math.isfinite(value) or value != int(value)))
    ):
        raise LogError(f"{where}: the repeat number {str(value)[:40]!r} is not a whole number.")
    if not 0 <= value <= MAX_REPEAT:
        raise LogError(
            f"{where}: the repeat number {str(value)[:40]} is outside 0 to {MAX_REPEAT:,}, the "
            "repeat numbers read (an epoch, a train trial)."
        )
    return int(value)


def check_rows(count: int, where: str) -> None:
    """Refuse a system's logs once they hold more than :data:`MAX_ROWS` rows; `where` names the
    file being read."""
    if count > MAX_ROWS:
        raise LogError(
            f"{where}: the logs of this system hold over {MAX_ROWS:,} rows (one per case, "
            "repeat and metric logged), the most read at once (each takes time and memory while "
            "two logs are compared); compare the tasks in parts, or logs of fewer metrics."
        )
