"""Seeded random play (the SYNTHETIC board unless told): legal games for tests, demos and benchmarks.

Every fact is picked among ``next_inputs`` options; free values (dice, tokens, cards)
come from ``random.Random(seed)``. The same seed always gives the same game.

    >>> setup, facts = generate_game(7, players=2, max_rounds=1)
    >>> facts[0][0], facts[-1][0]
    ('BoardPrepared', 'GameEnded')
"""
from __future__ import annotations

import random
from typing import Any

from service.rules.base import Expected, Fact, Seat, Setup
from service.rules.kit.player import OMIT, GeneratedFact, any_option, facts_of, fill, play  # noqa: F401 (facts_of: old path)
from service.rules.lockdown.components import COLONY, EVENT_CARDS, EXPLORATION, NOISE_DIE, ROOMS
from service.rules.lockdown.inputs_play import SEARCH_ITEMS, is_table_effect
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.state import FIRST_PLAYER, LockdownState

MAX_FACTS = 20_000  # a safety net; real generated games are far shorter


def generate_game(seed: int, players: int = 4, mode: str = "standard",
                  max_rounds: int = 3, board: str = "synthetic") -> tuple[Setup, list[GeneratedFact]]:
    """A legal random game of ``players`` seats.

    It stops with GameEnded (abandoned) after ``max_rounds`` rounds unless the game ended
    before by a real end condition (time out, alarm procedure, base destroyed, nobody left);
    with ``max_rounds`` ≥ 15 it always ends by itself. After a real ending the hidden
    information of the victory check (active plan, final scans, objectives) is recorded.
    ``board`` is the header's board side: ``"basic"`` (the real board, whose corridors are numbered from each
    room) is stored as the ruleset's default, i.e. no ``board`` option, as the new-game form stores it.
    """
    rng = random.Random(seed)
    setup = Setup(players=tuple(Seat(i, f"Player {i}") for i in range(1, players + 1)), mode=mode,
                  options={} if board == "basic" else {"board": board})

    def stop(state: LockdownState, n: int) -> GeneratedFact | None:
        if n >= MAX_FACTS or (state.clock.round > max_rounds and state.clock.step == FIRST_PLAYER and not state.clock.pending):
            return ("GameEnded", None, {"ending": "abandoned", "note": f"generated game stopped after "
                                        f"{state.clock.round - 1} round(s)"})
        return None

    state, facts = play(LOCKDOWN, setup, rng, choose=_strategy, fillers=FILLERS, finished=lambda s: s.end.ended,
                        stop=stop, max_facts=MAX_FACTS)
    # the victory check's hidden information: what is asked next, in order, until nothing is
    _, tail = play(LOCKDOWN, setup, rng, choose=lambda rng, s, offered: offered[0], fillers=FILLERS,
                   finished=lambda s: False, max_facts=MAX_FACTS, start=(state, facts))
    return setup, tail


def sample_game(seed: int) -> tuple[Setup, list[Fact]]:
    """A short generated game for the ruleset contract: every table size and mode, three rounds at most."""
    players = 1 + seed % 5
    mode = "solo" if players == 1 and seed % 2 else ("coop" if seed % 7 == 0 else "standard")
    setup, generated = generate_game(seed, players=players, mode=mode, max_rounds=3)
    return setup, facts_of(generated)


PRIORITY = ("ObjectiveChosen", "ComputerCardRevealed", "ObjectivesDealt", "ContingencyTokensDealt", "ItemGained")
SURVIVAL = ("lock_in", "escape_bunker", "enter_pod")
USEFUL_ROOM_ACTIONS = ("send_signal", "read_archive", "heal", "research", "take_egg", "alarm", "take_item",
                       "restore_power", "start_self_destruct", "decontaminate", "gather_information", "call_elevator")


def _strategy(rng: random.Random, state: LockdownState, offered: list[Expected]) -> Expected:
    """Now and then, after an event card, a table effect; otherwise a fact of play (``_choose``)."""
    effects = [e for e in offered if is_table_effect(e)]
    expected = [e for e in offered if e.type != "GameEnded" and not is_table_effect(e)]
    effect = _table_effect(rng, state, effects) if expected else rng.choice(effects)
    return effect if effect is not None else _choose(rng, state, expected)


def _choose(rng: random.Random, state: LockdownState, expected: list[Expected]) -> Expected:
    expected = [e for e in expected if not e.options.get("free")] or expected  # optional free crafts: never taken
    first = [e for e in expected if e.type in PRIORITY]
    if first and (state.clock.phase != "setup" or rng.random() < 0.9):
        return first[0]
    moves = [e for e in expected if e.type in ("CharacterMoved", "CharacterMovedCarefully")]
    passes = [e for e in expected if e.type == "Passed"]
    if not (moves or passes):
        return rng.choice([e for e in expected if e.type not in PRIORITY] or expected)
    rooms = [e for e in expected if e.type == "RoomActionUsed"]
    survive = [e for e in rooms if e.options["action"][0] in SURVIVAL]
    late = state.clock.time >= 7 or state.systems.alarm is not None or state.systems.self_destruct is not None
    if survive and (late or rng.random() < 0.3):
        return rng.choice(survive)
    fights = [e for e in expected if e.type in ("CharacterShot", "MeleeAttacked")]
    if fights and rng.random() < 0.6:
        shots = [f for f in fights if f.type == "CharacterShot"]
        return rng.choice(shots if shots and rng.random() < 0.8 else fights)
    useful = [e for e in rooms if e.options["action"][0] in USEFUL_ROOM_ACTIONS]
    if useful and rng.random() < 0.35:
        return rng.choice(useful)
    other = [e for e in expected if e.type in ("RoomSearched", "HeavyObjectPickedUp", "ItemCrafted", "ItemsTraded",
                                                "ActionCardPlayed", "ItemUsed",
                                                "ComputerActionUsed")] + rooms
    if other and rng.random() < 0.2:
        return rng.choice(other)
    if moves and passes:
        # mostly act, sometimes pass; careful moves are rarer than plain ones
        if rng.random() < 0.25:
            return passes[0]
        goal = _toward_safety(state, moves) if late else []
        if goal and rng.random() < 0.8:
            return rng.choice(goal)
        plain = [m for m in moves if m.type == "CharacterMoved"]
        return rng.choice(plain if plain and rng.random() < 0.8 else moves)
    return rng.choice(moves or passes)


def _distances(state: LockdownState, goal: str) -> dict[str, int]:
    b = state.board
    dist = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt = []
        for place in frontier:
            for _, _, other in b.exits(place):
                if other not in dist:
                    dist[other] = dist[place] + 1
                    nxt.append(other)
        frontier = nxt
    return dist


def _toward_safety(state: LockdownState, moves: list[Expected]) -> list[Expected]:
    """Late in the game, head for the Isolation Room or the exit (the generator's only strategy)."""
    if not state.board.has_graph:
        return []
    goal = "isolation_room" if state.ship.isolation_open else (state.board.exit_space or "isolation_room")
    dist = _distances(state, goal)
    here = dist.get(state.crew.characters[moves[0].actor].room, 99)
    return [m for m in moves if dist.get(m.options["to_room"][0], 99) < here]


# how often the generator records each table effect, relative to the others (0: offered, never generated)
EFFECT_WEIGHTS = {
    "WoundSuffered": 6, "ContaminationCardReceived": 4, "NoiseMarkerPlaced": 3, "FirePlaced": 3,
    "MalfunctionPlaced": 3, "IntruderMoved": 2, "WoundDressed": 2, "WoundHealed": 2, "SlimeChanged": 2,
    "ContaminationScanned": 2, "KnowledgeGained": 2, "FireRemoved": 2, "DoorChanged": 2, "MalfunctionRemoved": 1,
    "NoiseMarkerRemoved": 1, "IntruderPlaced": 1, "IntruderInjured": 1, "IntruderRemoved": 1, "PowerChanged": 1,
    "ItemGained": 1, "ItemUsed": 1, "ActionCardPlayed": 1, "LarvaRemoved": 1, "WeaknessRevealed": 1,
    "ContingencyTokenPeeked": 1, "ContingencyTokenTaken": 0.5, "ContingencyTokenRevealed": 0.5,
    "ObjectiveRevealed": 0.3, "ObjectivesDealt": 1, "ContingencyTokensDealt": 1, "SelfDestructStarted": 0.1,
    "CharacterDied": 0.1,
}


def _table_effect(rng: random.Random, state: LockdownState, effects: list[Expected]) -> Expected | None:
    """Now and then, right after an event card, the table resolves its effect with facts — always one that
    ``next_inputs`` offers (``effects``), picked by type with ``EFFECT_WEIGHTS``."""
    if not effects or state.clock.phase != "event" or state.clock.step != "colony" or state.clock.pending or rng.random() > 0.6:
        return None
    by_type: dict[str, list[Expected]] = {}
    for e in effects:
        if EFFECT_WEIGHTS.get(e.type, 0) > 0:
            by_type.setdefault(e.type, []).append(e)
    if not by_type:
        return None
    types = list(by_type)
    t = rng.choices(types, weights=[EFFECT_WEIGHTS[x] for x in types])[0]
    return rng.choice(by_type[t])


def _fill(rng: random.Random, state: LockdownState, e: Expected) -> dict[str, Any]:
    return fill(rng, state, e, FILLERS)


_OMIT = OMIT
_default = any_option


def _tiles(rng, state, e, options, data):
    if rng.random() < 0.5:
        return _OMIT  # tiles face down and unknown: revealed one by one
    tiles: dict[str, Any] = {}
    for kind in ("I", "II"):
        slots = list(state.board.slots[kind])
        rooms = [r.id for r in ROOMS if r.kind == kind]
        rng.shuffle(rooms)
        for slot, room in zip(slots, rooms):
            tiles[slot] = room
    return tiles


def _token(rng, state, e, options, data):
    lo, hi = EXPLORATION["items_range"]
    return {"effect": rng.choice(EXPLORATION["effects"]), "items": rng.randint(max(lo, 1), hi)}


def _noise(rng, state, e, options, data):
    return rng.choice(NOISE_DIE["faces"])


def _bag_draw(rng, state, e, options, data):
    tokens = [t for t in options if state.colony.bag.get(t, 0) > 0]
    return rng.choices(tokens, weights=[state.colony.bag[t] for t in tokens])[0]


def _token_number(rng, state, e, options, data):
    pairs = COLONY["token_numbers_lit_dark"].get(data.get("token"))
    if not pairs or data.get("token") == "blank":
        return _OMIT
    return rng.choice(rng.choice(pairs))


def _discarded(rng, state, e, options, data):
    return 0 if rng.random() < 0.7 else rng.choice(options)


def _removed(rng, state, e, options, data):
    return list(options)  # every removable marker goes (the options are in powered sectors)


def _blood(rng, state, e, options, data):
    from service.rules.lockdown.components import ATTACK_CARDS
    p = state.clock.pending[0]
    it = next(i for i in state.colony.intruders if i.id == p.intruder)
    values = [b for c in ATTACK_CARDS for b in c.blood]
    return [rng.choice(values) for _ in range(2 if it.kind in ("breeder", "queen") else 1)]


def _objectives(rng, state, e, options, data):
    n = 1 if state.setup.mode == "coop" else 2
    pool = ["send_signal", "knowledge_at_least:5", "knowledge_token_active", "nest_destroyed", "sole_survivor",
            "weakness_discovered:2", "sectors_explored:S-01,S-02", f"player_must_not_survive:{e.actor % len(state.seats) + 1}"]
    picked = rng.sample(pool, n)
    if state.setup.mode in ("solo", "coop"):  # Solo/Koop cards only: no betrayal card (seed 000 L4499–4500)
        safe = [o for o in pool if not o.startswith(("player_must_not_survive", "sole_survivor"))]
        out: list[str] = []
        for o in picked:  # a deterministic swap keeps the random stream (and the demo games) unchanged
            out.append(o if o in safe else next(x for x in safe if x not in picked and x not in out))
        picked = out
    return picked


def _contingency(rng, state, e, options, data):
    return [rng.choice(["signal", "knowledge", "pods", "isolation", "save_all", "unknown"])
            for _ in range(2 if len(state.seats) <= 2 else 1)]


def _drawn(rng, state, e, options, data):
    return [rng.choice(["action", "action", "action", "contamination"]) for _ in range(4)]


def _corridors(rng, state, e, options, data):
    return list(EVENT_CARDS[data["card"]].corridors)


def _first_player(rng, state, e, options, data):
    return options[0] if rng.random() < 0.5 else rng.choice(options)


ACTION_CARD_NAMES = ("Adrenaline", "Interruption", "Repair")  # example names; not cards with modelled rules


def _action_card(rng, state, e, options, data):
    return rng.choice(ACTION_CARD_NAMES)


def _gained_item(rng, state, e, options, data):
    if options:
        return rng.choice(options)
    return rng.choice(SEARCH_ITEMS[rng.choice(list(SEARCH_ITEMS))])


def _returned(rng, state, e, options, data):
    """The card not kept on Search when the offer names the deck's known next cards: the other one, without a draw
    of the random stream (so the games stay those generated before the item decks, decision 0037)."""
    if not options:  # a free field: the table did not see it (as most tables would not say), so it is left out
        return _OMIT
    return next((o for o in options if o != data.get("kept")), options[0])


def _objective(rng, state, e, options, data):
    if options:
        return rng.choice(options)
    if state.setup.mode in ("solo", "coop"):
        return rng.choice(["send_signal", "knowledge_at_least:5", "nest_destroyed"])
    return rng.choice(["send_signal", "knowledge_at_least:5", "nest_destroyed", "sole_survivor"])


def _by(rng, state, e, options, data):
    """The card or effect behind a table effect the state does not warrant (decision 0039): the event card being
    resolved (the generator records table effects right after one), else an example name."""
    from service.rules.lockdown.warrants import warrant
    if warrant(state, Fact(0, e.type, data, e.actor)) is not None:
        return _OMIT
    card = EVENT_CARDS.resolve(state.decks.last_event_card) if state.decks.last_event_card else None
    return f"event: {card.en}" if card is not None else rng.choice(ACTION_CARD_NAMES)


FILLERS = {
    **{(t, "by"): _by for t in ("CharacterDied", "KnowledgeGained", "ItemGained", "SelfDestructStarted",
                                "IntruderPlaced")},
    ("ActionCardPlayed", "card"): _action_card,
    ("CharacterMovedByEffect", "effect"): lambda rng, state, e, options, data: "vents",
    ("ItemGained", "item"): _gained_item,
    ("RoomSearched", "returned"): _returned,
    ("ObjectiveRevealed", "objective"): _objective,
    ("BoardPrepared", "tiles"): _tiles,
    ("RoomExplored", "token"): _token,
    ("NoiseRolled", "result"): _noise,
    ("EncounterTokenDrawn", "token"): _bag_draw,
    ("EncounterTokenDrawn", "number"): _token_number,
    ("ColonyTokenDrawn", "token"): _bag_draw,
    ("Passed", "discarded"): _discarded,
    ("NoiseMarkersCleared", "removed"): _removed,
    ("EventCardDrawn", "corridors"): _corridors,
    ("SetupCompleted", "first_player"): _first_player,
    ("InjuryCheckDrawn", "blood"): _blood,
    ("ObjectivesDealt", "objectives"): _objectives,
    ("ContingencyTokensDealt", "tokens"): _contingency,
    ("FinalScanRecorded", "drawn"): _drawn,
}
