"""Random play: 200 generated games are legal and keep the invariants; folding is fast and pure."""
import json
import random
from dataclasses import FrozenInstanceError

from collections import Counter

import pytest

from service.rules.base import Fact
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.generate import _fill, facts_of, generate_game
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.components import COLONY
from service.rules.lockdown.state import DECK_SIZE, FIRE_MARKERS, MALFUNCTION_MARKERS, PLAYER

GAMES = [(seed, 1 + seed % 5, "solo" if seed % 5 == 0 and seed % 2 else ("coop" if seed % 7 == 0 else "standard"))
         for seed in range(200)]


def _invariants(before, after, fact, consequences):
    b = after.board
    for key in after.noise:  # every marker sits on a real corridor of this board
        assert key == "technical" or b.rooms_of(key), key
    for c in consequences:  # never a second marker in a corridor
        if c.type == "noise-placed":
            assert c.data["corridor"] not in before.noise, (fact, c)
    assert TECHNICAL not in after.doors and TECHNICAL not in after.destroyed_doors  # no doors in technical corridors
    assert not (after.doors & after.destroyed_doors)
    assert after.fires() <= FIRE_MARKERS and after.malfunctions() <= MALFUNCTION_MARKERS  # supplies never negative
    for r in after.rooms.values():  # no malfunction in the Nest, Contaminated Room or an unexplored room
        assert not r.malfunction or (r.explored and r.tile not in ("nest", "contaminated_room")), r
        assert r.items is None or r.items >= 0
    if after.phase != "setup":
        for ch in after.characters.values():  # every character in exactly one place or fate
            places = sum(ch.seat in after.characters_in(p) for p in after.rooms)
            pods = sum(1 for s in after.pods.values() if s == ch.seat)
            if ch.status == "base":
                assert ch.room in after.rooms and places == 1 and pods == 0, ch
            else:
                assert ch.room is None and places == 0, ch
                assert pods == (1 if ch.status == "pod" else 0), ch
                assert ch.status in ("pod", "isolation", "bunker", "evacuated", "dead"), ch
            assert ch.hand >= 0 and ch.deck >= 0 and ch.discard >= 0 and 0 <= ch.actions <= 2
            assert 0 <= ch.light <= 2 and len(ch.serious) <= 3
            assert 0 <= ch.knowledge <= 8 and ch.hands_used <= 2
            if ch.status != "dead":
                assert ch.hand + ch.deck + ch.discard == DECK_SIZE + ch.contamination, ch
    for i in after.intruders:
        assert i.room in after.rooms and i.injuries >= 0
    for kind, cap in COLONY["figures"].items():  # figure caps (8 adults …)
        assert sum(1 for i in after.intruders if i.kind == kind) <= cap, kind
    assert all(n >= 0 for n in after.bag.values()) and all(n >= 0 for n in after.supply.values())
    assert 0 <= after.eggs
    if after.phase == PLAYER and after.turn is not None and not after.pending:
        assert not after.characters[after.turn].passed
    for c in consequences:  # the turn goes clockwise to the next player who has not passed
        if c.type == "turn" and before.turn is not None:
            seats = before.seats
            start = seats.index(before.turn) + 1
            expected = next(s for s in seats[start:] + seats[:start] if not after.characters[s].passed)
            assert c.data["seat"] == expected


def _mode(seed):
    players = 1 + seed % 5
    mode = "solo" if players == 1 and seed % 2 else ("coop" if seed % 7 == 0 else "standard")
    return players, mode


def _play(seed, max_rounds=None):
    """Play generated game ``seed`` checking every fact; without ``max_rounds``, the fixed corpus's game ``seed``."""
    if max_rounds is None:
        from tests.unit.test_fixed_corpus import generated_game

        setup, generated = generated_game(seed)
        players = len(setup.players)
    else:
        players, mode = _mode(seed)
        setup, generated = generate_game(seed, players=players, mode=mode, max_rounds=max_rounds)
    state = LOCKDOWN.initial_state(setup)
    for fact in facts_of(generated):
        assert LOCKDOWN.check(state, fact) == [], fact
        before = state
        state, consequences = LOCKDOWN.apply(state, fact)
        _invariants(before, state, fact, consequences)
    assert state.ended
    result = LOCKDOWN.score(state)
    assert result is not None and len(result.players) == players
    return state, result


@pytest.mark.parametrize("seed,players,mode", GAMES)
def test_generated_game_is_legal_and_keeps_invariants(seed, players, mode):
    if mode == "solo" and players != 1:
        mode = "standard"
    setup, generated = generate_game(seed, players=players, mode=mode)
    state = LOCKDOWN.initial_state(setup)
    for fact in facts_of(generated):
        assert LOCKDOWN.check(state, fact) == [], fact
        before = state
        state, consequences = LOCKDOWN.apply(state, fact)
        _invariants(before, state, fact, consequences)
    assert state.ended
    if generated[-1][0] == "GameEnded":
        assert LOCKDOWN.score(state).ending == "abandoned" and state.round >= 3
    else:  # ended early by a real end condition
        assert state.ending in ("time_out", "alarm_procedure", "base_destroyed", "no_characters_left")


def test_hundred_full_games_end_by_real_conditions_with_a_score():
    endings = Counter()
    outcomes = Counter()
    for seed in range(100):
        state, result = _play(seed, max_rounds=20)
        endings[state.ending] += 1
        outcomes.update(p.outcome for p in result.players)
    assert "abandoned" not in endings
    assert len(endings) >= 2, endings
    assert outcomes["won"] + outcomes["lost"] > 0, outcomes


@pytest.mark.slow
def test_thousand_generated_games_fold_without_violations():
    endings = Counter()
    for seed in range(1000):  # the fixed corpus's 1,000 games (every sixth on the basic board), generated once
        state, _ = _play(seed)
        endings[state.ending] += 1
    assert {"time_out", "no_characters_left"} <= set(endings), endings


def test_generator_is_deterministic_and_json_clean():
    a = generate_game(42, players=4)
    b = generate_game(42, players=4)
    assert a == b
    assert generate_game(43, players=4)[1] != a[1]
    for t, actor, data in a[1]:
        json.dumps(data)


def test_generated_games_use_all_core_fact_types():
    seen = set()
    for seed in range(30):
        seen |= {t for t, _, _ in generate_game(seed, players=1 + seed % 5, max_rounds=3 + seed % 5)[1]}
    assert {"BoardPrepared", "CharacterChosen", "SetupCompleted", "FirstPlayerPassed", "CharacterMoved",
            "CharacterMovedCarefully", "Passed", "RoomExplored", "NoiseRolled", "EncounterTokenDrawn",
            "TimeAdvanced", "NoiseMarkersCleared", "EventCardDrawn", "ColonyTokenDrawn", "CssTokenRevealed",
            "GameEnded"} <= seen


def test_every_offered_option_is_legal():
    rng = random.Random(5)
    setup, generated = generate_game(5, players=3)
    state = LOCKDOWN.initial_state(setup)
    for seq, fact in enumerate(facts_of(generated)):
        for e in LOCKDOWN.next_inputs(state):
            data = _fill(rng, state, e)
            assert LOCKDOWN.check(state, Fact(seq, e.type, data, e.actor)) == [], (e, data)
        state, _ = LOCKDOWN.apply(state, fact)


def test_apply_never_mutates_and_states_are_frozen():
    setup, generated = generate_game(9, players=3)
    state = LOCKDOWN.initial_state(setup)
    for fact in facts_of(generated):
        snapshot = repr(state)
        new, _ = LOCKDOWN.apply(state, fact)
        assert repr(state) == snapshot
        assert new is not state
        state = new
    with pytest.raises(FrozenInstanceError):
        state.round = 99
    with pytest.raises(TypeError):
        state.rooms["slot-01"] = None
    with pytest.raises(FrozenInstanceError):
        state.characters[1].hand = 9


def test_a_thousand_generated_facts_fold_legally():
    """Every generated fact passes check() at its step (its speed is bench/fold.py's, not a test's)."""
    games = [generate_game(seed, players=5, max_rounds=14) for seed in range(4)]
    assert sum(len(g) for _, g in games) >= 1000
    folded = 0
    for setup, generated in games:
        state = LOCKDOWN.initial_state(setup)
        for fact in facts_of(generated)[: 1000 - folded]:
            assert LOCKDOWN.check(state, fact) == [], (fact.seq, fact.type)
            state, _ = LOCKDOWN.apply(state, fact)
            folded += 1
    assert folded == 1000
