"""The rulebook's worked examples as tests (shared/rules/example_of_play.md part B; seed 000 = the Polish rulebook).

Every test records the situation as a real table would (facts folded from a setup) and asserts what the
rulebook says follows. The synthetic board is used where corridors matter (it is made up: its corridor numbers
are not the rulebook illustration's, only the relations are); the basic board (no corridor graph) elsewhere.
"""

from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.inputs_play import is_table_effect
from service.rules.lockdown.view import describe


def rules(violations):
    return [v.rule for v in violations]


def types(g):
    return [c.type for c in g.consequences]


def ok(violations):
    assert violations == [], violations


def due(g):
    """The fact types next_inputs() offers (GameEnded and the table effects left out)."""
    return [(e.type, e.actor) for e in LOCKDOWN.next_inputs(g.state) if e.type != "GameEnded"
            and not is_table_effect(e)]


def noise_at(g, place):
    return {r["space"]: r for r in describe(g.state)["rooms"]}[place]["noise in corridors"]


def survivor_at_elevator_shaft(careful=False):
    """Synthetic board. Survivor (seat 1) walks Isolation Room → slot-01 → slot-12 → Elevator Shaft S-01 in round 1;
    the Janitor (seat 2, Repository) passes. Hand left: 3 (2 after a careful last move)."""
    g = new_game(2, board="synthetic", characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-01", corridor=2))
    ok(g.push("RoomExplored", 1, room="vent_control_room", token={"effect": "silence", "items": 1}))
    ok(g.push("CharacterMoved", 1, to_room="slot-12", corridor=1))
    ok(g.push("RoomExplored", 1, room="cooling_system", token={"effect": "silence", "items": 1}))
    ok(g.push("Passed", 2))
    if careful:
        ok(g.push("CharacterMovedCarefully", 1, to_room="elevator_room_s01", corridor=3, noise_corridor=1))
    else:
        ok(g.push("CharacterMoved", 1, to_room="elevator_room_s01", corridor=3))
        ok(g.push("NoiseRolled", 1, result="silence"))
    assert g.state.characters[1].room == "elevator_room_s01" and g.state.turn == 1
    assert g.state.characters[1].hand == (2 if careful else 3)
    return g


def all_pass(g):
    while g.state.phase == "player" and not g.state.pending:
        ok(g.push("Passed", g.state.turn))


# --- B1–B3: moving ---------------------------------------------------------------------------------------

def test_b1_move_into_an_unexplored_room():
    """example_of_play.md B1, seed 000 L2336–2350: Ocalała moves from the Elevator Shaft into an unexplored room
    (1 action card paid); tile and exploration token are flipped: the Archive, token "malfunction" with 3 items →
    malfunction marker, item counter 3; then a noise roll, because she entered an empty room."""
    g = survivor_at_elevator_shaft()
    ok(g.push("CharacterMoved", 1, to_room="slot-06", corridor=1))
    c = g.state.characters[1]
    assert c.hand == 2 and c.room == "slot-06"  # the move cost 1 action card
    assert due(g) == [("RoomExplored", 1)]  # the tile and token are revealed first
    assert not g.state.rooms["slot-06"].explored
    ok(g.push("RoomExplored", 1, room="Archiwum", token={"effect": "malfunction", "items": 3}))
    room = g.state.rooms["slot-06"]
    assert (room.tile, room.explored, room.malfunction, room.items) == ("archive", True, True, 3)
    assert "noise-roll-due" in types(g)
    assert due(g) == [("NoiseRolled", 1)]


def test_b2_move_into_an_empty_room():
    """example_of_play.md B2, seed 000 L2352–2361: Ocalała moves into the (explored) Archive paying 1 card, then
    rolls for noise: 2 → a noise marker in corridor 2 leading to the Archive. Had corridor 2 already held a
    marker, an encounter would follow."""
    for marked in (False, True):
        g = survivor_at_elevator_shaft()
        g.push("CharacterMoved", 1, to_room="slot-06", corridor=1)
        g.push("RoomExplored", 1, room="archive", token={"effect": "malfunction", "items": 3})
        g.push("NoiseRolled", 1, result="silence")
        g.push("CharacterMoved", 1, to_room="elevator_room_s01", corridor=4)
        g.push("NoiseRolled", 1, result="silence")
        if marked:
            ok(g.push("NoiseMarkerPlaced", None, room="archive", corridor=2))
        hand = g.state.characters[1].hand
        ok(g.push("CharacterMoved", 1, to_room="archive", corridor=1))
        assert g.state.characters[1].hand == hand - 1
        assert due(g) == [("NoiseRolled", 1)]  # explored and empty: straight to the noise roll
        ok(g.push("NoiseRolled", 1, result=2))
        if not marked:
            assert noise_at(g, "slot-06") == [2] and "noise-placed" in types(g)
            assert not g.state.pending
        else:
            assert "encounter" in types(g) and noise_at(g, "slot-06") == []
            assert due(g)[0] == ("EncounterTokenDrawn", 1)


def test_b3_move_into_a_room_with_a_character_or_a_stalker():
    """example_of_play.md B3, seed 000 L2460–2468: Ocalała moves into the room where Sprzątacz is → no noise roll.
    The same if a night stalker were there (then she is in combat)."""
    g = survivor_at_elevator_shaft()
    ok(g.push("CharacterMoved", 1, to_room="repository", corridor=1))  # the Janitor's start room
    assert g.state.characters_in("repository") == (1, 2)
    assert not g.state.pending and "noise-roll-due" not in types(g)
    assert ("NoiseRolled", 1) not in due(g)
    ok(g.push("IntruderPlaced", None, kind="adult", room="slot-12"))
    ok(g.push("CharacterMoved", 1, to_room="slot-12", corridor=2))
    assert not g.state.pending and "combat" in types(g) and g.state.in_combat(1)
    assert ("NoiseRolled", 1) not in due(g)


# --- B4–B5: noise and encounters -------------------------------------------------------------------------

def test_b4_noise_clarifications_closed_door_and_technical_corridors():
    """example_of_play.md B4, seed 000 L2616–2632: a noise marker in a corridor with a closed door counts for the
    whole corridor (never only one side of the door); a marker on the technical corridors space counts at every
    technical entrance. Illustration: the Guard Room (Kwatera straży) has noise in 2 of its corridors — one with a
    closed door and the technical corridors. (Synthetic board: its door corridor is numbered 2, not 4.)"""
    g = new_game(2, board="synthetic", characters=["survivor", "janitor"], tiles={"slot-13": "guard_room"})
    ok(g.push("DoorChanged", None, room="slot-13", corridor=2, state="closed"))  # between Guard Room and Isolation
    ok(g.push("NoiseMarkerPlaced", None, room="slot-13", corridor=2))
    ok(g.push("NoiseMarkerPlaced", None, room="slot-13", corridor=4))  # the technical corridors space
    assert noise_at(g, "slot-13") == [2, "4 (technical)"]
    assert noise_at(g, "isolation_room") == [1]  # the same corridor seen from behind the door
    for place in g.state.board.technical:  # present at every technical entrance on the board
        assert "4 (technical)" in noise_at(g, place), place
    all_pass(g)
    ok(g.push("TimeAdvanced"))
    # the door does not cut the corridor: the marker leads to the Isolation Room, where the Survivor is
    assert rules(g.check("NoiseMarkersCleared", removed=[{"room": "slot-13", "corridor": 2}])) == [
        "marker-next-to-character"]
    assert rules(g.check("NoiseMarkersCleared", removed=[{"room": "slot-13", "corridor": 4}])) == [
        "technical-marker-stays"]
    ok(g.push("NoiseMarkersCleared", removed=[]))
    ok(g.push("EventCardDrawn", card="lurking"))
    ok(g.push("ColonyTokenDrawn", token="adult"))  # everyone not in combat rolls for noise
    assert due(g)[0] == ("NoiseRolled", 1)
    ok(g.push("NoiseRolled", 1, result=1))  # corridor 1 of the Isolation Room = the Guard Room's door corridor
    assert "encounter" in types(g)
    assert noise_at(g, "isolation_room") == [] and "4 (technical)" in noise_at(g, "slot-13")  # technical marker not leading here


def test_b5_encounter_surprise_attack_in_a_powered_sector():
    """example_of_play.md B5, seed 000 L2905–2923: Ocalała moves from the Elevator Shaft into an adjacent empty
    room; 2 noise markers already lie in its corridors. Noise roll 2 — corridor 2 is marked → encounter: the
    markers are removed from ALL corridors leading to the room and a colony token is drawn: an adult, 2 and 3 on
    its back. The sector is powered → the smaller number, 2. She holds 1 card (contamination included): 1 < 2 →
    surprise attack (draw and resolve an attack card)."""
    g = survivor_at_elevator_shaft(careful=True)
    ok(g.push("NoiseMarkerPlaced", None, room="slot-06", corridor=2))
    ok(g.push("NoiseMarkerPlaced", None, room="slot-06", corridor=3))
    careful_marker = g.state.board.corridor_key("elevator_room_s01", 1)
    ok(g.push("CharacterMoved", 1, to_room="slot-06", corridor=1))
    ok(g.push("RoomExplored", 1, room="archive", token={"effect": "malfunction", "items": 3}))
    assert g.state.characters[1].hand == 1
    ok(g.push("NoiseRolled", 1, result=2))
    assert "encounter" in types(g)
    assert noise_at(g, "slot-06") == [] and g.state.noise == {careful_marker}  # only the room's markers go
    assert due(g)[0] == ("EncounterTokenDrawn", 1)
    assert not g.state.dark("slot-06")  # powered sector: the smaller number applies
    ok(g.push("EncounterTokenDrawn", 1, token="adult", number=2))
    assert [i.kind for i in g.state.intruders_in("slot-06")] == ["adult"]
    assert {"intruder-placed", "milestone-first-encounter", "surprise-attack"} <= set(types(g))
    assert due(g)[0] == ("IntruderAttacked", None)
    assert g.state.pending[0].seat == 1 and g.state.pending[0].reason == "surprise attack"
    # with 2 cards in hand there would be no surprise attack
    g.pop()
    ok(g.push("ContaminationCardReceived", 1))  # goes onto the discard pile: the hand stays 1
    assert g.state.characters[1].hand == 1


# --- B6–B7: combat and escape -----------------------------------------------------------------------------

def _survivor_with_rifle(ammo=3):
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("ItemGained", 1, item="Karabin szturmowy", colour="quest", where="hand", ammo=ammo))
    return g


def test_b6_shooting_with_the_assault_rifle_and_the_injury_check():
    """example_of_play.md B6, seed 000 L2971–2985: Ocalała shoots with the Karabin szturmowy: 1 action card, 1 ammo
    marker off the rifle, the combat die. The rifle adds 1 injury when at least 1 is dealt: 3 injury markers in
    all (so the die showed 2 injuries — inferred, the icon is lost). Injury check: 1 attack card, only its blood
    value counts; it is greater than 3 → the stalker lives."""
    g = _survivor_with_rifle()
    ok(g.push("IntruderPlaced", None, kind="adult", room="isolation_room"))
    hand = g.state.characters[1].hand
    ok(g.push("CharacterShot", 1, target="i1", weapon="Karabin szturmowy", result="double"))
    c = g.state.characters[1]
    assert c.hand == hand - 1 and c.items[0].ammo == 2
    assert "weapon-bonus" in types(g) and g.state.intruders[0].injuries == 3
    assert due(g)[0] == ("InjuryCheckDrawn", None)
    assert rules(g.check("InjuryCheckDrawn", blood=[4, 2])) == ["blood-count"]  # an adult: 1 card only
    ok(g.push("InjuryCheckDrawn", blood=[4]))
    assert "survives" in types(g) and g.state.intruders_in("isolation_room")
    # no injury dealt → no rifle bonus
    ok(g.push("CharacterShot", 1, target="i1", weapon="Karabin szturmowy", result="blank"))
    assert "weapon-bonus" not in types(g) and g.state.intruders[0].injuries == 3


def test_b7_escape_the_creeper_attacks_first():
    """example_of_play.md B7, seed 000 L2987–2999: after injuring a creeper Ocalała escapes: 1 card for the Move,
    to the Elevator Shaft. Stalkers attack anyone escaping: attack card "Węszenie" shows the creeper symbol → hit:
    1 light wound and a slime marker; then she is in the Elevator Shaft with 1 light wound."""
    g = _survivor_with_rifle()
    ok(g.push("IntruderPlaced", None, kind="creeper", room="isolation_room"))
    ok(g.push("CharacterShot", 1, target="i1", weapon="Karabin szturmowy", result="creeper"))  # 1 + rifle 1
    ok(g.push("InjuryCheckDrawn", blood=[4]))
    hand = g.state.characters[1].hand
    ok(g.push("CharacterMoved", 1, to_room="elevator_room_s01", corridor=1))
    assert "escape" in types(g) and g.state.characters[1].hand == hand - 1
    assert due(g)[0] == ("IntruderAttacked", None)  # the creeper attacks first
    p = g.state.pending[0]
    assert (p.kind, p.seat, p.intruder, p.reason) == ("attack", 1, "i1", "escape")
    ok(g.push("IntruderAttacked", None, intruder="i1", card="Węszenie"))
    c = g.state.characters[1]
    assert "attack-hit" in types(g) and c.light == 1 and c.slime and c.serious == ()
    assert c.room == "elevator_room_s01" and g.state.intruders[0].room == "isolation_room"


# --- B8–B11: contamination, weaknesses, darkness, search --------------------------------------------------

def test_b8_scanning_a_contamination_card_rest():
    """example_of_play.md B8, seed 000 L3242–3254: Sprzątacz plays "Odpoczynek" (Rest), which scans his
    contamination card: INFECTED. He takes the card back into his hand and puts a larva on his character board.
    Remedies: the Surgery (Gabinet chirurgiczny) or a Neutralizer."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("ContaminationCardReceived", 2))  # earlier (e.g. a melee): the Janitor owns 1 contamination card
    ok(g.push("Passed", 1))
    ok(g.push("ActionCardPlayed", 2, card="Odpoczynek", note="scan the contamination card"))
    ok(g.push("ContaminationScanned", 2, infected=1, clean=0, scope="hand"))
    c = g.state.characters[2]
    assert c.larva and c.status == "base" and "larva" in types(g)
    assert c.contamination == 1 and c.infected == 1  # the card is kept, known INFECTED
    # remedy: the Surgery scans all cards and removes the infected ones and the larva
    ok(g.push("CharacterMoved", 2, to_room="slot-11", corridor=1))
    ok(g.push("RoomExplored", 2, room="Gabinet chirurgiczny", token={"effect": "silence", "items": 2}))
    ok(g.push("RoomActionUsed", 2, action="surgery", infected=1, clean=0))
    c = g.state.characters[2]
    assert not c.larva and c.contamination == 0 and c.light == 1 and c.passed


def next_round(g, colony="blank"):
    """Everyone passes; the event phase is recorded with nothing happening; the next round begins."""
    all_pass(g)
    if g.state.step == "css_launch":
        ok(g.push("CssTokenRevealed", token="NONE"))
    ok(g.push("TimeAdvanced"))
    if g.state.ended:
        return
    ok(g.push("NoiseMarkersCleared", removed=[]))
    while g.state.pending:  # step 7: a card without the attacker's symbol misses
        ok(g.push("IntruderAttacked", None, intruder=g.state.pending[0].intruder, card="Evolve"))
    ok(g.push("EventCardDrawn", card="lurking"))
    ok(g.push("ColonyTokenDrawn", token=colony))
    ok(g.push("FirstPlayerPassed", g.state.first_player))


def test_b9_revealing_a_weakness_with_an_egg_and_the_last_one_with_a_carcass():
    """example_of_play.md B9, seed 000 L3443–3449 (Laboratory text L4051–4053): Ocalała uses the Laboratory,
    researching an egg: the egg goes on the lab board and a weakness card is revealed (+3 knowledge). The last
    weakness can only be revealed with a carcass or a character's corpse."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1}))  # knowledge 3 → 4
    ok(g.push("RoomActionUsed", 1, action="take_egg"))
    ok(g.push("NoiseRolled", 1, result="silence"))
    assert g.state.eggs == 4 and g.state.characters[1].objects == ("egg",)
    ok(g.push("Passed", 2))
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="Laboratorium", token={"effect": "silence", "items": 1}))
    ok(g.push("RoomActionUsed", 1, action="research", object="egg"))
    c = g.state.characters[1]
    assert c.objects == () and c.knowledge == 7 and "weakness" in types(g)
    assert g.state.weaknesses == (True, True, False) and g.state.researched == ("egg",)
    # an adult dies in the Laboratory: its carcass reveals the last weakness
    ok(g.push("IntruderPlaced", None, kind="adult", room="slot-04"))
    ok(g.push("IntruderInjured", None, intruder="i1", count=3))
    ok(g.push("InjuryCheckDrawn", blood=[2]))
    assert g.state.objects["slot-04"] == ("carcass",)
    next_round(g)
    ok(g.push("Passed", 2))
    ok(g.push("RoomActionUsed", 1, action="research", object="carcass"))
    assert g.state.weaknesses == (True, True, True) and g.state.researched == ("egg", "carcass")
    assert g.state.characters[1].knowledge == 8  # capped


def test_b9_a_second_egg_is_discarded_without_a_weakness():
    """example_of_play.md B9, seed 000 L3443–3449, L4051–4053: an object of a type that already revealed a weakness
    is discarded instead (still +3 knowledge; "same type", lockdown.md §15.2 item 1)."""
    g = new_game(2, characters=["survivor", "janitor"])
    g.push("CharacterMoved", 1, to_room="slot-05", corridor=1)
    g.push("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1})
    g.push("RoomActionUsed", 1, action="take_egg")
    g.push("NoiseRolled", 1, result="silence")
    g.push("Passed", 2)
    ok(g.push("RoomActionUsed", 1, action="take_egg"))  # a second egg, in the second hand
    ok(g.push("NoiseRolled", 1, result="silence"))
    assert g.state.characters[1].objects == ("egg", "egg")
    next_round(g)
    ok(g.push("Passed", 2))
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="laboratory", token={"effect": "silence", "items": 1}))
    ok(g.push("RoomActionUsed", 1, action="research", object="egg"))
    assert g.state.weaknesses == (True, True, False) and g.state.characters[1].knowledge == 7
    ok(g.push("RoomActionUsed", 1, action="research", object="egg"))
    assert "object-discarded" in types(g) and "weakness" not in types(g)
    assert g.state.weaknesses == (True, True, False) and g.state.characters[1].knowledge == 8
    assert g.state.characters[1].objects == ()


def test_b10_darkness_queen_encounter_with_the_flashlight():
    """example_of_play.md B10, seed 000 L3533–3553: Ocalała resolves an encounter and draws the queen; her sector is
    unpowered, so the larger number applies — she uses the "Latarka" (Flashlight), discarding 1 use marker, to use
    the smaller number instead. (The flashlight is used inside the encounter: a free item use is accepted there.)"""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("ItemGained", 1, item="Latarka", colour="yellow", where="backpack", ammo=2))
    ok(g.push("NoiseMarkerPlaced", None, room="elevator_room_s03", corridor=3))
    ok(g.push("CharacterMoved", 1, to_room="elevator_room_s03", corridor=1))
    assert g.state.dark("elevator_room_s03")  # S-03 has no power (power token 3 is off at setup)
    ok(g.push("NoiseRolled", 1, result=3))
    assert due(g)[0] == ("EncounterTokenDrawn", 1)
    ok(g.push("ItemUsed", 1, item="Latarka", ammo=1, note="use the smaller number of the token"))
    assert g.state.characters[1].items[0].ammo == 1 and g.state.pending[0].kind == "encounter"
    ok(g.push("EncounterTokenDrawn", 1, token="queen", number=4))
    assert [i.kind for i in g.state.intruders_in("elevator_room_s03")] == ["queen"]
    assert g.state.bag["queen"] == 0
    assert "no-surprise-attack" in types(g)  # 5 cards in hand, not fewer than 4


def test_b11_search_in_the_white_archive():
    """example_of_play.md B11, seed 000 L3842–3854: Ocalała searches the Archive: discards "Przeszukanie", the item
    counter goes down 1. The Archive is white → 2 cards from any one deck: she picks red, keeps "Akumulator do
    broni" (the other goes face down under the red deck) and puts it in her backpack (others see its back)."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="Archiwum", token={"effect": "silence", "items": 3}))
    hand = g.state.characters[1].hand
    for colour in ("red", "yellow", "green"):  # white room: any deck
        assert g.check("RoomSearched", 1, kept="x", colour=colour) == []
    ok(g.push("RoomSearched", 1, kept="Akumulator do broni", colour="red"))
    c = g.state.characters[1]
    assert g.state.rooms["slot-04"].items == 2 and c.hand == hand - 1
    assert [(i.name, i.colour, i.where) for i in c.items] == [("Akumulator do broni", "red", "backpack")]
    # a coloured room only gives its own colour
    g2 = new_game(2, characters=["survivor", "janitor"])
    g2.push("CharacterMoved", 1, to_room="slot-04", corridor=1)
    g2.push("RoomExplored", 1, room="transmitter_control_room", token={"effect": "silence", "items": 3})
    assert rules(g2.check("RoomSearched", 1, kept="x", colour="yellow")) == ["search-colour"]


# --- B12–B14: cards ------------------------------------------------------------------------------------------

def test_b12_action_card_thorough_cleaning():
    """example_of_play.md B12, seed 000 L2022–2056: the Janitor's "Gruntowne sprzątanie" — out of combat only, cost 0
    (only the card itself), discards a malfunction marker OR a fire marker from his room."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("MalfunctionPlaced", None, room="repository"))
    ok(g.push("Passed", 1))
    assert rules(g.check("ActionCardPlayed", 2, card="Gruntowne sprzątanie", cost=1)) == ["card-cost"]
    hand = g.state.characters[2].hand
    ok(g.push("ActionCardPlayed", 2, card="Gruntowne sprzątanie", cost=0, note="malfunction removed"))
    ok(g.push("MalfunctionRemoved", None, room="repository"))
    assert g.state.characters[2].hand == hand - 1 and not g.state.rooms["repository"].malfunction
    ok(g.push("IntruderPlaced", None, kind="adult", room="repository"))
    assert rules(g.check("ActionCardPlayed", 2, card="Thorough Cleaning")) == ["card-out-of-combat"]


def _to_event_card(g):
    all_pass(g)
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    while g.state.pending:  # step 7: stalkers in combat attack (a card without their symbol: a miss)
        ok(g.push("IntruderAttacked", None, intruder=g.state.pending[0].intruder, card="Evolve"))


def test_b13_event_card_coolant_leak():
    """example_of_play.md B13, seed 000 L1865–1897: "Wyciek chłodziwa" shows adult, breeder and queen and corridor 1:
    those stalkers, if not in combat, move through corridor 1. Then the effect: a malfunction in the Cooling System
    starts the self-destruct countdown, else a malfunction is placed there. The card is removed from the game."""
    g = new_game(2, board="synthetic", characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-16", corridor=4))
    ok(g.push("RoomExplored", 1, room="cooling_system", token={"effect": "silence", "items": 1}))
    ok(g.push("IntruderPlaced", None, kind="adult", room="slot-06"))  # i1, not in combat
    ok(g.push("IntruderPlaced", None, kind="creeper", room="slot-09"))  # i2, not on the card
    ok(g.push("IntruderPlaced", None, kind="adult", room="repository"))  # i3, in combat with the Janitor
    _to_event_card(g)
    ok(g.push("EventCardDrawn", card="Wyciek chłodziwa", corridors=[1]))
    where = {i.id: i.room for i in g.state.intruders}
    assert where == {"i1": "elevator_room_s01", "i2": "slot-09", "i3": "repository"}
    assert g.state.rooms["slot-16"].malfunction and g.state.self_destruct is None
    assert "coolant_leak" in g.state.removed_events
    # a later Coolant Leak cannot be drawn again; with a malfunction there it would start the countdown
    ok(g.push("ColonyTokenDrawn", token="larva"))
    ok(g.push("FirstPlayerPassed", 1))
    _to_event_card(g)
    assert rules(g.check("EventCardDrawn", card="coolant_leak")) == ["event-card-removed"]


def test_b13_coolant_leak_with_a_malfunction_starts_the_self_destruct():
    """example_of_play.md B13, seed 000 L1865–1897 and L1369–1374: with a malfunction in the Cooling System the
    Coolant Leak starts the countdown: the yellow self-destruct token 3 spaces right of the time token."""
    g = new_game(2, board="synthetic", characters=["survivor", "janitor"])
    g.push("CharacterMoved", 1, to_room="slot-16", corridor=4)
    g.push("RoomExplored", 1, room="cooling_system", token={"effect": "malfunction", "items": 1})
    ok(g.push("NoiseRolled", 1, result="silence"))
    assert g.state.rooms["slot-16"].malfunction
    _to_event_card(g)
    ok(g.push("EventCardDrawn", card="coolant_leak"))
    assert g.state.self_destruct == ("yellow", g.state.time + 3)
    assert "self-destruct" in types(g)


def test_b14_attack_card_scratch_in_light_and_in_darkness():
    """example_of_play.md B14, seed 000 L3168–3190: "Draśnięcie": the target suffers 1 light wound and 1
    contamination card; in darkness 1 more light wound."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="elevator_room_s01", corridor=1))
    ok(g.push("NoiseRolled", 1, result="silence"))
    ok(g.push("Passed", 1))
    ok(g.push("CharacterMoved", 2, to_room="elevator_room_s03", corridor=1))
    ok(g.push("NoiseRolled", 2, result="silence"))
    ok(g.push("IntruderPlaced", None, kind="adult", room="elevator_room_s01"))
    ok(g.push("IntruderPlaced", None, kind="adult", room="elevator_room_s03"))
    ok(g.push("Passed", 2))
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    assert [p.intruder for p in g.state.pending] == ["i1", "i2"]
    assert not g.state.dark("elevator_room_s01") and g.state.dark("elevator_room_s03")
    ok(g.push("IntruderAttacked", None, intruder="i1", card="Draśnięcie"))
    ok(g.push("IntruderAttacked", None, intruder="i2", card="Draśnięcie"))
    lit, dark = g.state.characters[1], g.state.characters[2]
    assert (lit.light, lit.contamination) == (1, 1)
    assert (dark.light, dark.contamination) == (2, 1)


# --- B15–B16: the Mars surface (alternative board side) ----------------------------------------------------------

def test_b15_mars_surface_noise_roll_on_a_crossroad_marks_an_area():
    """example_of_play.md B15, seed 000 L4734–4750: on the Mars surface the noise roll uses the Mars die and the
    marker goes on an AREA: Ocalała moves onto a crossroad, rolls 3 → a noise marker on area 3 (had area 3 been
    marked → an encounter). The first half (the Ambulatorium in a building, roll 1 → area 1) needs a room's building,
    which no fact records yet (the Mars board's layout is unknown) — not asserted here."""
    g = new_game(2, board="mars", characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="crossroad-1", corridor="path"))
    ok(g.push("RoomExplored", 1, room="crossroad", token={"effect": "slime"}))
    assert due(g) == [("NoiseRolled", 1)]
    ok(g.push("NoiseRolled", 1, result=3))
    assert g.state.noise == {"area-3"} and "noise-placed" in types(g)
    ok(g.push("CharacterMoved", 1, to_room="crossroad-2", corridor="path"))
    ok(g.push("RoomExplored", 1, room="crossroad", token={"effect": "slime"}))
    ok(g.push("NoiseRolled", 1, result=3))
    assert "encounter" in types(g) and "area-3" not in g.state.noise


def test_b16_mars_surface_card_radioactive_dust():
    """example_of_play.md B16, seed 000 L4859–4872: Mars surface card "Radioaktywny pył": top (general) effect —
    1 contamination card and a slime marker; bottom (in a space suit or inside a building) — 1 contamination card.
    The Mars cards are not catalogued: the Mars die's card symbol asks the table to resolve one, and the table
    records its effect with the ordinary facts."""
    g = new_game(2, board="mars", characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="crossroad-1", corridor="path"))
    ok(g.push("RoomExplored", 1, room="crossroad", token={"effect": "silence"}))
    ok(g.push("CharacterMoved", 1, to_room="crossroad-2", corridor="path"))
    ok(g.push("RoomExplored", 1, room="crossroad", token={"effect": "mars_card"}))
    assert "mars-card" in types(g)
    ok(g.push("ContaminationCardReceived", 1))  # top part: on the open surface without a space suit
    ok(g.push("SlimeChanged", 1, slime=True))
    c = g.state.characters[1]
    assert c.contamination == 1 and c.slime
    ok(g.push("ContaminationCardReceived", 2))  # bottom part only (space suit / in a building)
    assert g.state.characters[2].contamination == 1 and not g.state.characters[2].slime
