"""What every door accepts before anything reaches the store: clean text, bounded sizes.

One validator for the JSON API (bodies, query and path parameters), the notation importer
and any future form. A value that passes can be stored as JSON, written to a PostgreSQL
text column and sent to a browser without surprises; one that does not is refused with
an :class:`InvalidInput` naming the field as a JSON path (``facts[0].data.note``).

    >>> check_tree({"facts": [{"data": {"note": "a\\u0000b"}}]})
    Traceback (most recent call last):
    service.errors.InvalidInput: facts[0].data.note: contains a NUL character (\\u0000), which cannot be stored
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from service.errors import InvalidInput

# The limits (docs/decisions/0007-doors.md). A real game needs a fraction of each.
MAX_BODY_BYTES = 1024 * 1024  # one request body / one notation line (KurrentDB's default append size)
MAX_DEPTH = 32  # nested objects and arrays, the outermost counted as 1
MAX_TEXT = 2000  # characters in any string of fact data or options (notes included)
MAX_KEY = 100  # characters in an object key
MAX_ITEMS = 1000  # members of one object or array
MAX_INT = 2**53 - 1  # integers a browser reads exactly (JavaScript's safe range)
MAX_NAME = 80  # a player's name
MAX_TITLE = 200  # a game's title
MAX_LEAGUE = 120  # a league's name
MAX_TAGS = 20  # tags per game
MAX_TAG = 40  # characters per tag
MAX_QUERY = 200  # characters in a query or path parameter
MAX_POSITION = 2**31 - 1  # a position, step or offset (PostgreSQL's integer)
MAX_COMMENT = 1000  # characters in a comment fact (``Commented``; decision 0017)
MAX_NOTE = 500  # characters in a note on a fact (``FactAnnotated``; decision 0017)

# NUL cannot go into PostgreSQL text; a lone surrogate cannot be encoded as UTF-8.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def path_join(parent: str, key: str | int) -> str:
    """``facts`` + 0 → ``facts[0]``; ``facts[0]`` + ``data`` → ``facts[0].data``; odd keys quoted: ``data["a b"]``."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if not _NAME.match(key):
        return f"{parent}[{json.dumps(key)}]"
    return f"{parent}.{key}" if parent else key


def _path(parent: str | None, key: str | int) -> str:
    """The path of the value at ``key`` in the container at ``parent`` (None: ``key`` is the root's own path)."""
    return key if parent is None else path_join(parent, key)


def _refuse(field: str, problem: str) -> InvalidInput:
    return InvalidInput(f"{field}: {problem}", field=field)


def text_problem(value: str, max_length: int | None = MAX_TEXT) -> str | None:
    """Why ``value`` cannot be stored, or None."""
    bad = _UNSTORABLE.search(value)
    if bad is not None:
        if bad.group() == "\x00":
            return "contains a NUL character (\\u0000), which cannot be stored"
        return f"contains a lone surrogate (\\u{ord(bad.group()):04x}) at character {bad.start() + 1}, which is not Unicode text"
    if max_length is not None and len(value) > max_length:
        return f"is {len(value):,} characters long; at most {max_length:,} are allowed"
    return None


def check_text(value: str, field: str, max_length: int | None = MAX_TEXT) -> str:
    """``value`` if it can be stored; InvalidInput naming ``field`` otherwise."""
    problem = text_problem(value, max_length)
    if problem:
        raise _refuse(field, problem)
    return value


def check_tree(
    value: Any, field: str = "", *, root: str = "body", max_text: int | None = MAX_TEXT, max_depth: int = MAX_DEPTH
) -> Any:
    """Walk a JSON value (no recursion, so no depth can crash it) and refuse what cannot be stored.

    Strings and keys must be storable text within their lengths, numbers finite and within
    ±(2**53 - 1), containers at most ``max_depth`` deep with at most MAX_ITEMS members.
    Returns ``value`` unchanged. Problems name the field by its path from ``field``
    (``root`` names the value itself when ``field`` is empty).
    """
    # (value, its container's path, its key there, depth): a value's own path is made only for a
    # container or a refusal, not for every leaf (most of a fact's walk was building paths)
    stack: list[tuple[Any, str | None, Any, int]] = [(value, None, field, 1)]
    search = _UNSTORABLE.search
    while stack:
        v, parent, key, depth = stack.pop()
        if isinstance(v, str):
            if search(v) is not None or (max_text is not None and len(v) > max_text):
                check_text(v, _path(parent, key) or root, max_text)
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if not -MAX_INT <= v <= MAX_INT:
                raise _refuse(_path(parent, key) or root, f"the number is out of range (at most ±{MAX_INT:,})")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise _refuse(_path(parent, key) or root, "must be a finite number (NaN and Infinity are not JSON)")
            if abs(v) > MAX_INT:
                raise _refuse(_path(parent, key) or root, f"the number is out of range (at most ±{MAX_INT:,})")
        elif isinstance(v, (dict, list)):
            path = _path(parent, key)
            where = path or root
            if depth > max_depth:
                raise _refuse(where, f"is nested too deeply (at most {max_depth} levels of objects and arrays)")
            if len(v) > MAX_ITEMS:
                raise _refuse(where, f"has {len(v):,} members; at most {MAX_ITEMS:,} are allowed")
            if isinstance(v, dict):
                for k, item in v.items():
                    if not isinstance(k, str):
                        raise _refuse(where, "object keys must be text")
                    if len(k) > MAX_KEY or search(k) is not None:
                        raise _refuse(where, f"the key {k[:40]!r} {text_problem(k, MAX_KEY)}")
                    stack.append((item, path, k, depth + 1))
            else:
                stack.extend((item, path, i, depth + 1) for i, item in enumerate(v))
        else:
            raise _refuse(_path(parent, key) or root, f"{type(v).__name__} is not a JSON value")
    return value


def loads(text: str | bytes, field: str = "body", *, max_bytes: int = MAX_BODY_BYTES) -> Any:
    """Parse JSON text and check it with :func:`check_tree`; every failure is an InvalidInput.

    json.loads alone raises RecursionError on deep nesting and ValueError on huge numbers;
    here both are a clear refusal.
    """
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > max_bytes:
        raise InvalidInput(f"{field}: {size:,} bytes; at most {max_bytes:,} are allowed", field=field)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        where = f"column {e.colno}" if e.lineno == 1 else f"line {e.lineno} column {e.colno}"
        raise InvalidInput(f"{field}: not valid JSON ({e.msg} at {where})", field=field) from None
    except RecursionError:
        raise InvalidInput(f"{field}: is nested too deeply (at most {MAX_DEPTH} levels of objects and arrays)", field=field) from None
    except ValueError as e:  # not UTF-8, or an integer of more than 4,300 digits
        raise InvalidInput(f"{field}: not valid JSON ({e})", field=field) from None
    return check_tree(value, root=field)
