"""Column names made safe to show and to choose: no control or bidirectional-override character,
none empty, none repeated. Every change is reported; no name changes silently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from calculator.analysis import MAX_NAME_LENGTH
from calculator.cases.findings import EXAMPLES, CaseIssue, OffendingRow
from calculator.text import clip, has_hidden, plural, printable

__all__ = ["column_names", "system_names"]


def column_names(names: Sequence[object], file: str) -> tuple[list[str], CaseIssue | None]:
    """Names that can be shown and chosen, and a finding listing every name changed.

    Hidden characters are escaped (:func:`calculator.text.printable`), an empty name becomes
    "column k", and every copy of a repeated name becomes "name (column k)", k counting columns
    from 1.

    Examples
    --------
    >>> names, issue = column_names(["id", "acc", "", "acc"], "r.csv")
    >>> names
    ['id', 'acc (column 2)', 'column 3', 'acc (column 4)']
    >>> issue.kind, issue.count, issue.examples[0]
    ('renamed_column', 3, OffendingRow(row=2, case_id=None, value="'acc'"))
    """
    original = [str(name) for name in names]
    shown = [printable(name) or f"column {k}" for k, name in enumerate(original, start=1)]
    repeats = Counter(shown)
    taken = set(shown)
    for position, name in enumerate(shown):
        if repeats[name] > 1:
            candidate = f"{name} (column {position + 1})"
            while candidate in taken:
                candidate += "'"
            taken.add(candidate)
            shown[position] = candidate
    changed = [k for k, (old, new) in enumerate(zip(original, shown, strict=True)) if old != new]
    if not changed:
        return shown, None
    pairs = "; ".join(f"{original[k]!r} as {shown[k]!r}" for k in changed[:3])
    more = f"; and {len(changed) - 3:,} more" if len(changed) > 3 else ""
    reasons = []
    if any(count > 1 for count in repeats.values()):
        reasons.append("a name repeated")
    if any(not name for name in original):
        reasons.append("a name missing")
    if any(has_hidden(name) for name in original):
        reasons.append("characters that do not show as themselves")
    issue = CaseIssue(
        kind="renamed_column",
        file=file,
        column=None,
        count=len(changed),
        examples=tuple(
            OffendingRow(k + 1, None, clip(repr(original[k]))) for k in changed[:EXAMPLES]
        ),
        message=f"{file}: {plural(len(changed), 'column')} renamed so that each can be shown and "
        f"chosen ({', '.join(reasons)}): {clip(pairs + more, 240)}.",
    )
    return shown, issue


def system_names(
    labels: Sequence[str], file: str, column: str | None, limit: int = MAX_NAME_LENGTH
) -> tuple[tuple[str, ...], CaseIssue | None]:
    """System labels (or column or file names) as system names, and a finding listing the
    ones changed.

    Spaces are collapsed, hidden characters escaped (:func:`calculator.text.printable`), and a
    name over
    `limit` characters is cut, an ellipsis marking the cut, as the two-system reader cuts a
    column's name; where two names would then be one, the later ones are numbered ("… (2)"),
    so the names stay distinct. Linear in the number of labels.

    Examples
    --------
    >>> names, issue = system_names(["a" * 70, "a" * 65, "b"], "runs.csv", "model", limit=8)
    >>> names
    ('aaaaaaa…', 'aaa… (2)', 'b')
    >>> issue.kind, issue.count
    ('renamed_system', 2)
    """
    plain = [" ".join(printable(str(label)).split()) for label in labels]
    taken = {name for name in plain if name and len(name) <= limit}
    given: set[str] = set()
    numbered: dict[str, int] = {}  # the next number to try after each cut name
    shown = []
    for name in plain:
        name = name or "system"
        if len(name) <= limit and name not in given:
            candidate = name
        else:
            cut = name if len(name) <= limit else name[: limit - 1] + "…"
            candidate, k = cut, numbered.get(cut, 2)
            while candidate in taken or candidate in given:
                suffix = f" ({k})"
                room = limit - len(suffix)
                head = name if len(name) <= room else name[: room - 1] + "…"
                candidate, k = head + suffix, k + 1
            numbered[cut] = k
        given.add(candidate)
        shown.append(candidate)
    changed = [k for k, (old, new) in enumerate(zip(labels, shown, strict=True)) if old != new]
    if not changed:
        return tuple(shown), None
    pairs = "; ".join(f"{clip(repr(str(labels[k])), 40)} as {shown[k]!r}" for k in changed[:3])
    more = f"; and {len(changed) - 3:,} more" if len(changed) > 3 else ""
    issue = CaseIssue(
        kind="renamed_system",
        file=file,
        column=column,
        count=len(changed),
        examples=(),
        message=f"{file}: {plural(len(changed), 'system')} renamed so that each name has at most "
        f"{limit} characters, is distinct and can be shown (long names cut, spaces collapsed, "
        f"control or text-direction characters escaped): {clip(pairs + more, 240)}.",
    )
    return tuple(shown), issue
