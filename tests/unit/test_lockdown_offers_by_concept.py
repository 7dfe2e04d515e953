"""Every offer of next_inputs comes from the concept module of its fact type (fact_types.OFFERS), except the
concepts still offered by inputs/inputs_play themselves (turns and actions, items and crafting: decision 0029),
and every concept's offer function offers only its own concept's types."""
import functools

import pytest

from service.rules.lockdown import LOCKDOWN, fact_types, inputs
from service.rules.lockdown.fact_types import CONCEPT_MODULES, FACT_TYPES, OFFERS, offers_problems
from service.rules.lockdown.generate import facts_of, generate_game

#: concepts whose offers are still written in inputs/inputs_play (not in a module of their own yet): none now
STILL_IN_THE_DISPATCHER: set[str] = set()


def _games():
    for seed in range(8):
        players = 1 + seed % 5
        mode = "solo" if players == 1 and seed % 2 else ("coop" if seed % 7 == 0 else "standard")
        yield generate_game(seed, players=players, mode=mode, max_rounds=20 if seed % 3 else 3 + seed % 4)


@pytest.fixture
def recorded(monkeypatch):
    """Wrap every registered offer function (where the dispatcher looks it up: its module's attribute) so that
    each offer it hands out is remembered with the concept that offered it."""
    seen: dict[int, str] = {}
    wrong: list[str] = []

    def wrap(concept, module, f):
        @functools.wraps(f)
        def recording(*args, **kwargs):
            out = f(*args, **kwargs)
            for e in out or ():
                seen[id(e)] = concept
                if FACT_TYPES[e.type].concept != concept:
                    wrong.append(f"{module.__name__}.{f.__name__} offers {e.type} ({FACT_TYPES[e.type].concept})")
            return out
        return recording

    for concept, functions in OFFERS.items():
        module = CONCEPT_MODULES[concept]
        for f in functions:
            monkeypatch.setattr(module, f.__name__, wrap(concept, module, f))
    return seen, wrong


def _check(state, seen, wrong, counts):
    seen.clear()
    # the dispatcher's composition: LOCKDOWN.next_inputs then adds warrants' free `by` (new offers; decision 0039)
    now = inputs.next_inputs(state)
    assert [e.type for e in LOCKDOWN.next_inputs(state)] == [e.type for e in now]
    CONCEPT_MODULES["a coarse record"].coarse_inputs(state)
    for e in now:
        concept = FACT_TYPES[e.type].concept
        if concept in STILL_IN_THE_DISPATCHER:
            continue
        assert seen.get(id(e)) == concept, f"{e.type} offered by the dispatcher, not by {concept}'s module: {e}"
        counts[e.type] = counts.get(e.type, 0) + 1
    assert not wrong, wrong


def test_every_offer_comes_from_the_module_of_its_concept(recorded):
    seen, wrong = recorded
    counts: dict[str, int] = {}
    for setup, generated in _games():
        state = LOCKDOWN.initial_state(setup)
        for fact in facts_of(generated):
            _check(state, seen, wrong, counts)
            state, _ = LOCKDOWN.apply(state, fact)
        _check(state, seen, wrong, counts)  # after the end: the victory check's reveals
    moved = {t for t, ft in FACT_TYPES.items() if ft.concept not in STILL_IN_THE_DISPATCHER}
    never = moved - set(counts) - {"RecordGap", "CharacterEscaped"}  # coarse record: lenient games only
    assert not never, f"these games should see every moved type offered, not: {sorted(never)}"


def test_the_dispatcher_concepts_are_the_ones_without_a_module():
    assert STILL_IN_THE_DISPATCHER == set(fact_types.CONCEPTS) - set(CONCEPT_MODULES)


def test_the_offer_registry_is_complete_and_each_function_is_its_concepts():
    assert offers_problems(OFFERS, CONCEPT_MODULES) == []
    movement = CONCEPT_MODULES["movement and exploration"]
    missing = dict(OFFERS, **{"movement and exploration": OFFERS["movement and exploration"][1:]})
    assert offers_problems(missing, CONCEPT_MODULES) == ["movement and exploration does not list: pending_offers"]
    foreign = dict(OFFERS, setup=OFFERS["setup"] + (movement.offers,))
    assert offers_problems(foreign, CONCEPT_MODULES) == [
        "setup lists offers of other modules: service.rules.lockdown.movement.offers"]
