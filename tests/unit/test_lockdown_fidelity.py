"""Rules fidelity, round 2 (issue 10 part 2): one test per rule, each citing the rulebook line it checks.

seed 000 = shared/seeds/000_…txt (the Polish Lockdown rulebook, the source of truth); the digests are
shared/rules/lockdown.md, faq_lockdown.md and gaps_filled.md. Where the sources are silent the assumption is in
docs/rules-gaps.md and, where tables disagree, a game option.
"""
from dataclasses import replace

from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.endgame import scoring_view
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.scoring import ScoringSettings, victory_check
from tests.unit.test_lockdown_examples import all_pass, ok, rules, types


def to_colony_step(g):
    """Everyone passes; the event phase runs to the colony step (night attacks miss, a quiet event card)."""
    all_pass(g)
    if g.state.step == "css_launch":
        ok(g.push("CssTokenRevealed", token="NONE"))
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    while g.state.pending:
        ok(g.push("IntruderAttacked", None, intruder=g.state.pending[0].intruder, card="Evolve"))
    ok(g.push("EventCardDrawn", card="lurking"))


# --- 7. the base destroyed kills the Queen and destroys the Nest ------------------------------------------------

def test_base_destroyed_kills_the_queen_and_destroys_the_nest_for_objectives():
    """Seed 000 L1618–1622: the base explodes, every stalker dies "and their queen is killed (which may matter for
    some objectives)". The Nest is a room of the base: "destroy the Nest" is met though eggs are left (setting
    ``base_destroyed_destroys_nest``, docs/scoring.md §6); a time-out leaves both objectives failed (L1612–1613)."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("ObjectivesDealt", 1, objectives=["queen_killed", "send_signal"]))
    ok(g.push("ObjectivesDealt", 2, objectives=["nest_destroyed", "send_signal"]))
    ok(g.push("IntruderPlaced", None, kind="larva", room=g.state.characters[1].room))  # the first encounter
    ok(g.push("ObjectiveChosen", 1, objective="queen_killed"))
    ok(g.push("ObjectiveChosen", 2, objective="nest_destroyed"))
    ok(g.push("GameEnded", None, ending="base_destroyed"))
    assert g.state.ended and g.state.queen_killed and g.state.eggs == 5 and not g.state.intruders
    v = scoring_view(g.state)
    assert v.queen_killed and v.eggs_in_nest == 5
    # judge the objectives alone: as if both had reached the Bunker, clean, under the "save all" plan
    v = replace(v, active_contingency="save_all", seats=tuple(
        replace(s, alive=True, location="bunker", larva=False, scan_infected=False) for s in v.seats))
    assert {p.seat: p.outcome for p in victory_check(v).players} == {1: "won", 2: "won"}
    literal = victory_check(v, ScoringSettings(base_destroyed_destroys_nest=False))
    assert {p.seat: p.outcome for p in literal.players} == {1: "won", 2: "lost"}


# --- 9. characters in combat skip the colony-step noise roll ----------------------------------------------------

def test_characters_in_combat_skip_the_colony_noise_roll():
    """Seed 000 L1831–1838 (colony step, adult or breeder drawn): every player in player order makes a noise roll,
    except those in combat (lockdown.md §4 step 10; lockdown_cz.md L401). Seat 1 shares its room with an adult."""
    g = new_game(3, characters=["survivor", "janitor", "hacker"])
    ok(g.push("IntruderPlaced", None, kind="adult", room=g.state.characters[1].room))
    assert g.state.in_combat(1)
    to_colony_step(g)
    ok(g.push("ColonyTokenDrawn", token="adult"))
    noise = [(p.kind, p.seat) for p in g.state.pending]
    assert noise == [("noise", 2), ("noise", 3)]
    assert "colony-noise" in types(g)
    assert rules(g.check("NoiseRolled", 1, result="silence"))  # seat 1 owes no roll


# --- 5. the colony supply: tokens set aside and the tokens of killed stalkers ----------------------------------

BOX = {"larva": 8, "creeper": 3, "adult": 12, "breeder": 2, "queen": 1, "blank": 1}  # seed 000 L1000–1007


def conserved(g):
    """Every stalker token is in the bag or beside the board (the supply): none is lost or made up."""
    return {k: g.state.bag.get(k, 0) + g.state.supply.get(k, 0) for k in BOX} == BOX


def test_set_aside_and_killed_stalker_tokens_lie_in_the_supply():
    """Seed 000 L1006–1007: the tokens not in the bag lie beside the board. L1821–1828: a larva drawn in the colony
    step leaves the bag and is put beside the board, and an adult from there goes in. L2834–2836: the token drawn at
    an encounter is put aside, and goes back into the colony only if a stalker of its kind hides in the technical
    corridors — so the token of a stalker killed later stays in the supply."""
    g = new_game(2, characters=["survivor", "janitor"])
    assert g.state.supply["larva"] == 4 and g.state.supply["adult"] == 7 and conserved(g)
    to_colony_step(g)
    ok(g.push("ColonyTokenDrawn", token="larva"))
    assert (g.state.bag["larva"], g.state.supply["larva"]) == (3, 5)  # the larva is put beside the board
    assert (g.state.bag["adult"], g.state.supply["adult"]) == (6, 6) and conserved(g)
    # an encounter: the adult token drawn is set aside at once
    g2 = new_game(2, characters=["survivor", "janitor"])
    ok(g2.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g2.push("RoomExplored", 1, room="laboratory", token={"effect": "fire", "items": 1}))
    ok(g2.push("NoiseMarkerPlaced", None, room="slot-05", corridor=2))
    ok(g2.push("NoiseRolled", 1, result=2))
    ok(g2.push("EncounterTokenDrawn", 1, token="adult"))
    assert (g2.state.bag["adult"], g2.state.supply["adult"]) == (4, 8) and conserved(g2)
    # killed: the token stays in the supply (no bag change)
    ok(g2.push("IntruderInjured", None, intruder="i1", count=3))
    ok(g2.push("InjuryCheckDrawn", blood=[2]))
    assert not g2.state.intruders and (g2.state.bag["adult"], g2.state.supply["adult"]) == (4, 8)
    # a stalker that hides in the technical corridors takes a token from the supply back into the bag
    ok(g2.push("IntruderPlaced", None, kind="creeper", room="slot-05"))
    ok(g2.push("IntruderRemoved", None, intruder="i2", to_bag=True))
    assert (g2.state.bag["creeper"], g2.state.supply["creeper"]) == (2, 1) and conserved(g2)


# --- 12. a killed queen never comes back -----------------------------------------------------------------------

def test_a_killed_queen_never_comes_back():
    """Seed 000 L2834–2836: a drawn token goes back into the colony only if a stalker of its kind hides in the
    technical corridors; the queen's single token (L1000–1002) therefore stays beside the board once she is
    killed, and no later colony draw, encounter or table record can bring her back."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1}))
    to_colony_step(g)
    ok(g.push("ColonyTokenDrawn", token="queen"))  # somebody in the Nest: the queen appears
    ok(g.push("IntruderAttacked", None, intruder="i1", card="Evolve")) if g.state.pending else None
    assert [i.kind for i in g.state.intruders] == ["queen"] and g.state.supply["queen"] == 1
    ok(g.push("IntruderInjured", None, intruder="i1", count=6))
    ok(g.push("InjuryCheckDrawn", blood=[2, 3]))
    assert g.state.queen_killed and not g.state.intruders and g.state.bag["queen"] == 0
    assert "queen-killed" in rules(g.check("IntruderPlaced", None, kind="queen", room="slot-05"))
    assert rules(g.check("ColonyTokenDrawn", token="queen"))  # not in the bag
    assert rules(g.check("IntruderPlaced", None, kind="adult", room="slot-05")) == []  # other stalkers may come


# --- 6. escape from several stalkers: each attacks, the largest first -----------------------------------------

def _escape_from_three(options=None):
    from service.rules.base import Seat, Setup
    from service.rules.lockdown.fold import Game

    g = Game(Setup(players=(Seat(1, "P1"), Seat(2, "P2")), options={"board": "basic", **(options or {})}))
    ok(g.push("BoardPrepared", board="basic"))
    ok(g.push("CharacterChosen", 1, character="survivor"))
    ok(g.push("CharacterChosen", 2, character="janitor"))
    ok(g.push("SetupCompleted"))
    room = g.state.characters[1].room
    for kind in ("larva", "adult", "breeder"):
        ok(g.push("IntruderPlaced", None, kind=kind, room=room, by="event: Hatching"))  # named cause (decision 0039)
    ok(g.push("CharacterMoved", 1, to_room="slot-01", corridor=1))
    return g


def test_escape_from_several_stalkers_each_attacks_largest_first():
    """Seed 000 L3031–3039: escaping, "resolve the attack of each of them separately" before the figure moves. The
    order is not printed (lockdown_cz.md L867: "in any order"); the ruleset takes the largest first (breeder, then
    adult, then larva: placed as larva i1, adult i2, breeder i3) and a game may say ``escape_order: "any"``."""
    g = _escape_from_three()
    assert [(p.kind, p.intruder, p.reason) for p in g.state.pending[:3]] == [
        ("attack", "i3", "escape"), ("attack", "i2", "escape"), ("attack", "i1", "escape")]
    assert "wrong-attacker" in rules(g.check("IntruderAttacked", None, intruder="i1", card="Evolve"))
    ok(g.push("IntruderAttacked", None, intruder="i3", card="Evolve"))
    ok(g.push("IntruderAttacked", None, intruder="i2", card="Evolve"))
    ok(g.push("IntruderAttacked", None, intruder="i1"))  # the larva: no card (seed 000 L3192–3200)
    assert g.state.characters[1].larva and not [p for p in g.state.pending if p.kind == "attack"]
    free = _escape_from_three({"escape_order": "any"})
    ok(free.push("IntruderAttacked", None, intruder="i1"))  # the table's choice
    ok(free.push("IntruderAttacked", None, intruder="i3", card="Evolve"))
    ok(free.push("IntruderAttacked", None, intruder="i2", card="Evolve"))
    assert not [p for p in free.state.pending if p.kind == "attack"]


# --- 8. a noise roll after every attack on eggs, by items as by weapons ------------------------------------------

def test_an_item_used_on_eggs_is_followed_by_a_noise_roll():
    """Seed 000 L472–473: "after every single attempt to destroy an egg you must make a noise roll"; faq_lockdown.md
    10: a grenade or a thermite charge destroys eggs like a shot. The roll is due after the item as after a shot,
    also when no egg was destroyed (``eggs: 0``); an item used on nothing owes none."""
    g = new_game(2, characters=["hacker", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1}))
    ok(g.push("ItemGained", 1, item="Grenade"))
    ok(g.push("ItemGained", 1, item="Flashlight"))
    ok(g.push("ItemUsed", 1, item="Grenade", cost=1, discarded=True, eggs=2))
    assert g.state.eggs == 3 and [(p.kind, p.seat, p.room) for p in g.state.pending] == [("noise", 1, "slot-05")]
    assert "noise-roll-due" in types(g)
    assert rules(g.check("Passed", 1))  # the roll comes first
    ok(g.push("NoiseRolled", 1, result="silence"))
    ok(g.push("ItemUsed", 1, item="Flashlight", cost=0, note="lights the room"))
    assert not g.state.pending  # not an attempt on eggs
    ok(g.push("Passed", 2))
    ok(g.push("ItemGained", 1, item="Thermite Charge"))
    ok(g.push("ItemUsed", 1, item="Thermite Charge", cost=1, discarded=True, eggs=0))
    assert [p.kind for p in g.state.pending] == ["noise"] and g.state.eggs == 3


# --- 3. crafted items arrive as the card says ---------------------------------------------------------------

def test_a_crafted_weapon_arrives_loaded_as_printed():
    """Seed 000 L3632–3636: every weapon gained during the game comes with the starting ammo printed on it
    ("AMUNICJA: 4/4" on the Flamethrower, L3753–3754; 3/3 on the Pistol, L3768); L3643: never more than the
    magazine. A crafted Flamethrower is fully loaded without the table saying so; other values are refused."""
    g = new_game(2, characters=["janitor", "hacker"])  # the Janitor starts in the Repository: 1 component
    ok(g.push("ItemGained", 1, item="Reagent"))
    assert rules(g.check("ItemCrafted", 1, item="Flamethrower", ingredients=["Reagent"], ammo=2)) == [
        "ammo-not-as-printed"]
    assert rules(g.check("ItemCrafted", 1, item="Miotacz ognia", ingredients=["Reagent"], ammo=5)) == [
        "ammo-over-capacity"]
    ok(g.push("ItemCrafted", 1, item="Flamethrower", ingredients=["Reagent"], where="hand"))
    flamer = g.state.characters[1].items[0]
    assert (flamer.name, flamer.ammo, flamer.colour) == ("Flamethrower", 4, "blue")
    assert rules(g.check("ItemGained", 2, item="Pistol", ammo=4)) == ["ammo-over-capacity"]
    ok(g.push("ItemGained", 2, item="Pistol", ammo=1))  # gained by an effect: fewer is possible
    ok(g.push("ItemGained", 2, item="Medkit"))
    assert [i.ammo for i in g.state.characters[2].items] == [1, None]


# --- 15. the result says how the game ended and which end effects applied ----------------------------------------

def test_the_result_names_the_ending_and_its_end_effects():
    """Seed 000 L1603–1638: the game ends when the time runs out or the alarm procedure's space is left (the rapid
    response team), when the base explodes, or when nobody is left in the base — then the time token jumps and the
    effects "as above" apply: the result names both the ending and the effects (``Result.effects``)."""
    g = new_game(1, mode="solo", characters=["survivor"])
    ok(g.push("CharacterDied", 1, cause="wounds"))
    r = LOCKDOWN.score(g.state)
    assert (r.ending, r.effects) == ("no_characters_left", "time_out")
    assert r.as_dict()["effects"] == "time_out" and r.as_dict()["ending"] == "no_characters_left"
    g = new_game(2)
    ok(g.push("GameEnded", None, ending="base_destroyed"))
    r = LOCKDOWN.score(g.state)
    assert (r.ending, r.effects) == ("base_destroyed", "base_destroyed")
    assert all(p.death_cause == "base_destroyed" for p in r.players)
    g = new_game(2)
    ok(g.push("GameEnded", None, ending="abandoned"))
    assert (LOCKDOWN.score(g.state).ending, LOCKDOWN.score(g.state).effects) == ("abandoned", None)


# --- 13. help-card numbers: "player X" is the help card, not the seat ------------------------------------------

def test_help_card_numbers_set_the_choice_order_first_player_and_player_x():
    """Seed 000 L1052–1058: help cards are dealt at random; "the number on the help card … is the player's number —
    it matters for the character choice and for some objective cards"; L1106–1110: player 1 chooses first, then 2,
    …; L1155: player 1 takes the first player token. Here seat 2 holds help card 1 and seat 1 holds card 2."""
    from service.rules.base import Seat, Setup
    from service.rules.lockdown.fold import Game

    g = Game(Setup(players=(Seat(1, "Ada"), Seat(2, "Bo")), options={"board": "basic"}))
    ok(g.push("BoardPrepared", board="basic"))
    assert rules(g.check("CharacterChosen", 1, character="survivor", player=3)) == ["no-such-help-card"]
    ok(g.push("CharacterChosen", 2, character="janitor", player=1))
    assert rules(g.check("CharacterChosen", 1, character="survivor", player=1)) == ["help-card-taken"]
    ok(g.push("CharacterChosen", 1, character="survivor", player=2))
    assert rules(g.check("SetupCompleted", None, first_player=1)) == ["first-player-is-player-1"]
    ok(g.push("SetupCompleted"))
    assert g.state.first_player == 2 and g.state.turn == 2
    v = scoring_view(g.state)
    assert {s.seat: s.player_number for s in v.seats} == {1: 2, 2: 1}
    # "player 2 must not survive" held by seat 2 (player 1) aims at seat 1 (player 2), not at seat 2 itself
    v = replace(v, ending="time_out", active_contingency="save_all", seats=tuple(
        replace(s, alive=s.seat == 2, location="bunker" if s.seat == 2 else None, larva=False,
                scan_infected=False, objective="player_must_not_survive:2" if s.seat == 2 else "send_signal")
        for s in v.seats))
    assert {p.seat: p.outcome for p in victory_check(v).players}[2] == "won"
    # choosing out of help-card order is refused
    h = Game(Setup(players=(Seat(1, "Ada"), Seat(2, "Bo")), options={"board": "basic"}))
    ok(h.push("BoardPrepared", board="basic"))
    ok(h.push("CharacterChosen", 1, character="survivor", player=2))
    assert rules(h.check("CharacterChosen", 2, character="janitor", player=1)) == ["choice-order"]


# --- 4. trade: everyone in the room exchanges with everyone in one Trade action ----------------------------------

def test_one_trade_lets_everyone_in_the_room_exchange_with_everyone():
    """Seed 000 L1985–1992: Trade — "all characters in your room (even those who passed) may hand each other any
    number of items and objects"; a weapon goes with its ammo. The Janitor, the Hacker and the Sentry start in the
    Repository, the Survivor in the Isolation Room; seats 1 and 2 have passed when the Sentry (seat 3) trades."""
    g = new_game(4, characters=["janitor", "hacker", "sentry", "survivor"])
    assert g.state.characters[1].room == g.state.characters[2].room == g.state.characters[3].room
    assert g.state.characters[4].room != g.state.characters[3].room
    ok(g.push("ItemGained", 1, item="Medkit"))
    ok(g.push("ItemGained", 2, item="Pistol", ammo=2))
    ok(g.push("ItemGained", 4, item="Grenade"))
    ok(g.push("Passed", 1))
    ok(g.push("Passed", 2))
    assert rules(g.check("ItemsTraded", 3, transfers=[{"from": 4, "to": 3, "item": "Grenade"}])) == [
        "trade-not-together"]
    assert rules(g.check("ItemsTraded", 3)) == ["trade-with-nobody"]
    assert rules(g.check("ItemsTraded", 3, transfers=[{"from": 1, "to": 2, "item": "Pistol"}])) == ["no-such-item"]
    hand = g.state.characters[3].hand
    ok(g.push("ItemsTraded", 3, transfers=[{"from": 1, "to": 2, "item": "Medkit"},
                                           {"from": 2, "to": 1, "item": "Pistol"},
                                           {"from": 2, "to": 3, "item": "Medkit"}]))  # received, then handed on
    items = {s: [(i.name, i.ammo) for i in g.state.characters[s].items] for s in (1, 2, 3)}
    assert items == {1: [("Pistol", 2)], 2: [], 3: [("Medkit", None)]}
    assert g.state.characters[3].hand == hand - 1  # one Trade action, one card
    story = LOCKDOWN.narrate(g.states[-2], g.facts[-1], g.state)
    assert "P1" in story and "P2" in story and "gives Medkit to" in story


# --- 10. darkness on the basic board: the table names the sector of a room space ---------------------------------

def test_the_sector_of_a_basic_board_slot_makes_darkness_derived():
    """Lockdown.md §9.3 (seed 000 L2955–2968 and the power rules): a character is in darkness in an unpowered
    sector. The basic side's random slots have no sector in the board file (rules-gaps.md), so BoardPrepared may name
    them; at the start S-03's power token is off. The Scratch card (Draśnięcie) then adds its darkness wound without
    the table saying ``dark`` (example_of_play.md B14)."""
    from service.rules.base import Seat, Setup
    from service.rules.lockdown.fold import Game

    g = Game(Setup(players=(Seat(1, "P1"), Seat(2, "P2")), options={"board": "basic"}))
    assert rules(g.check("BoardPrepared", None, board="basic", sectors={"backup_power_supply": "S-01"})) == [
        "sector-fixed"]
    assert rules(g.check("BoardPrepared", None, board="basic", sectors={"slot-05": "S-04"}))
    ok(g.push("BoardPrepared", None, board="basic", sectors={"slot-05": "S-03", "slot-04": "S-01"}))
    ok(g.push("CharacterChosen", 1, character="survivor"))
    ok(g.push("CharacterChosen", 2, character="janitor"))
    ok(g.push("SetupCompleted"))
    assert g.state.sector_of("slot-05") == "S-03" and g.state.dark("slot-05")
    assert not g.state.dark("slot-04") and not g.state.dark("slot-06")  # lit; unknown sector counts as lit
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="laboratory", token={"effect": "silence", "items": 1}))
    ok(g.push("IntruderPlaced", None, kind="adult", room="slot-05", by="event: Hatching"))  # named cause (decision 0039)
    ok(g.push("Passed", 1))
    ok(g.push("CharacterMoved", 2, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 2, room="archive", token={"effect": "silence", "items": 1}))
    ok(g.push("IntruderPlaced", None, kind="adult", room="slot-04", by="event: Hatching"))  # named cause (decision 0039)
    ok(g.push("Passed", 2))
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    attacks = {p.intruder: p for p in g.state.pending}
    for iid in list(attacks):
        ok(g.push("IntruderAttacked", None, intruder=iid, card="Draśnięcie"))
    assert g.state.characters[1].light == 2 and g.state.characters[2].light == 1  # darkness: +1 light wound


# --- 16. event cards: the effects the digests give are derived -------------------------------------------------

def to_event_card(g):
    all_pass(g)
    if g.state.step == "css_launch":
        ok(g.push("CssTokenRevealed", token="NONE"))
    ok(g.push("TimeAdvanced"))
    ok(g.push("NoiseMarkersCleared", removed=[]))
    while g.state.pending:
        ok(g.push("IntruderAttacked", None, intruder=g.state.pending[0].intruder, card="Evolve"))


def test_event_cards_kickstopper_damage_power_surge_bulkheads_and_fire_in_the_hole():
    """gaps_filled.md §6 (C1, card photos): Kickstopper — the elevator's power token inactive, a malfunction in all
    Elevator Rooms; Damage — a malfunction in every room with an adult, breeder or queen; Power Surge (Przepięcie) —
    the time token to its inactive side; Bulkheads Open — every door not destroyed opens; Fire in the Hole — fire in
    CSS rooms A, B, C, a serious wound to each character there with no action card."""
    g = new_game(2, characters=["survivor", "janitor"])
    to_event_card(g)
    ok(g.push("EventCardDrawn", card="kickstopper", corridors=[2, 4]))
    assert g.state.power["elevator"][1] is False
    assert all(g.state.rooms[p].malfunction for p in ("elevator_room_s01", "elevator_room_s02", "elevator_room_s03"))
    assert g.state.removed_events >= {"kickstopper"}

    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 1}))
    ok(g.push("CharacterMoved", 1, to_room="slot-05", corridor=1))
    ok(g.push("RoomExplored", 1, room="laboratory", token={"effect": "silence", "items": 1}))
    ok(g.push("IntruderPlaced", None, kind="adult", room="slot-04"))
    ok(g.push("DoorChanged", None, room="slot-05", corridor=2, state="closed"))
    to_event_card(g)
    ok(g.push("EventCardDrawn", card="damage", corridors=[3]))
    assert g.state.rooms["slot-04"].malfunction and not g.state.rooms["slot-05"].malfunction
    ok(g.push("ColonyTokenDrawn", token="blank"))
    ok(g.push("FirstPlayerPassed", 1))
    to_event_card(g)
    assert g.state.doors
    ok(g.push("EventCardDrawn", card="bulkheads_open", corridors=[1]))
    assert not g.state.doors

    g = new_game(2, characters=["survivor", "janitor"])
    g.state = replace(g.state, emergency_power=True)  # as after the Backup Power Supply's action
    to_event_card(g)
    ok(g.push("EventCardDrawn", card="Przepięcie", corridors=[3]))
    assert g.state.emergency_power is False

    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-01", corridor=1))
    ok(g.push("RoomExplored", 1, room="css_b", token={"effect": "silence", "items": 1}))
    all_pass(g)  # the survivor passes holding cards; at the event card she holds none after discarding
    g.state = replace(g.state, characters=type(g.state.characters)({**g.state.characters, 1: replace(
        g.state.characters[1], hand=0)}))
    to_event_card(g)
    ok(g.push("EventCardDrawn", card="fire_in_the_hole", corridors=[1]))
    assert g.state.rooms["slot-01"].fire and len(g.state.characters[1].serious) == 1
    assert "event-effect" in types(g)  # CSS A and C are not placed: the table is told


# --- 11. a move caused by a card has its own fact ----------------------------------------------------------------

def test_a_move_caused_by_a_card_has_its_own_fact():
    """Seed 000 L3053–3055: some actions other than the basic Move move a character and change how the move goes. A
    card's move is ``CharacterMovedByEffect``: no card paid, no action counted, no escape attack; the room entered is
    still explored (or rolled for noise when empty) unless the fact says not."""
    g = new_game(2, characters=["survivor", "janitor"])
    start = g.state.characters[1].room
    ok(g.push("IntruderPlaced", None, kind="adult", room=start))
    hand, actions = g.state.characters[1].hand, g.state.characters[1].actions
    ok(g.push("CharacterMovedByEffect", 1, to_room="slot-06", effect="vents"))
    c = g.state.characters[1]
    assert c.room == "slot-06" and c.hand == hand and c.actions == actions
    assert [p.kind for p in g.state.pending] == ["explore"]  # no escape attack, the room is explored
    assert "card-move" in types(g) and "escape" not in types(g)
    ok(g.push("RoomExplored", 1, room="laboratory", token={"effect": "silence", "items": 1}))
    ok(g.push("CharacterMovedByEffect", 1, to_room="slot-04", effect="vents", resolve=False))
    assert g.state.characters[1].room == "slot-04" and not g.state.pending and not g.state.rooms["slot-04"].explored
    ok(g.push("CharacterDied", 2, cause="wounds"))
    assert rules(g.check("CharacterMovedByEffect", 2, to_room="slot-04", effect="vents"))
    assert "vents" in LOCKDOWN.narrate(g.states[-3], g.facts[-2], g.states[-2])
