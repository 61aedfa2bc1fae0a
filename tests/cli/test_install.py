"""The package as a user installs it: a wheel of `calculator` only, the `mcnemar` console script.

The wheel is built from a copy of the sources (so the repository gains no build/ folder) with the
setuptools already installed (``--no-build-isolation``: no network), then installed with
``--no-deps`` into two fresh virtual environments:

- "core": only numpy and scipy beside it (linked from this interpreter), as after
  ``pip install mcnemar-calculator`` without the ``cases`` extra;
- "full": every package of this interpreter's environment visible (its site-packages named in a
  ``.pth`` file; ``--system-site-packages`` would show the base interpreter's, not a venv's), as
  after ``pip install mcnemar-calculator[cases]``.

Every command runs from a temporary directory outside the repository, with no PYTHONPATH, so the
`calculator` it imports is the installed one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ["table", "60", "15", "5", "20", "--json"]


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def _build_wheel(work: Path) -> Path:
    source = work / "source"
    shutil.copytree(
        ROOT / "calculator", source / "calculator", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(work / "dist"), str(source)],
        cwd=work,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("*.whl")
    return wheel


def _venv(work: Path, name: str, wheel: Path, *, everything: bool) -> Path:
    """A fresh environment with the wheel installed; returns its bin directory."""
    home = work / name
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(home)], cwd=work)
    assert made.returncode == 0, made.stderr
    python = home / "bin" / "python"
    installed = _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
        + ["--no-deps", "--no-index", str(wheel)],
        cwd=work,
    )
    assert installed.returncode == 0, installed.stderr
    here = Path(sysconfig.get_paths()["purelib"])
    there = Path(
        _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
             cwd=work).stdout.strip()
    )  # fmt: skip
    if everything:
        # This environment's packages (pandas and pyarrow among them), after the wheel's own.
        paths = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
        (there / "zz_this_environment.pth").write_text("\n".join(paths) + "\n")
    else:
        # numpy and scipy only, from this interpreter: the core's whole runtime.
        for entry in here.iterdir():
            if entry.name.split("-")[0].split(".")[0] in ("numpy", "scipy"):
                (there / entry.name).symlink_to(entry)
    return home / "bin"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("install")
    wheel = _build_wheel(work)
    return {
        "wheel": wheel,
        "core": _venv(work, "core", wheel, everything=False),
        "full": _venv(work, "full", wheel, everything=True),
        "outside": work,
    }


def test_the_wheel_holds_the_calculator_package_and_declares_its_needs(installed) -> None:
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = wheel.namelist()
        (metadata,) = (name for name in names if name.endswith(".dist-info/METADATA"))
        requires = [
            line.removeprefix("Requires-Dist: ")
            for line in wheel.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist: ")
        ]
        (entry_points,) = (name for name in names if name.endswith("entry_points.txt"))
        scripts = wheel.read(entry_points).decode()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"calculator"}  # no ui/, app_pages/, tests/ or benchmarks/
    # Every module of the package, subpackages included (one without __init__.py would be lost).
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "calculator").rglob("*.py")}
    assert modules <= set(names), sorted(modules - set(names))
    bare = sorted(requirement.split(";")[0].split("<")[0].split(">")[0] for requirement in requires)
    assert bare == ["numpy", "pandas", "pyarrow", "scipy", "zstandard"]
    extras = sorted(r.split(";")[0].split("<")[0] for r in requires if 'extra == "cases"' in r)
    assert extras == ["pandas", "pyarrow", "zstandard"]
    assert "mcnemar = calculator.cli:main" in scripts


def test_console_script_prints_what_the_module_prints(installed) -> None:
    script = _run([str(installed["core"] / "mcnemar"), *TABLE], cwd=installed["outside"])
    module = _run([sys.executable, "-m", "calculator", *TABLE], cwd=ROOT)
    assert script.returncode == 0 and module.returncode == 0, script.stderr + module.stderr
    assert script.stdout == module.stdout
    assert json.loads(script.stdout)["table"]["n"] == 100
    # The installed package is the one imported, not the repository's.
    where = _run(
        [str(installed["core"] / "python"), "-c", "import calculator; print(calculator.__file__)"],
        cwd=installed["outside"],
    )
    assert not Path(where.stdout.strip()).is_relative_to(ROOT)


@pytest.mark.parametrize(
    "command",
    [
        ["plan", "--p10", "0.05", "--p01", "0.45", "--json"],
        ["teach", "--n", "40", "--p10", "0.1", "--p01", "0.2", "--json"],
    ],
    ids=["plan", "teach"],
)
def test_every_core_subcommand_runs_without_the_cases_extra(installed, command) -> None:
    script = _run([str(installed["core"] / "mcnemar"), *command], cwd=installed["outside"])
    module = _run([sys.executable, "-m", "calculator", *command], cwd=ROOT)
    assert script.returncode == 0, script.stderr
    assert script.stdout == module.stdout


def test_a_usage_error_names_the_installed_command(installed) -> None:
    bad = _run([str(installed["core"] / "mcnemar"), "table", "1", "2"], cwd=installed["outside"])
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("mcnemar table: ") and bad.stderr.count("\n") == 1


def test_cases_without_the_extra_says_how_to_install_it(installed) -> None:
    outside = installed["outside"]
    (outside / "runs.csv").write_text("id,old,new\nq1,1,0\nq2,0,1\n")
    done = _run([str(installed["core"] / "mcnemar"), "cases", "runs.csv"], cwd=outside)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "pandas and pyarrow" in done.stderr
    assert "pip install 'mcnemar-calculator[cases]'" in done.stderr


def test_cases_with_the_extra_runs_the_release_gate(installed) -> None:
    outside = installed["outside"]
    rows = "".join(f"b{i},1,0\n" for i in range(10))  # b = 10, c = 0: p = 2 / 2^10
    (outside / "gate.csv").write_text("id,old,new\nq1,1,1\n" + rows)
    done = _run(
        [str(installed["full"] / "mcnemar"), "cases", "gate.csv", "--a", "old", "--b", "new"]
        + ["--fail-if-worse", "--json"],
        cwd=outside,
    )
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["table"] == {
        "a": 1, "b": 10, "c": 0, "d": 0, "n": 11, "discordant": 10,
    }  # fmt: skip
