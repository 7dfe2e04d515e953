"""The hash chain over a game's stored events: each event's hash covers the one before it.

    >>> first = link(GENESIS, "00000000-0000-0000-0000-000000000001", 1, "t:Created", {"a": 1})
    >>> link(first, "00000000-0000-0000-0000-000000000001", 2, "t:Fact", {"b": 2}) != first
    True

A link is ``sha256(previous + "\\n" + canonical JSON of the event)``, where the event is
its game id, version, topic and every stored field except the hash itself (decision 0009).
Editing any of them in the database, deleting an event or moving it to another game
breaks the chain at that step; ``nemesis-archive verify`` recomputes it.
"""
from __future__ import annotations

import hashlib
import json
from datetime import date, datetime
from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii
from typing import Any, Callable, Mapping
from uuid import UUID

GENESIS = ""  # the "previous hash" of a game's first chained event
CHAIN_FIELD = "chain"
# Columns of the events table rather than fields of the stored state; hashed explicitly.
_NOT_FIELDS = frozenset({CHAIN_FIELD, "originator_id", "originator_version"})


def _text(value: Any) -> str:
    """UUIDs and times as the text the transcoder keeps; anything else is not storable."""
    if isinstance(value, (UUID, datetime, date)):
        return str(value) if isinstance(value, UUID) else value.isoformat()
    raise TypeError(f"cannot hash a {type(value).__name__}: {value!r}")


def one_shot(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """``encoder.encode`` for a dict or a list, the same text without the C encoder made anew for every call.

    ``JSONEncoder.encode`` makes the C encoder (``c_make_encoder``) with the encoder's options for every object
    it encodes; made once here, with those very options, it is called straight away: a microsecond less of each
    event an import hashes and encodes (decision 0052). Only the check for a circular reference is left out (a
    cycle is a RecursionError then rather than a ValueError): an event's fields come from JSON. Without the C
    encoder, or for an encoder whose options or methods it would not follow, ``encoder.encode`` itself.
    """
    if c_make_encoder is None or type(encoder) is not json.JSONEncoder or encoder.indent is not None:
        return encoder.encode
    make = c_make_encoder(None, encoder.default, encode_basestring_ascii if encoder.ensure_ascii else encode_basestring,
                          None, encoder.key_separator, encoder.item_separator, encoder.sort_keys, encoder.skipkeys,
                          encoder.allow_nan)
    return lambda value: "".join(make(value, 0))


# one encoder made once (``json.dumps`` with options makes a new one per call)
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_text)
canonical = one_shot(_ENCODER)


def link(previous: str, game_id: UUID | str, version: int, topic: str, fields: Mapping[str, Any]) -> str:
    """The hash of one event, given the hash of the event before it (GENESIS for the first)."""
    if not _NOT_FIELDS.isdisjoint(fields):  # an event's vars: a fact being recorded has none of them to leave out
        fields = {k: v for k, v in fields.items() if k not in _NOT_FIELDS}
    content = {"game": str(game_id), "version": version, "topic": topic, "fields": fields}
    return hashlib.sha256((previous + "\n" + canonical(content)).encode("utf-8")).hexdigest()
