"""service.hygiene: what every door refuses, and how it names the field."""
from __future__ import annotations

import doctest

import pytest

from service import hygiene
from service.errors import InvalidInput


def refusal(fn, *args, **kwargs) -> InvalidInput:
    with pytest.raises(InvalidInput) as err:
        fn(*args, **kwargs)
    return err.value


def test_the_module_example_holds():
    assert doctest.testmod(hygiene).failed == 0


@pytest.mark.parametrize(
    "value, field, words",
    [
        ({"facts": [{"data": {"note": "a\x00"}}]}, "facts[0].data.note", "NUL"),
        ({"players": [{"name": "x"}, {"name": "\ud83d"}]}, "players[1].name", "surrogate"),
        ({"a": [[[1.5, float("nan")]]]}, "a[0][0][1]", "finite"),
        ({"n": 2**53}, "n", "out of range"),
        ({"n": -(2**53)}, "n", "out of range"),
        ({"t": "x" * 2001}, "t", "2,001 characters"),
        ({"k\x00": 1}, "body", "key"),
        ({"list": list(range(1001))}, "list", "1,001 members"),
        ([{"x": 1}, "\x00"], "[1]", "NUL"),
        ("\x00", "body", "NUL"),
    ],
)
def test_check_tree_names_the_path(value, field, words):
    e = refusal(hygiene.check_tree, value)
    assert e.details["field"] == field and words in e.message and e.message.startswith(field + ": ")


def test_depth_is_counted_from_the_outermost_container():
    ok = {"a": 1}
    for _ in range(hygiene.MAX_DEPTH - 1):
        ok = {"a": ok}
    hygiene.check_tree(ok)
    e = refusal(hygiene.check_tree, {"a": ok})
    assert "nested too deeply" in e.message


def test_clean_values_pass_unchanged():
    value = {"facts": [{"type": "Passed", "data": {"note": "dice 🎲, Zażółć", "n": 2**53 - 1, "f": 0.5, "b": None}}]}
    assert hygiene.check_tree(value) is value


@pytest.mark.parametrize(
    "text, words",
    [
        ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
        ('{"a": ' + "9" * 5000 + "}", "not valid JSON"),
        (b'{"a": "\xff"}', "not valid JSON"),
        ('{"a": 1', "not valid JSON"),
        ('{"a": "' + "x" * hygiene.MAX_BODY_BYTES + '"}', "bytes"),
        ('{"a": "\\u0000"}', "NUL"),
    ],
)
def test_loads_refuses_what_json_loads_would_crash_on_or_store(text, words):
    assert words in refusal(hygiene.loads, text).message


def test_loads_names_the_root_by_the_given_field():
    assert refusal(hygiene.loads, "[1,", field="line").details["field"] == "line"
    assert refusal(hygiene.loads, '{"data": {"x": "\\ud800"}}', field="line").details["field"] == "data.x"


def test_odd_keys_are_quoted_in_the_path():
    assert refusal(hygiene.check_tree, {"a b": {"\x85": "\x00"}}).details["field"] == '["a b"]["\\u0085"]'
    assert hygiene.path_join("facts[0].data", "note") == "facts[0].data.note"
