"""The language sentences and component names are told in: gettext's way, one context variable.

The web layer picks a language per request and sets it here (decision 0019); the command line and
the tests use :func:`language`. Code that speaks to people wraps its sentences in ``_()``:

    >>> _("Round %(n)s") % {"n": 2}
    'Round 2'

Nothing here imports a web framework or a catalogue format: a translations object is anything
with ``gettext``/``ngettext`` (the standard library's ``gettext.NullTranslations`` speaks English).
"""
from __future__ import annotations

import gettext as _gettext
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

DEFAULT = "en"
_ENGLISH = _gettext.NullTranslations()
_state: ContextVar[tuple[str, _gettext.NullTranslations]] = ContextVar("nemesis_language", default=(DEFAULT, _ENGLISH))


def current() -> str:
    """The language code in force (``en`` unless a caller chose another)."""
    return _state.get()[0]


def _(message: str) -> str:
    """``message`` in the language in force (itself when the catalogue lacks it, or when it is empty)."""
    return _state.get()[1].gettext(message) if message else message


gettext = _


def ngettext(singular: str, plural: str, n: int) -> str:
    return _state.get()[1].ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a constant for the catalogue; it is translated where it is shown."""
    return message


def set_language(code: str, translations: _gettext.NullTranslations | None = None):
    """Set the language for this context; returns the token :func:`reset` takes."""
    return _state.set((code, translations or _ENGLISH))


def reset(token) -> None:
    _state.reset(token)


@contextmanager
def language(code: str, translations: _gettext.NullTranslations | None = None) -> Iterator[None]:
    """Speak ``code`` inside the block (``translations``: its catalogue, if sentences are to be translated too)."""
    token = set_language(code, translations)
    try:
        yield
    finally:
        reset(token)
