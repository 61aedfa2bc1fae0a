"""Score columns are guessed only when the guess is the only one (hostile review 4, S6).

Two files with id, words, bleu: the first numeric column ('words', a word count) was compared as
"the score" and the gate passed a release 10 BLEU worse. With more numeric columns than
columns to fill, the command now refuses and names the candidates.
"""

from __future__ import annotations

from pathlib import Path

from calculator.cli import main


def write(tmp_path: Path, name: str, header: str, rows: list[str]) -> str:
    path = tmp_path / name
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return str(path)


def two_files(tmp_path: Path) -> tuple[str, str]:
    old = [f"{i},{30 + i % 7},{40 + (i * 37 % 11) / 2}" for i in range(30)]
    new = [f"{i},{31 + i % 5},{30 + (i * 37 % 11) / 2}" for i in range(30)]
    return (
        write(tmp_path, "old.csv", "id,words,bleu", old),
        write(tmp_path, "new.csv", "id,words,bleu", new),
    )


def test_two_score_columns_per_file_are_refused_by_name(tmp_path, capsys):
    status = main(["cases", *two_files(tmp_path), "--fail-if-worse"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.strip() == (
        "error: old.csv: cannot tell which column holds A's scores: 2 columns hold numbers "
        "('words', 'bleu'); name it (--a on the command line)."
    )


def test_named_columns_are_compared(tmp_path, capsys):
    status = main(["cases", *two_files(tmp_path), "--a", "bleu", "--b", "bleu", "--fail-if-worse"])
    out, _ = capsys.readouterr()
    assert status == 1 and "A = 'bleu', B = 'bleu'" in out


def test_one_file_with_three_score_columns_is_refused(tmp_path, capsys):
    rows = [f"c{i},{0.5 + i / 100},{0.4 + i / 90},{20 + i}" for i in range(20)]
    path = write(tmp_path, "three.csv", "id,old,new,words", rows)
    status = main(["cases", path])
    _, err = capsys.readouterr()
    assert status == 2
    assert "cannot tell which columns hold A's and B's scores: 3 columns hold numbers" in err
    status = main(["cases", path, "--a", "old"])  # B's column is still one of two
    _, err = capsys.readouterr()
    assert status == 2
    assert (
        "cannot tell which column holds B's scores: 2 columns hold numbers ('new', 'words')" in err
    )
    assert main(["cases", path, "--a", "old", "--b", "new"]) == 0


def test_one_file_with_two_score_columns_is_still_guessed(tmp_path, capsys):
    rows = [f"c{i},{0.5 + i / 100},{0.4 + i / 90}" for i in range(20)]
    assert main(["cases", write(tmp_path, "two.csv", "id,old,new", rows)]) == 0
    assert "A = 'old', B = 'new'" in capsys.readouterr().out
