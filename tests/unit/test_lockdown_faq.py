"""The official Lockdown FAQ (25.03.2022) rulings on mechanics, as folded games (shared/rules/faq_lockdown.md).

Rulings on final scoring (entries 5, 6, 8, 12, 21, 31 at the victory check) are in test_lockdown_scoring.py and the
component counts (4, 21) in test_lockdown_catalog.py; here the same entries are checked where the FOLD decides
(who dies, when the game ends). Entries 20, 22, 23, 24–27, 29–30 concern expansions, the original Nemesis or card
names that the ruleset does not catalogue, and are not covered.
"""
import pytest

from service.rules.base import Seat, Setup
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import Game, new_game
from tests.unit.test_lockdown_examples import all_pass, due, next_round, ok, rules, types


def setup_game(characters, board="basic", tokens=None):
    """A game set up as a table records it, contingency tokens dealt during setup (so the neutral pool is right)."""
    n = len(characters)
    g = Game(Setup(players=tuple(Seat(i, f"P{i}") for i in range(1, n + 1)), options={"board": board}))
    ok(g.push("BoardPrepared", board=board))
    for seat, char in enumerate(characters, start=1):
        ok(g.push("CharacterChosen", seat, character=char))
    for seat, held in (tokens or {}).items():
        ok(g.push("ContingencyTokensDealt", seat, tokens=held))
    ok(g.push("SetupCompleted"))
    return g


def rounds_until(g, space, css=None):
    """Play empty rounds until the time token stands on ``space`` (a player phase is open)."""
    css = css or {}
    while g.state.time_space != space:
        all_pass(g)
        if g.state.step == "css_launch":
            ok(g.push("CssTokenRevealed", token=css.get(g.state.time_space, "NONE")))
        ok(g.push("TimeAdvanced"))
        assert not g.state.ended
        ok(g.push("NoiseMarkersCleared", removed=[]))
        while g.state.pending:
            ok(g.push("IntruderAttacked", None, intruder=g.state.pending[0].intruder, card="Evolve"))
        ok(g.push("EventCardDrawn", card="lurking"))
        ok(g.push("ColonyTokenDrawn", token="blank"))
        ok(g.push("FirstPlayerPassed", g.state.first_player))


def pass_until(g, seat):
    while g.state.turn != seat:
        ok(g.push("Passed", g.state.turn))


# --- A.1 Errata ------------------------------------------------------------------------------------------------

def test_faq01_queen_token_drawn_with_a_character_in_the_nest():
    """faq_lockdown.md 1 (Errata, rulebook p.13 misprint): a Queen token drawn in bag development with a character in
    the Nest places the Queen there and resolves an Encounter with that token — it is NOT returned to the bag. Only
    with nobody in the Nest does the token go back and 1 egg is added. (Colony step: seed 000 L1817–1857.)"""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1}))
    ok(g.push("NoiseMarkerPlaced", None, room="nest", corridor=2))
    ok(g.push("Passed", 1, discarded=2))  # 3 cards left
    ok(g.push("Passed", 2))
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    ok(g.push("EventCardDrawn", card="lurking"))
    bag = sum(g.state.bag.values())
    ok(g.push("ColonyTokenDrawn", token="queen"))
    assert [i.kind for i in g.state.intruders_in("slot-05")] == ["queen"] and g.state.in_combat(1)
    assert g.state.bag["queen"] == 0 and sum(g.state.bag.values()) == bag - 1 and g.state.eggs == 5
    assert g.state.noise == frozenset()  # the encounter cleared the Nest's corridors
    assert g.state.pending[0].kind == "attack" and g.state.pending[0].seat == 1  # 3 < 4: surprise attack
    ok(g.push("IntruderAttacked", None, intruder="i1", card="Evolve"))  # a miss
    ok(g.push("FirstPlayerPassed", 1))
    all_pass(g)
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    ok(g.push("IntruderAttacked", None, intruder="i1", card="Evolve"))
    ok(g.push("EventCardDrawn", card="lurking"))
    assert rules(g.check("ColonyTokenDrawn", token="queen")) == ["token-not-in-bag"]


def test_faq01_variant_queen_token_with_nobody_in_the_nest_adds_an_egg():
    """faq_lockdown.md 1, variant: nobody in the Nest → the Queen token returns to the bag and 1 egg is added."""
    g = new_game(2, characters=["survivor", "janitor"])
    all_pass(g)
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    ok(g.push("EventCardDrawn", card="lurking"))
    bag = dict(g.state.bag)
    ok(g.push("ColonyTokenDrawn", token="queen"))
    assert dict(g.state.bag) == bag and g.state.eggs == 6 and not g.state.intruders


def test_faq02_items_work_only_on_their_user_unless_the_item_says_otherwise():
    """faq_lockdown.md 2 (Errata): a Medkit (Clothes, Fire Blanket, Research Documents) cannot be used on another
    character: trade it, then the other uses it on themself. Only an item whose text says so (Scalpel: "1 chosen
    Character (including yourself)") affects another character."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("ItemGained", 2, item="Medkit", colour="green"))
    ok(g.push("ItemGained", 2, item="Scalpel"))
    ok(g.push("WoundSuffered", 1, kind="serious"))
    ok(g.push("CharacterMoved", 1, to_room="repository", corridor=1))  # the Janitor is there: no noise roll
    ok(g.push("Passed", 1))
    assert rules(g.check("ItemUsed", 2, item="Medkit", cost=1, discarded=True, target=1)) == [
        "item-on-other-character"]
    ok(g.push("ItemsTraded", 2, **{"with": 1, "give": ["Medkit"]}))
    next_round(g)  # seat 2 starts round 2
    ok(g.push("Passed", 2))
    ok(g.push("ItemUsed", 1, item="Medkit", cost=1, discarded=True, note="dressed her serious wound"))
    ok(g.push("WoundDressed", 1))
    c = g.state.characters[1]
    assert [w.dressed for w in c.serious] == [True] and not any(i.name == "Medkit" for i in c.items)
    # control: the Scalpel on another character is accepted
    ok(g.push("ContaminationCardReceived", 1))
    ok(g.push("ContaminationScanned", 1, infected=1, scope="all"))
    assert g.state.characters[1].larva
    next_round(g)
    pass_until(g, 2)
    ok(g.push("ItemUsed", 2, item="Scalpel", cost=1, discarded=True, target=1))
    ok(g.push("LarvaRemoved", 1))
    ok(g.push("WoundSuffered", 1, kind="serious"))
    c = g.state.characters[1]
    assert not c.larva and len(c.serious) == 2


def test_faq03_careful_move_revealing_danger_resolves_it():
    """faq_lockdown.md 3 (Errata; rulebook p.17 Danger note): Danger revealed during a Careful Movement is resolved:
    eligible stalkers in neighbouring rooms move in. No encounter, no bag draw, no noise roll. (Whether the careful
    move's own noise marker is placed too is an open point, not asserted.)"""
    g = new_game(2, board="synthetic", characters=["hacker", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="elevator_room_s01", corridor=2))
    ok(g.push("NoiseRolled", 1, result="silence"))
    ok(g.push("IntruderPlaced", None, kind="adult", room="slot-09"))  # C, a neighbour of B (slot-06)
    bag = dict(g.state.bag)
    ok(g.push("CharacterMovedCarefully", 1, to_room="slot-06", corridor=1, noise_corridor=2))
    ok(g.push("RoomExplored", 1, room="archive", token={"effect": "danger", "items": 1}))
    assert g.state.intruders[0].room == "slot-06" and g.state.in_combat(1)
    assert not g.state.pending and dict(g.state.bag) == bag
    assert ("NoiseRolled", 1) not in due(g) and ("EncounterTokenDrawn", 1) not in due(g)


# --- A.2 Rules --------------------------------------------------------------------------------------------------

def _alarm_at_10(characters):
    g = new_game(len(characters), characters=characters)
    ok(g.push("IntruderPlaced", None, kind="queen", room="slot-09"))
    rounds_until(g, 10)
    pass_until(g, 2)
    ok(g.push("CharacterMoved", 2, to_room="alert_room", corridor=1))
    ok(g.push("NoiseRolled", 2, result="silence"))
    ok(g.push("RoomActionUsed", 2, action="alarm"))
    assert g.state.board.time_label(g.state.alarm) == "05" and g.state.isolation_open
    rounds_until(g, 9, css={10: "NONE"})
    pass_until(g, 1)
    ok(g.push("RoomActionUsed", 1, action="lock_in"))
    ok(g.push("NoiseRolled", 1, result="silence"))
    assert g.state.characters[1].status == "isolation"
    return g


def test_faq05_alert_procedure_ending_is_resolved_as_a_time_out():
    """faq_lockdown.md 5 (Rules Q1): when the Alert procedure ends the game (the time token leaves its space), resolve
    it exactly as time running out: everyone in the Facility not locked in Isolation dies; stalkers survive. The
    game is over during event step 5 (steps 6–10 are not resolved). (Alarm: seed 000 L2742–2760.)"""
    g = _alarm_at_10(["survivor", "janitor"])
    rounds_until(g, 5, css={10: "NONE", 8: "NONE", 6: "NONE"})
    all_pass(g)
    ok(g.push("TimeAdvanced"))
    assert g.state.ended and g.state.ending == "alarm_procedure" and g.state.time_label == "04"
    assert g.state.characters[2].status == "dead" and g.state.characters[1].status == "isolation"
    assert not g.state.queen_killed and [i.kind for i in g.state.intruders] == ["queen"]
    assert rules(g.check("NoiseMarkersCleared", removed=[])) == ["game-over"]


def test_faq06_alert_ending_with_active_autodestruction_destroys_the_facility():
    """faq_lockdown.md 6 (Rules Q1): if the Autodestruction sequence is active when the Alert procedure ends the game,
    the Facility is destroyed: everyone in it dies, even in the Isolation Room; stalkers die, the Queen counts as
    killed. Only Bunker and CSS escapees go on. (Red token: started on 9 → yellow on 6 → red on 3.)"""
    g = _alarm_at_10(["survivor", "janitor", "sentry"])
    ok(g.push("SelfDestructStarted"))  # time on 9
    assert g.state.self_destruct == ("yellow", g.state.board.time_spaces.index(6))
    rounds_until(g, 6)
    assert g.state.self_destruct == ("red", g.state.board.time_spaces.index(3)) and g.state.gate_open
    pass_until(g, 3)
    ok(g.push("CharacterMoved", 3, to_room="slot-16", corridor=1))  # the exit room (unknown on the basic board)
    ok(g.push("RoomExplored", 3, room="laboratory", token={"effect": "silence", "items": 1}))
    ok(g.push("RoomActionUsed", 3, action="escape_bunker", choice="rover"))
    assert g.state.characters[3].status == "bunker"
    rounds_until(g, 5, css={6: "NONE"})
    all_pass(g)
    ok(g.push("TimeAdvanced"))
    assert g.state.ended and g.state.end_effects == "base_destroyed"
    assert [g.state.characters[s].status for s in (1, 2, 3)] == ["dead", "dead", "bunker"]
    assert g.state.queen_killed and not g.state.intruders


def test_faq07_knee_wound_surcharges_only_the_first_move_of_the_first_turn():
    """faq_lockdown.md 7 (Rules Q2): the Knee serious wound makes the first Movement of the first turn cost more (+1
    assumed: the card's amount is not in the sources, so the table records it as ``surcharge``); a Movement in a later
    turn costs normally; dressed, no surcharge."""
    g = new_game(2, characters=["sentry", "janitor"])
    ok(g.push("WoundSuffered", 1, kind="serious", card="Knee"))
    # (A) turn 1, action 1: a Movement paying 1 card is refused (it needs 2)
    assert rules(g.check("CharacterMoved", 1, to_room="alert_room", corridor=1)) == ["knee-surcharge"]
    moves = [e for e in due_inputs(g) if e.type in ("CharacterMoved", "CharacterMovedCarefully")]
    assert moves and all(e.options["surcharge"][0] == 1 for e in moves)
    # (C) a first action that is not a Movement, then a Movement in the same turn: still the first one
    ok(g.push("ActionCardPlayed", 1, card="Search", note="no Movement"))
    assert rules(g.check("CharacterMoved", 1, to_room="alert_room", corridor=1)) == ["knee-surcharge"]
    hand = g.state.characters[1].hand
    ok(g.push("CharacterMoved", 1, to_room="alert_room", corridor=1, surcharge=1))
    assert g.state.characters[1].hand == hand - 2  # the first move of the first turn: 1 + 1

    # (B) turn 1 holds no Movement: a Movement in turn 2 costs normally, and a surcharge is refused
    g = new_game(2, characters=["sentry", "janitor"])
    ok(g.push("WoundSuffered", 1, kind="serious", card="Knee"))
    ok(g.push("ActionCardPlayed", 1, card="Search"))
    ok(g.push("ActionCardPlayed", 1, card="Rest", note="stands for the room action"))
    ok(g.push("Passed", 2))
    assert g.state.turn == 1
    assert rules(g.check("CharacterMoved", 1, to_room="alert_room", corridor=1, surcharge=1)) == ["surcharge-not-due"]
    hand = g.state.characters[1].hand
    ok(g.push("CharacterMoved", 1, to_room="alert_room", corridor=1))
    assert g.state.characters[1].hand == hand - 1

    # dressed (faq_lockdown.md 47): no surcharge at all
    g = new_game(2, characters=["sentry", "janitor"])
    ok(g.push("WoundSuffered", 1, kind="serious", card="Knee"))
    ok(g.push("WoundDressed", 1))
    ok(g.push("CharacterMoved", 1, to_room="alert_room", corridor=1))


def test_faq08_a_css_pod_can_launch_several_times():
    """faq_lockdown.md 8 (Rules Q3): a pod launches when its letter is revealed and can launch again on "Launch ALL"
    (or the reverse): each launch sends one of many cargo pods. (CSS: seed 000 L1545–1580.)"""
    g = new_game(2, characters=["survivor", "lab_rat"])
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="css_a", token={"effect": "silence", "items": 1}))
    ok(g.push("Passed", 1))
    ok(g.push("CharacterMoved", 2, to_room="slot-04", corridor=1))
    rounds_until(g, 10)
    pass_until(g, 1)
    ok(g.push("RoomActionUsed", 1, action="enter_pod"))
    all_pass(g)
    ok(g.push("CssTokenRevealed", token="ALL"))
    assert g.state.characters[1].status == "evacuated" and not g.state.ended
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    ok(g.push("EventCardDrawn", card="lurking"))
    ok(g.push("ColonyTokenDrawn", token="blank"))
    ok(g.push("FirstPlayerPassed", g.state.first_player))
    rounds_until(g, 8)
    ok(g.push("RoomActionUsed", 2, action="enter_pod"))  # pod A again: not used up
    ok(g.push("CssTokenRevealed", token="A"))
    assert [g.state.characters[s].status for s in (1, 2)] == ["evacuated", "evacuated"]
    assert g.state.launches == ("ALL", "A")


# --- A.3 Actions --------------------------------------------------------------------------------------------------

def test_faq09_an_action_card_needing_a_computer_room_needs_no_power():
    """faq_lockdown.md 9 (Actions Q1): a card that only needs a room with a computer (Sentry's Quarantine) works in an
    unpowered section; Computer Actions need power; a Malfunction makes the computer count as absent."""
    g = new_game(2, board="synthetic", characters=["sentry", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-12", corridor=2))
    ok(g.push("RoomExplored", 1, room="transmitter_control_room", token={"effect": "silence", "items": 1}))
    ok(g.push("ComputerCardRevealed", card="B"))
    assert g.state.powered("S-03") is False
    assert rules(g.check("ComputerActionUsed", 1, option=1)) == ["computer-unpowered"]
    ok(g.push("ActionCardPlayed", 1, card="Quarantine", note="doors closed around slot-09"))
    for n in g.state.board.numbers_of("slot-09"):
        ok(g.push("DoorChanged", None, room="slot-09", corridor=n, state="closed"))
    assert {g.state.board.corridor_key("slot-09", n) for n in (1, 2, 3, 4)} <= g.state.doors
    ok(g.push("MalfunctionPlaced", None, room="slot-12"))
    ok(g.push("Passed", 2))
    assert rules(g.check("ActionCardPlayed", 1, card="Quarantine")) == ["computer-malfunction"]
    g2 = new_game(2, board="synthetic", characters=["sentry", "janitor"])  # no computer in the Repository
    assert rules(g2.check("ActionCardPlayed", 1, card="Quarantine")) == ["card-needs-computer"]


# --- A.4 Rooms ------------------------------------------------------------------------------------------------------

def test_faq10_eggs_are_destroyed_by_any_injury_dealing_item():
    """faq_lockdown.md 10 (Rooms Q1): a Thermite Charge, Grenade or any injury-dealing item destroys 1 unheld egg per
    injury; the Nest never takes a malfunction marker; a burning Nest loses 1 egg at event step 8."""
    g = new_game(2, characters=["hacker", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1}))
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 1}))
    ok(g.push("ItemGained", 1, item="Thermite Charge"))
    ok(g.push("Passed", 2))
    assert rules(g.check("ItemUsed", 1, item="Thermite Charge", cost=1, discarded=True, room="nest", eggs=6)) == [
        "no-eggs-here"]
    ok(g.push("ItemUsed", 1, item="Thermite Charge", cost=1, discarded=True, room="nest", eggs=1))
    ok(g.push("NoiseRolled", 1, result="silence"))  # after every attempt on eggs (seed 000 L472–473)
    ok(g.push("FirePlaced", None, room="nest"))
    assert g.state.eggs == 4 and g.state.rooms["slot-05"].fire
    assert rules(g.check("MalfunctionPlaced", None, room="nest")) == ["no-malfunction-here"]
    all_pass(g)
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))  # step 8 follows: the Nest burns
    assert g.state.eggs == 3 and "egg-burned" in types(g)


def test_faq11_venting_the_nest_does_not_destroy_its_eggs():
    """faq_lockdown.md 11 (Rooms Q1): Vent Control kills everything in the vented room but deals no injuries, so the
    Nest's eggs stay. (Vent Control Room: seed 000 L2690–2705.)"""
    g = new_game(2, board="synthetic", characters=["survivor", "janitor"])
    ok(g.push("Passed", 1))
    ok(g.push("CharacterMoved", 2, to_room="elevator_room_s01", corridor=2))
    ok(g.push("NoiseRolled", 2, result="silence"))
    ok(g.push("CharacterMoved", 2, to_room="slot-06", corridor=1))
    ok(g.push("RoomExplored", 2, room="nest", token={"effect": "silence", "items": 1}))
    ok(g.push("CharacterMoved", 2, to_room="emergency_staircase_1", corridor=4))
    ok(g.push("NoiseRolled", 2, result="silence"))
    ok(g.push("CharacterMoved", 2, to_room="slot-11", corridor=1))
    ok(g.push("RoomExplored", 2, room="vent_control_room", token={"effect": "silence", "items": 1}))
    next_round(g)
    ok(g.push("IntruderPlaced", None, kind="adult", room="nest"))
    ok(g.push("RoomActionUsed", 2, action="vent", room="nest"))
    all_pass(g)
    assert not g.state.intruders and g.state.eggs == 5 and not g.state.nest_destroyed
    assert g.state.ventilation is None and g.state.phase == "event"


def test_faq12_several_characters_can_lock_themselves_in_the_isolation_room():
    """faq_lockdown.md 12 (Rooms Q2): a lock-in does not close the Isolation Room to others; each character locks into
    a separate chamber. (Isolation Room: seed 000 L2715–2730.)"""
    g = new_game(2, characters=["survivor", "lab_rat"])
    rounds_until(g, 8, css={10: "NONE"})
    assert g.state.isolation_open
    first = g.state.turn
    ok(g.push("RoomActionUsed", first, action="lock_in"))
    ok(g.push("NoiseRolled", first, result=2))  # a marker, no stalker: locked in
    assert g.state.characters[first].status == "isolation" and g.state.noise
    ok(g.push("RoomActionUsed", 3 - first, action="lock_in"))  # not refused as "room taken"
    ok(g.push("NoiseRolled", 3 - first, result="silence"))
    assert [g.state.characters[s].status for s in (1, 2)] == ["isolation", "isolation"]


def test_faq13_archive_peeks_at_any_inactive_contingency_token_once_per_character():
    """faq_lockdown.md 13 (Rooms Q3): the Archive works only with an inactive knowledge token: +2 knowledge, token
    flipped active, peek at any one contingency token (another player's or the pool's) except the active one.
    Nothing is taken; so once per character."""
    g = setup_game(["hacker", "sentry", "janitor"], tokens={1: ["signal"], 2: ["unknown"], 3: ["unknown"]})
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 1}))
    ok(g.push("RoomActionUsed", 1, action="read_archive"))
    c = g.state.characters[1]
    assert c.knowledge == 3 and c.knowledge_active
    assert rules(g.check("ContingencyTokenPeeked", 1, owner="active")) == ["active-plan-hidden"]
    ok(g.push("ContingencyTokenPeeked", 1, owner=2, token="knowledge"))
    assert g.state.characters[2].contingency == ("knowledge",) and g.state.characters[1].contingency == ("signal",)
    next_round(g)
    pass_until(g, 1)
    assert rules(g.check("RoomActionUsed", 1, action="read_archive")) == ["archive-once"]


def test_faq14_alert_room_takes_one_neutral_pool_token():
    """faq_lockdown.md 14 (Rooms Q3): the Alert Room's contingency action lets you look at 1 neutral-pool token and
    keep it (one action: not also the Alert procedure)."""
    g = setup_game(["survivor", "janitor", "sentry"], tokens={1: ["unknown"], 2: ["unknown"], 3: ["unknown"]})
    pool = len(g.state.pool)
    ok(g.push("Passed", 1))
    ok(g.push("CharacterMoved", 2, to_room="alert_room", corridor=1))
    ok(g.push("NoiseRolled", 2, result="silence"))
    ok(g.push("RoomActionUsed", 2, action="gather_information", token="pods"))
    assert g.state.characters[2].contingency == ("unknown", "pods") and len(g.state.pool) == pool - 1
    assert g.state.alarm is None


def test_faq15_repository_everyone_in_the_room_may_craft():
    """faq_lockdown.md 15 (Rooms Q4): when a character performs the Repository action, every character then in the
    Repository may craft once for free, needing only 1 of the 2 components; a character elsewhere may not."""
    g = new_game(3, characters=["sentry", "janitor", "hacker"])  # all three start in the Repository
    ok(g.push("CharacterMoved", 1, to_room="alert_room", corridor=1))  # the Sentry leaves it
    ok(g.push("NoiseRolled", 1, result="silence"))
    ok(g.push("Passed", 1))
    ok(g.push("ItemGained", 1, item="Oxygen Tank"))
    ok(g.push("ItemGained", 2, item="Lighter"))
    ok(g.push("ItemGained", 3, item="Battery"))
    assert rules(g.check("ItemCrafted", 3, item="Taser", ingredients=["Battery"], free=True)) == ["free-craft-not-due"]
    ok(g.push("ItemCrafted", 2, item="Flamethrower", ingredients=["Lighter"]))  # the Janitor's Repository action
    offered = [e for e in LOCKDOWN.next_inputs(g.state) if e.type == "ItemCrafted" and e.options.get("free")]
    assert [(e.actor, e.options["ingredients"]) for e in offered] == [(3, [["Battery"]])]  # the guided recorder offers it
    hand = g.state.characters[3].hand
    ok(g.push("ItemCrafted", 3, item="Taser", ingredients=["Battery"], free=True))
    assert g.state.characters[3].hand == hand and any(i.name == "Taser" for i in g.state.characters[3].items)
    assert rules(g.check("ItemCrafted", 1, item="Enviro-Suit", ingredients=["Oxygen Tank"], free=True)) == [
        "free-craft-not-in-repository"]
    ok(g.push("ItemGained", 3, item="Reagent"))
    assert rules(g.check("ItemCrafted", 3, item="Neutralizer", ingredients=["Reagent"], free=True)) == [
        "free-craft-not-due"]  # once only
    assert rules(g.check("ItemCrafted", 3, item="Taser", ingredients=["Battery"])) == ["out-of-turn"]


def test_faq28_covering_fire_moves_a_consenting_character_without_an_attack():
    """faq_lockdown.md 28 (PL errata): the Survivor's "Ogień osłonowy": discard 1 item; move yourself, or a chosen
    character from your room who agrees, to an adjacent room without triggering a night stalker attack."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="repository", corridor=1))
    ok(g.push("IntruderPlaced", None, kind="adult", room="repository"))
    card = {"card": "Ogień osłonowy", "character": 2, "to_room": "alert_room", "corridor": 1}
    assert rules(g.check("ActionCardPlayed", 1, **card, agreed=True)) == ["card-item-cost"]  # no Item card
    ok(g.push("ItemGained", 1, item="Flashlight"))
    assert rules(g.check("ActionCardPlayed", 1, **card, item="Flashlight")) == ["card-move-consent"]
    assert rules(g.check("ActionCardPlayed", 1, **card, item="Flashlight", agreed=False)) == ["card-move-consent"]
    ok(g.push("ActionCardPlayed", 1, **card, item="Flashlight", agreed=True))
    c1, c2 = g.state.characters[1], g.state.characters[2]
    assert c2.room == "alert_room" and c1.room == "repository" and not c1.items
    assert not any(p.kind == "attack" for p in g.state.pending)  # no night stalker attack
    assert g.state.intruders[0].room == "repository" and g.state.in_combat(1)
    ok(g.push("NoiseRolled", 2, result="silence"))  # the room entered is resolved as after a move


# --- A.5 Items ------------------------------------------------------------------------------------------------------

def test_faq17_the_probe_arm_lies_beside_the_board():
    """faq_lockdown.md 17 (Items Q1): the Xenobiologist's Probe Arm is not heavy: it lies next to her board in no hand
    slot, so she can carry 2 heavy items/objects and still use it."""
    g = Game(Setup(players=(Seat(1, "A"), Seat(2, "B")), options={"board": "basic"}))
    g.push("BoardPrepared", board="basic")
    g.push("CharacterChosen", 1, character="xenobiologist")
    g.push("CharacterChosen", 2, character="janitor")
    offer = next(e for e in due_inputs(g) if e.type == "ItemGained" and e.actor == 1)
    assert offer.options["item"] == ["Probe Arm"] and offer.options["where"] == ["backpack"]
    ok(g.push("ItemGained", 1, item="Probe Arm", colour="starting", where="backpack"))
    ok(g.push("SetupCompleted"))
    ok(g.push("ItemGained", 1, item="Pistol", where="hand", ammo=2, by="room: Guard Quarters"))  # named cause (decision 0039)
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1}))
    ok(g.push("RoomActionUsed", 1, action="take_egg"))
    ok(g.push("NoiseRolled", 1, result="silence"))
    assert g.state.characters[1].hands_used == 2
    ok(g.push("ItemUsed", 1, item="Probe Arm", note="still usable with both hands full"))


def due_inputs(g):
    from service.rules.lockdown import LOCKDOWN
    return LOCKDOWN.next_inputs(g.state)


def test_faq18_the_probe_arm_carcass_comes_from_the_supply():
    """faq_lockdown.md 18 (Items Q1): the carcass gained by the Probe Arm action comes from the supply (a torn-off
    sample): none must lie on the board, and the stalker is not harmed (no injury check)."""
    g = new_game(2, characters=["xenobiologist", "janitor"])
    ok(g.push("ItemGained", 1, item="Probe Arm", colour="starting", where="backpack"))
    ok(g.push("IntruderPlaced", None, kind="adult", room="repository"))
    ok(g.push("IntruderInjured", None, intruder="i1"))
    ok(g.push("InjuryCheckDrawn", blood=[4]))
    ok(g.push("ItemUsed", 1, item="Probe Arm", cost=1, gained="carcass"))
    c = g.state.characters[1]
    assert c.objects == ("carcass",) and g.state.carcasses == 1 and "repository" not in g.state.objects
    assert g.state.intruders[0].injuries == 1 and g.state.intruders[0].room == "repository"
    assert not g.state.pending


def test_faq19_scanning_infected_while_carrying_a_larva_kills():
    """faq_lockdown.md 19 (Items Q2; scanning p.22): Caffeine Pills scanning an INFECTED card while a larva is on the
    board kill the character: corpse and 1 creeper in the room, heavy objects dropped, other items out of the game,
    contingency tokens to the pool, the main gate opens (first death). (Death: seed 000 L3288–3310.)"""
    g = setup_game(["survivor", "janitor", "sentry"], tokens={1: ["unknown"], 2: ["signal"], 3: ["unknown"]})
    ok(g.push("ContaminationCardReceived", 2, count=2))
    ok(g.push("ContaminationScanned", 2, infected=1, scope="all"))
    assert g.state.characters[2].larva
    ok(g.push("ItemGained", 2, item="Caffeine Pills", by="event: Coolant Leak"))  # named cause (decision 0039)
    ok(g.push("Passed", 1))
    pool = g.state.pool
    ok(g.push("ItemUsed", 2, item="Caffeine Pills", discarded=True))
    ok(g.push("ContaminationScanned", 2, infected=1, scope="drawn"))
    c = g.state.characters[2]
    assert c.status == "dead" and c.cause == "infection" and c.items == ()
    assert "corpse:2" in g.state.objects["repository"]
    assert [i.kind for i in g.state.intruders_in("repository")] == ["creeper"]
    assert g.state.pool == pool + ("signal",) and g.state.gate_open and g.state.first_death


# --- A.8 PL errata ----------------------------------------------------------------------------------------------------

def test_faq31_the_facility_is_destroyed_when_the_time_token_leaves_the_red_slot():
    """faq_lockdown.md 31 (PL erratum to rulebook p.10, seed 000 L1390–1392 vs L1615–1617): destruction happens when
    the time token moves OFF the red autodestruction slot, not when it arrives: the round after arriving is played;
    leaving destroys the Facility at once (Hacker and the locked-in Survivor die, the Queen is killed)."""
    g = new_game(2, characters=["survivor", "hacker"])
    ok(g.push("IntruderPlaced", None, kind="queen", room="slot-09"))
    rounds_until(g, 9, css={10: "NONE"})
    ok(g.push("SelfDestructStarted"))
    rounds_until(g, 4, css={8: "NONE", 6: "NONE"})
    pass_until(g, 1)
    ok(g.push("RoomActionUsed", 1, action="lock_in"))
    ok(g.push("NoiseRolled", 1, result="silence"))
    red = g.state.board.time_spaces.index(3)
    assert g.state.self_destruct == ("red", red)
    rounds_until(g, 3, css={4: "NONE"})  # arrives on the red slot: the Facility stands
    assert not g.state.ended and g.state.phase == "player"
    pass_until(g, 2)
    ok(g.push("CharacterMoved", 2, to_room="slot-04", corridor=1))  # a full round is still played
    ok(g.push("RoomExplored", 2, room="archive", token={"effect": "silence", "items": 2}))
    ok(g.push("RoomSearched", 2, kept="Flashlight", colour="red"))
    all_pass(g)
    ok(g.push("TimeAdvanced"))  # 3 → 2: leaves the red slot
    assert g.state.ended and g.state.ending == "base_destroyed" and g.state.time_label == "02"
    assert [g.state.characters[s].status for s in (1, 2)] == ["dead", "dead"]
    assert g.state.queen_killed and not g.state.intruders


def test_a_lenient_pod_entry_where_no_pod_tile_is_known_is_flagged_not_a_crash():
    """Found by the reliability probe: a lenient game stored `enter_pod` in a room with no tile recorded,
    and folding it raised KeyError (a 500 for every later append). The fact is flagged; the character is in
    a pod all the same, which one unknown."""
    g = new_game(2, characters=["survivor", "lab_rat"])
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=1)  # an unexplored room: no tile yet
    violations = g.push("RoomActionUsed", 1, action="enter_pod")
    assert violations, "the pod action where no pod is known must be flagged"
    c = g.state.characters[1]
    assert c.status == "pod" and c.pod is None and None not in g.state.pods
    assert any("which one is not known" in x.text for x in g.consequences)
