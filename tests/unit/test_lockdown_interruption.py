"""Interruption (Przeszkodzenie) and the other out-of-turn reaction cards (issue 10 part 2, decision 0038).

seed 000 = shared/seeds/000_…txt (the Polish Lockdown rulebook): L1925–1927 "the player must pay the action's cost
even if another player interrupted it; an interrupted single-use item is discarded". gaps_filled.md §10 (the
Hacker's card): "cancels another player's action in your room; the cost is still paid". seed 004 L236–239: the card
is played once the action is declared; L353–354: what is not an action cannot be interrupted. seed 001 L2150,
L2162 (Retaliation): players who passed may still react; a reaction is not an action. docs/rules-gaps.md says what
is assumed.
"""
from service import i18n
from web.i18n import translations
from service.rules.base import Fact
from service.rules.kit.snapshot import digest, snapshot
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import new_game
from tests.unit.test_lockdown_examples import ok, rules, types


def table():
    """Seat 1 (Hacker) and seat 2 (Janitor) start in the Repository, seat 3 (Survivor) in the Isolation Room;
    seat 1 passes at once, so seat 2 acts next."""
    g = new_game(3, characters=["hacker", "janitor", "survivor"])
    assert g.state.characters[1].room == g.state.characters[2].room == "repository"
    ok(g.push("Passed", 1))
    assert g.state.turn == 2
    return g


def interrupt(g, seat=1, against=2, cancels="CharacterMoved", **data):
    return g.push("ActionInterrupted", seat, card="Interruption", against=against, cancels=cancels, **data)


def refused(g, seat=1, against=2, cancels="CharacterMoved", **data):
    """The rules an Interruption would break here (checked, not recorded)."""
    return rules(g.check("ActionInterrupted", seat, card="Interruption", against=against, cancels=cancels, **data))


def test_a_character_who_passed_interrupts_a_move_in_its_room_which_does_nothing_but_its_cost_stays_paid():
    """Seed 000 L1925–1926: the cost is paid though the action is interrupted; the move itself does not happen
    (the room entered is not explored). Seat 1 has passed and still reacts (seed 001 L2150)."""
    g = table()
    before = g.state
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    assert g.state.characters[2].room == "slot-05" and g.state.pending  # the exploration is due
    ok(interrupt(g))
    c = g.state.characters[2]
    assert c.room == "repository" and not g.state.pending and "slot-05" not in {
        p for p, r in g.state.rooms.items() if r.explored and not before.rooms[p].explored}
    assert c.hand == before.characters[2].hand - 1 and c.actions == 1  # 1 card paid, 1 of the 2 actions spent
    assert g.state.characters[1].hand == before.characters[1].hand - 1  # the Interruption card itself
    assert g.state.characters[1].passed and g.state.characters[1].actions == 0  # a reaction is no action
    assert g.state.turn == 2  # the Janitor's turn goes on: one action left
    assert "action-interrupted" in types(g)
    cancelled = next(x for x in g.consequences if x.type == "action-interrupted")
    assert (cancelled.data["against"], cancelled.data["action"], cancelled.data["paid"]) == (2, "CharacterMoved", 1)
    assert g.state.interruptible is None  # one Interruption per action
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))  # the second action: now the move happens
    assert g.state.characters[2].room == "slot-05"


def test_the_own_action_cannot_be_interrupted():
    g = table()
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    assert refused(g, seat=2) == ["own-action"]


def test_only_a_character_in_the_acting_characters_room_interrupts():
    """gaps_filled.md §10: "another player's action in your room" — the Survivor is in the Isolation Room."""
    g = table()
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    assert refused(g, seat=3) == ["interrupt-not-in-room"]


def test_only_the_action_just_recorded_is_interrupted_and_only_an_action():
    """The window is the fact right after the action; a pass, a reaction card or anything recorded in between
    leaves nothing to cancel (seed 004 L353–354: what is not an action cannot be interrupted)."""
    g = table()
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    assert refused(g, cancels="RoomSearched") == ["nothing-to-interrupt"]  # not what was recorded
    assert refused(g, against=3) == ["nothing-to-interrupt"]
    ok(g.push("RoomExplored", 2, room="laboratory", token={"effect": "silence", "items": 2}))
    assert refused(g) == ["nothing-to-interrupt"]  # the move resolved: too late
    g = table()
    ok(g.push("ActionCardPlayed", 2, card="Rest", reaction=True))
    assert refused(g, cancels="ActionCardPlayed") == ["nothing-to-interrupt"]
    ok(g.push("Passed", 2))
    assert refused(g, cancels="Passed") == ["nothing-to-interrupt"]


def test_the_interruption_costs_its_card_and_its_printed_cost_and_needs_them_in_hand():
    g = table()
    hand = g.state.characters[1].hand
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    assert refused(g, cost=hand) == ["not-enough-cards"]
    ok(interrupt(g, cost=1))
    assert g.state.characters[1].hand == hand - 2


def test_an_interrupted_single_use_item_is_discarded_and_its_cost_paid():
    """Seed 000 L1926–1927: "if a single-use item's action was interrupted, discard that item card"."""
    g = table()
    ok(g.push("ItemGained", 2, item="Medkit", colour="green"))
    hand = g.state.characters[2].hand
    ok(g.push("ItemUsed", 2, item="Medkit", cost=1, discarded=True, note="dressed a wound"))
    ok(interrupt(g, cancels="ItemUsed"))
    c = g.state.characters[2]
    assert not any(i.name == "Medkit" for i in c.items) and c.hand == hand - 1 and c.actions == 1
    assert "item-discarded" in types(g)
    assert g.state.item_decks["green"].discard == ("Medkit",)  # used up: its discard pile (L3591–3593), once


def test_an_interrupted_second_action_still_ends_the_turn():
    """It counts as an action (assumption, docs/rules-gaps.md): after the second one the turn passes on."""
    g = table()
    ok(g.push("ActionCardPlayed", 2, card="Rest"))
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    assert g.state.characters[2].actions == 2 and g.state.pending  # the turn passes once the exploration is done
    ok(interrupt(g))
    assert g.state.characters[2].room == "repository" and g.state.turn == 3 and not g.state.pending


def test_the_recorder_offers_it_to_who_may_play_it_and_tells_it_in_both_languages():
    g = table()
    assert not [e for e in LOCKDOWN.next_inputs(g.state) if e.type == "ActionInterrupted"]
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    offers = [e for e in LOCKDOWN.next_inputs(g.state) if e.type == "ActionInterrupted"]
    assert [(e.actor, dict(e.options)) for e in offers] == [
        (1, {"card": ["Interruption"], "against": [2], "cancels": ["CharacterMoved"]})]
    fact = Fact(9, "ActionInterrupted", {"card": "Interruption", "against": 2, "cancels": "CharacterMoved"}, 1)
    english = LOCKDOWN.narrate(g.state, fact, g.state)
    assert "interrupts the move of" in english and "Interruption" in english
    with i18n.language("pl", translations("pl")):
        polish = LOCKDOWN.narrate(g.state, fact, g.state)
    assert "przerywa akcję" in polish and "Przeszkodzenie" in polish and "ruch" in polish
    assert LOCKDOWN.display_name("fact_note", "ActionInterrupted", "pl")
    for code in ("own-action", "nothing-to-interrupt", "interrupt-not-in-room"):
        assert LOCKDOWN.display_name("violation", code, "pl"), code
    assert LOCKDOWN.display_name("consequence", "action-interrupted", "pl")


def test_a_reaction_card_played_as_before_cancels_nothing_and_the_fold_shows_only_who_acted():
    """Stored games record an Interruption as ActionCardPlayed with reaction: true: it still folds as before (the
    card paid, not an action, nothing undone)."""
    g = table()
    ok(g.push("CharacterMoved", 2, to_room="slot-05", corridor=1))
    hand = g.state.characters[1].hand
    ok(g.push("ActionCardPlayed", 1, card="Interruption", reaction=True))
    assert g.state.characters[2].room == "slot-05" and g.state.characters[1].hand == hand - 1
    assert g.state.interruptible is None
    # the state's snapshot names the action that may be interrupted, not the whole state before it
    ok(g.push("RoomExplored", 2, room="laboratory", token={"effect": "silence", "items": 2}))
    ok(g.push("CharacterMoved", 2, to_room="repository", corridor=1))
    assert snapshot(g.state)["interruptible"] == [["seat", 2], ["type", "CharacterMoved"]]
    assert digest(snapshot(g.state))
