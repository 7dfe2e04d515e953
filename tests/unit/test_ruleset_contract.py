"""The contract every registered ruleset keeps (run over service.rules.registry.RULESETS).

Generated games are legal and every generated fact was offered by ``next_inputs``; ``apply`` is pure; a game
folds the same after a trip through the notation; every fact type is documented; the kit's doctests and the
rules' doctests pass.
"""
from __future__ import annotations

import doctest
import importlib
import pkgutil
from uuid import uuid4

import pytest

import service.rules
from service.game import Game
from service.notation import parse, write_game
from service.rules.base import Fact, Seat, Setup
from service.rules.kit.facts import undocumented
from service.rules.kit.snapshot import digest, snapshot
from service.rules.registry import RULESETS, sample_game
from service.rules.replay import fold

RULESETS_ = [pytest.param(r, id=name) for name, r in sorted(RULESETS.items())]
SEEDS = range(8)


def _games(ruleset):
    return [sample_game(ruleset, seed) for seed in SEEDS]


def _offered(expected, fact: Fact) -> bool:
    """``fact`` is one of the offered kinds, by the offered actor, each field one of its legal values (a field
    whose options are None or empty is free; a list value is offered when each of its items is)."""
    for e in expected:
        if e.type != fact.type or e.actor != fact.actor or not set(fact.data) <= set(e.options):
            continue
        if all(_legal(e.options[k], v) for k, v in fact.data.items()):
            return True
    return False


def _legal(options, value) -> bool:
    if not options:
        return True
    if value in options:
        return True
    return isinstance(value, list) and all(v in options for v in value)


@pytest.mark.parametrize("ruleset", RULESETS_)
def test_generated_games_are_legal_and_every_fact_was_offered(ruleset):
    for setup, facts in _games(ruleset):
        state = ruleset.initial_state(setup)
        assert facts, "a sample game has facts"
        for fact in facts:
            assert _offered(ruleset.next_inputs(state), fact), (fact, [e.as_dict() for e in ruleset.next_inputs(state)])
            assert ruleset.check(state, fact) == [], fact
            state, _ = ruleset.apply(state, fact)


@pytest.mark.parametrize("ruleset", RULESETS_)
def test_apply_is_pure_and_deterministic(ruleset):
    setup, facts = sample_game(ruleset, 1)
    state = ruleset.initial_state(setup)
    for fact in facts:
        before = snapshot(state)
        after, consequences = ruleset.apply(state, fact)
        assert snapshot(state) == before, f"apply changed its input state at {fact}"
        again, consequences_again = ruleset.apply(state, fact)
        assert digest(snapshot(again)) == digest(snapshot(after)) and consequences_again == consequences, fact
        state = after


@pytest.mark.parametrize("ruleset", RULESETS_)
def test_fold_equals_fold_of_the_notation_round_trip(ruleset):
    for setup, facts in _games(ruleset)[:3]:
        game = Game(game_id=uuid4(), ruleset=ruleset.name, mode=setup.mode,
                    players=[{"seat": p.seat, "name": p.name} for p in setup.players], strict=True,
                    options=dict(setup.options), league=None, tags=[], played_on=None, title=None)
        game.record([{"type": f.type, "actor": f.actor, "data": dict(f.data)} for f in facts])
        parsed = parse(write_game(game), "round-trip.jsonl")
        h = parsed.header
        again = Setup(players=setup.players, mode=h["mode"], options=dict(h.get("options") or {}))
        read = [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"), f.get("visibility", "public"))
                for f in parsed.facts]
        ours, theirs = fold(ruleset, setup, facts).head, fold(ruleset, again, read).head
        assert digest(snapshot(theirs.state)) == digest(snapshot(ours.state))
        assert ruleset.score(theirs.state) == ruleset.score(ours.state)


@pytest.mark.parametrize("ruleset", RULESETS_)
def test_every_fact_type_is_documented(ruleset):
    assert ruleset.facts, "a ruleset names its fact types"
    assert undocumented(ruleset.facts, ruleset.field_kinds) == []
    generated = {f.type for _, facts in _games(ruleset) for f in facts}
    assert generated <= set(ruleset.facts), generated - set(ruleset.facts)
    for spec in ruleset.facts.values():  # each example is well shaped once its actor is given
        assert set(spec.example) <= {f.name for f in spec.fields}, spec.type


@pytest.mark.parametrize("ruleset", RULESETS_)
def test_interface_is_complete(ruleset):
    assert ruleset.name in RULESETS and ruleset.title and ruleset.modes
    for board in ruleset.boards:
        about = ruleset.board_about(board)
        assert about["id"] == board and about["name"]
    assert ruleset.board_about("no-such-board") is None


@pytest.mark.parametrize("ruleset", RULESETS_)
def test_the_new_game_form_offers_only_setups_the_ruleset_accepts(ruleset):
    """Every choice of ``setup_form`` (the page builds its fields from it alone) starts a game, at the
    largest table it offers; a value outside the choices does not."""
    form = ruleset.setup_form()
    seats = tuple(Seat(i + 1, f"P{i + 1}") for i in range(form["max_players"]))
    for key, option in form["options"].items():
        assert option["title"] and option["choices"], key
        for value, label in option["choices"]:
            assert label, (key, value)
            ruleset.initial_state(Setup(players=seats, mode=ruleset.modes[0], options={key: value}))
        with pytest.raises(ValueError):
            ruleset.initial_state(Setup(players=seats, mode=ruleset.modes[0], options={key: "no-such-choice"}))
    with pytest.raises(ValueError):
        ruleset.initial_state(Setup(players=seats + (Seat(len(seats) + 1, "one too many"),), mode=ruleset.modes[0]))


def _rules_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(service.rules.__path__, "service.rules."))


@pytest.mark.parametrize("name", _rules_modules())
def test_doctests(name):
    """The two-line examples in the rules' docstrings (cheap: about 120 examples in all)."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) of {name} failed"
