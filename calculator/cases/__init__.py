"""Per-case outcomes: read one file or two, validate every row, and count the paired table.

Modules, in reading order:

- :mod:`~calculator.cases.outcomes`: outcome spellings and :func:`parse_outcomes` (pass/fail
  words, 0/1, or a score and a threshold);
- :mod:`~calculator.cases.findings`: :class:`CaseIssue` and :class:`CaseFileError`, one
  validation finding each, with its count and first offending rows;
- :mod:`~calculator.cases.reading` (with :mod:`~calculator.cases.delimited` and
  :mod:`~calculator.cases.jsonlines`): :func:`read_case_file`, CSV, TSV, JSON Lines or Parquet
  from a path or bytes, with the file-level checks;
- :mod:`~calculator.cases.columns`: :func:`guess_columns`, the id and outcome columns when they
  are obvious, and :func:`guess_outcomes`, the one guess every reader and the page make;
- :mod:`~calculator.cases.ids` and :mod:`~calculator.cases.ledger`: ids made comparable, and
  the one ledger of rows (:class:`~calculator.cases.ledger.RecordLedger`): each row's first
  reason for being left out, one finding per problem and file;
- :mod:`~calculator.cases.row_checks` and :mod:`~calculator.cases.joined`: the checks every
  reader makes (ids, outcomes, groups), and the one path from rows to cases: a row per case
  (:func:`~calculator.cases.joined.read_wide`) or a row per case and system
  (:func:`~calculator.cases.joined.join_rows`);
- :mod:`~calculator.cases.pairing`: :func:`load_cases`, two systems: that path with k = 2 (one
  file: the wide layout with columns A and B; two files: one file per system, joined by id);
- :mod:`~calculator.cases.multi`: :func:`~calculator.cases.multi.load_systems`, k systems (a
  wide file, a long file, or one file per system);
- :mod:`~calculator.cases.paired`: :class:`PairedCases`, the cases used, their
  :class:`~calculator.table.PairedTable` and every finding.

Other readers (evaluation-harness logs, say) feed the same loader: they build a
:class:`CaseFile` (``name``, ``format``, ``frame`` with the rows numbered from 1, ``issues`` for
records they could not read, ``lines`` where each row starts or None, ``data`` the bytes or
``b""``) and give it to :func:`load_cases` or :func:`~calculator.cases.multi.load_systems` in
place of a path; the checks, the pairing and the findings are then the same as for a CSV file.

pandas is imported inside the functions that need it, so ``import calculator`` stays light.
"""

from calculator.cases.columns import ColumnGuess, OutcomeGuess, guess_columns, guess_outcomes
from calculator.cases.findings import EXCLUSION_REASONS, CaseFileError, CaseIssue, OffendingRow
from calculator.cases.outcomes import FAIL_WORDS, PASS_WORDS, ParsedOutcomes, parse_outcomes
from calculator.cases.paired import PairedCases
from calculator.cases.pairing import load_cases
from calculator.cases.reading import FORMATS, MAX_FILE_BYTES, CaseFile, read_case_file

__all__ = [
    "PASS_WORDS",
    "FAIL_WORDS",
    "FORMATS",
    "MAX_FILE_BYTES",
    "EXCLUSION_REASONS",
    "ParsedOutcomes",
    "parse_outcomes",
    "OffendingRow",
    "CaseIssue",
    "CaseFileError",
    "CaseFile",
    "read_case_file",
    "ColumnGuess",
    "guess_columns",
    "OutcomeGuess",
    "guess_outcomes",
    "PairedCases",
    "load_cases",
]
