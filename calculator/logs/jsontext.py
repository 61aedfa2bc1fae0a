"""JSON text of a harness log parsed with its limits: the one place the log readers parse JSON.

Python's ``json`` module refuses nothing by size: an array nested a hundred thousand levels deep
raises ``RecursionError``, and an integer of more than 4,300 digits a bare ``ValueError``; both
reached the command line as internal errors. Here they are refusals naming the file. Syntax
errors (``json.JSONDecodeError``) and undecodable bytes (``UnicodeDecodeError``) pass through
unchanged: each reader says what they mean for its format.
"""

from __future__ import annotations

import json

from calculator.logs.table import LogError

__all__ = ["parse_json"]


def parse_json(data: bytes | str, where: str) -> object:
    """The JSON value of `data`; `where` names the file (and member or line) in a refusal.

    Raises
    ------
    LogError
        When the value nests deeper than Python's parser can follow, or holds an integer too
        long to convert.
    json.JSONDecodeError, UnicodeDecodeError
        When `data` is not JSON text.

    Examples
    --------
    >>> parse_json(b'{"doc_id": 0}', "x.jsonl")
    {'doc_id': 0}
    """
    try:
        return json.loads(data)
    except RecursionError:
        raise LogError(
            f"{where}: JSON nested too deeply to read (arrays or objects inside one another "
            "thousands of levels deep); no harness writes such a log: the file is damaged or "
            "not a log."
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError as error:  # an integer over Python's limit of digits
        raise LogError(
            f"{where}: a number in this JSON cannot be read ({str(error)[:90]}); no harness "
            "writes such a number: the file is damaged or not a log."
        ) from None
