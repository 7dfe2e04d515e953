"""A JSON-shaped value as nested HTML lists (the replay's "everything on the board" details).

Plain Python rather than a recursive Jinja macro: a state holds hundreds of values, and a macro
call per value cost most of a step's render time.

    >>> str(kv({"light wounds": 2, "items": []}))
    '<dl class="kv"><dt>light wounds</dt><dd>2</dd><dt>items</dt><dd><span class="none">none</span></dd></dl>'
"""
from __future__ import annotations

from typing import Any, Mapping

from markupsafe import Markup, escape

NONE = '<span class="none">none</span>'
DASH = '<span class="none">—</span>'


def _html(value: Any, out: list[str]) -> None:
    if isinstance(value, Mapping):
        out.append('<dl class="kv">')
        for k, v in value.items():
            out.append(f"<dt>{escape(str(k).replace('_', ' '))}</dt><dd>")
            _html(v, out)
            out.append("</dd>")
        out.append("</dl>")
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if not items:
            out.append(NONE)
        elif isinstance(items[0], Mapping):
            out.append('<ul class="records">')
            for v in items:
                out.append("<li>")
                _html(v, out)
                out.append("</li>")
            out.append("</ul>")
        else:
            out.append(str(escape(", ".join(str(v) for v in items))))
    elif value is None:
        out.append(DASH)
    elif value is True:
        out.append("yes")
    elif value is False:
        out.append("no")
    else:
        out.append(str(escape(value)))


def kv(value: Any) -> Markup:
    out: list[str] = []
    _html(value, out)
    return Markup("".join(out))
