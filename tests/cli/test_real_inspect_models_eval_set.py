"""An Inspect eval set's manifest (``logs.json``) or configuration (``eval-set.json``) given
where a log is read, on the real eval-set folder in tests/data/evallogs/real-inspect-models/
(SOURCES.md there): refused by what it is, with what to give instead.

Before, the command line called ``logs.json`` "one JSON document ..., not JSON Lines" and asked
for per-case records, and the page's reading of each upload (one file per system on the
compare page) called either file "a run's summary (lm-eval's results file, HELM's
run_spec.json)"; neither is true of Inspect's files, and neither said to give the ``.eval``
logs. The folder itself, given whole, is still read through its manifest
(tests/cli/test_real_inspect_models.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from calculator.logs import read_log_data
from calculator.logs.table import LogError

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "data" / "evallogs" / "real-inspect-models" / "eval-set"
LOGS = sorted(FOLDER.glob("*.eval"))
PARTS = {"logs.json": "manifest", "eval-set.json": "configuration"}


@pytest.mark.parametrize("name", PARTS)
def test_compare_refuses_the_part_by_what_it_is(name):
    done = subprocess.run(
        [sys.executable, "-m", "calculator", "compare", *map(str, LOGS), str(FOLDER / name)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: {name}: an Inspect eval set's {PARTS[name]} (")
    assert "not a log: it holds no per-case results" in done.stderr
    assert "Give the eval set's .eval logs, or the folder that holds them." in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("name", PARTS)
def test_an_upload_of_the_part_alone_is_refused_by_what_it_is(name):
    """The compare page reads each upload alone to learn its system (ui/compare_logs.py)."""
    with pytest.raises(LogError) as refused:
        read_log_data([(name, (FOLDER / name).read_bytes())])
    message = str(refused.value)
    assert message.startswith(f"{name}: an Inspect eval set's {PARTS[name]} (")
    assert "lm-eval" not in message and "run_spec" not in message


def test_the_parts_given_with_the_logs_are_still_set_aside():
    """Uploaded together with its logs (one model chosen), the manifest is applied and the
    configuration set aside, as before."""
    files = [(path.name, path.read_bytes()) for path in [*LOGS, *(FOLDER / n for n in PARTS)]]
    table = read_log_data(files, model="openai/gpt-5")
    assert table.system == "openai/gpt-5"
    assert any("eval-set folder (logs.json read)" in note for note in table.notes)
