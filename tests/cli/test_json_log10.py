"""Every JSON object with a ``pvalue`` carries its ``log10_pvalue``, finite where p underflows.

Reference values (computed here with mpmath 1.3 at 50 significant digits, from the tails'
closed forms, never from a double that underflowed):
- McNemar's chi-square without correction at b = 0, c = 5000: X2 = 5000 on 1 df, so
  p = P[chi2_1 >= 5000] = erfc(sqrt(5000 / 2)) = erfc(50); log10 p = -1087.68383651432...
- with the continuity correction: X2 = 4999^2 / 5000, p = erfc(sqrt(X2 / 2)); log10 p =
  -1087.24949862900...
- the unpaired z-test at (0, 0, 5000, 0): A passes none, B all; pooled rate 1/2, standard error
  sqrt(2 x 1/4 / 5000) = 0.01, z = -100, p = 2 Phi(-100) = erfc(100 / sqrt(2)); log10 p =
  -2173.57051287337...
"""

from __future__ import annotations

import json

import mpmath
import pytest

from calculator.cli import main


def pvalue_objects(payload: object, path: str = "") -> list[tuple[str, dict]]:
    """Every (path, object) in `payload` that has a "pvalue" key."""
    found = []
    if isinstance(payload, dict):
        if "pvalue" in payload:
            found.append((path, payload))
        for key, value in payload.items():
            found += pvalue_objects(value, f"{path}.{key}")
    elif isinstance(payload, list):
        for index, value in enumerate(payload):
            found += pvalue_objects(value, f"{path}[{index}]")
    return found


def table_json(capsys, *argv: str) -> dict:
    assert main(["table", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def reference_log10_erfc(x) -> float:
    with mpmath.workdps(50):
        return float(mpmath.log10(mpmath.erfc(x)))


def test_every_pvalue_has_its_log10_in_the_table_json(capsys):
    payload = table_json(capsys, "0", "0", "5000", "0")
    objects = pvalue_objects(payload)
    assert {path for path, _ in objects} >= {".mcnemar_chi2", ".unpaired_z", ".mcnemar_exact"}
    for path, item in objects:
        assert "log10_pvalue" in item, path


def test_the_chi_square_and_z_log10_pvalues_where_p_underflows(capsys):
    payload = table_json(capsys, "0", "0", "5000", "0")
    chi2, z = payload["mcnemar_chi2"], payload["unpaired_z"]
    assert chi2["pvalue"] == 0.0 and z["pvalue"] == 0.0  # below the smallest double
    assert chi2["log10_pvalue"] == pytest.approx(reference_log10_erfc(50), rel=1e-12)
    assert chi2["log10_pvalue"] == pytest.approx(-1087.6838365143224, rel=1e-12)
    with mpmath.workdps(50):
        z_reference = reference_log10_erfc(100 / mpmath.sqrt(2))
    assert z["log10_pvalue"] == pytest.approx(z_reference, rel=1e-12)
    assert z["log10_pvalue"] == pytest.approx(-2173.5705128733704, rel=1e-12)


def test_the_corrected_chi_square_log10_pvalue(capsys):
    payload = table_json(capsys, "0", "0", "5000", "0", "--correction")
    with mpmath.workdps(50):
        reference = reference_log10_erfc(mpmath.sqrt(mpmath.mpf(4999) ** 2 / 5000 / 2))
    assert payload["mcnemar_chi2"]["log10_pvalue"] == pytest.approx(reference, rel=1e-12)


def test_an_ordinary_table_has_log10_equal_to_the_log_of_p(capsys):
    payload = table_json(capsys, "60", "15", "5", "20")
    for path, item in pvalue_objects(payload):
        assert item["log10_pvalue"] == pytest.approx(mpmath.log10(item["pvalue"]), abs=1e-12), path
