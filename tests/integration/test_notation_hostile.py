"""Hostile notation files: refused with FILE:LINE and nothing stored, whatever the bytes; a BOM is fine."""
from __future__ import annotations

import json
import re
import tempfile
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import hygiene
from service.game import Game
from service.notation import NotationError, import_parsed, read_file, write_game
from tests.helpers import generated
from web.cli import main as cli


def count_events(db) -> int:
    with db.connect() as conn:
        return conn.execute("SELECT count(*) FROM games_events").fetchone()[0]


def game_lines(seed: int = 91, n: int = 20) -> list[str]:
    """A short legal game in notation, one string per line."""
    header, facts = generated(seed=seed)
    g = Game(game_id=uuid.UUID(int=seed), ruleset="lockdown", mode=header["mode"], players=header["players"],
             strict=True, options=header["options"], league=None, tags=[], played_on=None, title=None)
    g.record(facts[:n], command_id="c1")
    return write_game(g).splitlines()


LINES = game_lines()


def with_fact(index: int, **changes) -> str:
    """The game with fact line ``index`` (the header is 0) changed, as file text."""
    lines = list(LINES)
    obj = json.loads(lines[index])
    obj.update(changes)
    lines[index] = json.dumps(obj)
    return "\n".join(lines) + "\n"


def test_a_byte_order_mark_is_accepted(fresh_archive, tmp_path):
    path = tmp_path / "bom.jsonl"
    text = "\n".join(LINES) + "\n"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    result = CliRunner().invoke(cli, ["--database-url", fresh_archive.db.url, "import", str(path)])
    assert result.exit_code == 0, result.output
    game_id = json.loads(LINES[0])["game"]
    assert write_game(fresh_archive.games.get_game(uuid.UUID(game_id))) == text


NOTE = {"type": "GameEnded", "actor": None}
HOSTILE = {
    "NUL in a note": (lambda: with_fact(5, **NOTE, data={"ending": "abandoned", "note": "a\u0000b"}), 6, "data.note", "NUL"),
    "lone surrogate": (lambda: with_fact(3, **NOTE, data={"ending": "abandoned", "note": "\ud800"}), 4, "data.note", "surrogate"),
    "surrogate in the header": (lambda: with_fact(0, title="\udfff"), 1, "title", "surrogate"),
    "NUL in a player name": (
        lambda: with_fact(0, players=[{"seat": 1, "name": "A\u0000"}, {"seat": 2, "name": "B"}]), 1, "players[0].name", "NUL"),
    "deep nesting": (lambda: "\n".join(LINES[:2]) + "\n" + "[" * 5000 + "]" * 5000 + "\n", 3, None, "nested too deeply"),
    "deep data": (lambda: with_fact(2, data=json.loads('{"a":' * 40 + "1" + "}" * 40)), 3, "data.a", "nested too deeply"),
    "huge integer": (lambda: "\n".join(LINES[:4]) + '\n{"seq":' + "9" * 5000 + "}\n", 5, None, "not valid JSON"),
    "NaN": (lambda: "\n".join(LINES[:4]) + '\n{"seq":NaN}\n', 5, "seq", "finite"),
    "long note": (lambda: with_fact(4, **NOTE, data={"ending": "abandoned", "note": "x" * 3000}), 5, "data.note", "2,000"),
    "line over a megabyte": (lambda: with_fact(2, recorder="r" * (hygiene.MAX_BODY_BYTES + 1)), 3, None, "bytes"),
    "strict is not a boolean": (lambda: with_fact(0, strict=0), 1, "strict", "true or false"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_files_are_refused_by_line_and_field(archive, tmp_path, case):
    make, line, field, words = HOSTILE[case]
    path = tmp_path / "hostile.jsonl"
    path.write_text(make(), encoding="utf-8", errors="surrogatepass")
    before = count_events(archive.db)
    with pytest.raises(NotationError) as err:
        import_parsed(archive.games, read_file(path))
    e = err.value
    assert e.message.startswith(f"{path}:{line}: "), e.message
    assert words in e.message
    if field:
        assert e.details["field"].startswith(field), e.details
    assert count_events(archive.db) == before
    # the command says the same, without a traceback
    result = CliRunner().invoke(cli, ["--database-url", archive.db.url, "import", str(path)])
    assert result.exit_code == 1 and f"{path}:{line}: " in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# -- property: whatever the bytes, NotationError with FILE:LINE or a whole game -------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
    | st.sampled_from(["\u0000", "\ud800", "\ufeff", "\\u0000", "\udfff x", "🎲", "x" * 2500]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
hostile_snippets = st.sampled_from([
    "", "\ufeff", "\x00", "\r", "{", "}", "[" * 3000, '"\\ud800"', '"\\u0000"', "NaN", "1e999", "9" * 4400,
    '{"seq":1}', "null", "[]", "\\", "\xff",
])


@st.composite
def hostile_files(draw) -> bytes:
    lines = list(LINES)
    how = draw(st.sampled_from(["bytes", "text", "value", "field", "snippet", "truncate", "shuffle"]))
    if how == "bytes":
        return draw(st.binary(max_size=400))
    if how == "text":
        return draw(st.text(max_size=400)).encode("utf-8")
    i = draw(st.integers(0, len(lines) - 1))
    if how == "value":
        lines[i] = json.dumps(draw(json_values), ensure_ascii=draw(st.booleans()))
    elif how == "field":
        obj = json.loads(lines[i])
        key = draw(st.sampled_from(sorted(obj) + ["colour", ""]))
        obj[key] = draw(json_values)
        lines[i] = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    elif how == "snippet":
        at = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:at] + draw(hostile_snippets) + lines[i][at:]
    elif how == "shuffle":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    if how == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    if draw(st.booleans()):  # each game its own id, so an accepted one does not shadow the next
        data = data.replace(json.loads(LINES[0])["game"].encode(), str(uuid.UUID(int=draw(st.integers(1, 2**64)))).encode())
    return data


@settings(max_examples=120, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=hostile_files())
def test_any_file_is_imported_whole_or_refused_with_file_line(fresh_archive, data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "any.jsonl"
        path.write_bytes(data)
        before = count_events(fresh_archive.db)
        try:
            game, created = import_parsed(fresh_archive.games, read_file(path))
        except NotationError as e:
            assert re.match(rf"{re.escape(str(path))}:[1-9][0-9]*: \S", e.message), e.message
            assert count_events(fresh_archive.db) == before  # nothing of it stored
        else:
            stored = fresh_archive.games.get_game(game.id)
            added = count_events(fresh_archive.db) - before
            assert added == (1 + stored.position if created else 0)
            assert write_game(stored) == write_game(game)
