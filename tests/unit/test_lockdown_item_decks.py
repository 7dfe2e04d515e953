"""The red, yellow and green item decks (issue 10 part 2, decision 0037): each case cites the rulebook line it checks.

seed 000 = shared/seeds/000_…txt (the Polish Lockdown rulebook). Where the seeds are silent (an empty deck) the
assumption is in docs/rules-gaps.md.
"""
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.items import draw, item_deck, next_known
from service.rules.lockdown.state import ItemDeck
from service.rules.kit.replace import replace
from tests.unit.test_lockdown_examples import ok, types
from types import MappingProxyType


def in_archive(items=3):
    """Ocalała (seat 1) in the white Archive with ``items`` on its counter (seed 000 L3842–3847)."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("CharacterMoved", 1, to_room="slot-04", corridor=1))
    ok(g.push("RoomExplored", 1, room="Archiwum", token={"effect": "silence", "items": items}))
    return g


def with_decks(g, **decks):
    g.state = replace(g.state, item_decks=MappingProxyType({**g.state.item_decks, **decks}))


def test_search_in_a_white_room_draws_both_cards_from_the_one_deck_named_and_returns_the_other_to_its_bottom():
    """Seed 000 L3849–3852: in the white Archive the Survivor draws 2 cards from the red deck, keeps "Akumulator do
    broni" and puts "Światło chemiczne" face down on the bottom of the red deck. The other decks are untouched."""
    g = in_archive()
    ok(g.push("RoomSearched", 1, kept="Akumulator do broni", colour="red", returned="Światło chemiczne"))
    red = item_deck(g.state, "red")
    assert red.cards == 29 and red.bottom == ("Światło chemiczne",) and red.discard == ()
    assert item_deck(g.state, "yellow") == ItemDeck() and item_deck(g.state, "green") == ItemDeck()
    assert "item-to-deck-bottom" in types(g)


def test_search_without_the_card_not_kept_named_still_puts_a_card_on_the_bottom():
    """Seed 000 L2087–2091 (Search): "choose one of them, put the other on the bottom of its deck" — a stored
    RoomSearched without ``returned`` folds as before, and the deck still holds one unnamed card at the bottom."""
    g = in_archive()
    ok(g.push("RoomSearched", 1, kept="Medkit", colour="green"))
    green = item_deck(g.state, "green")
    assert green.cards == 29 and green.bottom == (None,)
    assert [i.name for i in g.state.characters[1].items] == ["Medkit"] and g.state.rooms["slot-04"].items == 2


def test_an_unknown_returned_card_is_an_unnamed_card():
    g = in_archive()
    ok(g.push("RoomSearched", 1, kept="Medkit", colour="green", returned="unknown"))
    assert item_deck(g.state, "green").bottom == (None,)


def test_the_cards_put_on_the_bottom_come_back_in_order_once_the_unknown_ones_are_drawn():
    """L3593–3595: cards go face down to the bottom; once the shuffled cards above them are drawn, the table knows
    the next cards — the Search offer names them, and the card not kept goes back under them."""
    g = in_archive()
    with_decks(g, red=ItemDeck(cards=3, bottom=("Grenade", "Glowstick")))
    assert next_known(g.state, "red", 2) is None  # 1 unknown card still on top
    with_decks(g, red=ItemDeck(cards=2, bottom=("Grenade", "Glowstick")))
    assert next_known(g.state, "red", 2) == ["Grenade", "Glowstick"]
    offers = [(e.options["kept"], e.options["returned"]) for e in LOCKDOWN.next_inputs(g.state)
              if e.type == "RoomSearched" and e.options["colour"] == ["red"]]
    assert offers == [(["Grenade"], ["Glowstick"]), (["Glowstick"], ["Grenade"])]
    ok(g.push("RoomSearched", 1, kept="Glowstick", colour="red"))  # the other one is known: Grenade goes back
    assert item_deck(g.state, "red") == ItemDeck(cards=1, bottom=("Grenade",))
    assert "item-deck-order" not in types(g)


def test_a_search_against_the_known_order_is_noted_not_refused():
    g = in_archive()
    with_decks(g, red=ItemDeck(cards=2, bottom=("Grenade", "Glowstick")))
    ok(g.push("RoomSearched", 1, kept="Shotgun", colour="red", returned="Grenade"))
    assert "item-deck-order" in types(g)
    assert item_deck(g.state, "red") == ItemDeck(cards=1, bottom=("Grenade",))


def test_a_dropped_item_is_lost_to_the_bottom_of_its_deck():
    """Seed 000 L3685–3687: dropped items are lost, their cards go to the bottom of their decks (objects stay)."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("ItemGained", 1, item="Toolbelt", colour="yellow"))  # e.g. an exploration token's yellow item
    assert item_deck(g.state, "yellow").cards == 29
    ok(g.push("ItemDropped", 1, item="Toolbelt"))
    assert item_deck(g.state, "yellow") == ItemDeck(cards=30, bottom=("Toolbelt",))
    assert not g.state.characters[1].items


def test_an_item_used_up_goes_face_up_to_the_discard_pile():
    """Seed 000 L3591–3593, L3668–3669: a single-use item discarded after its use goes to the discard pile."""
    g = in_archive()
    ok(g.push("RoomSearched", 1, kept="Medkit", colour="green"))
    ok(g.push("ItemUsed", 1, item="Medkit", discarded=True, note="a free use"))
    green = item_deck(g.state, "green")
    assert green.discard == ("Medkit",) and green.cards == 29 and green.bottom == (None,)
    assert not g.state.characters[1].items


def test_crafting_components_go_to_the_bottom_of_their_decks_and_blue_is_not_tracked():
    """Seed 000 L3593–3595: an item discarded for another reason than its use goes face down to the bottom of its
    deck — crafting discards its 2 components (L3820–3823). The crafted (blue) deck is never drawn (L3704–3711)."""
    g = new_game(2, characters=["survivor", "janitor"])
    ok(g.push("ItemGained", 1, item="Reagent", colour="green"))
    ok(g.push("ItemGained", 1, item="Lighter", colour="yellow"))
    assert item_deck(g.state, "green").cards == 29  # an item gained in play in a deck's colour is drawn from it
    ok(g.push("ItemCrafted", 1, item="Flamethrower", ingredients=["Reagent", "Lighter"], ammo=4))
    assert item_deck(g.state, "green").bottom == ("Reagent",) and item_deck(g.state, "yellow").bottom == ("Lighter",)
    assert "blue" not in g.state.item_decks
    ok(g.push("ItemDropped", 1, item="Flamethrower"))
    assert "blue" not in g.state.item_decks


def test_an_empty_deck_is_formed_anew_from_its_discard_pile():
    """The seeds are silent (docs/rules-gaps.md): as the event deck (L1812–1815) and the attack deck (L3165–3166),
    an empty item deck is its discard pile shuffled."""
    g = in_archive()
    with_decks(g, green=ItemDeck(cards=1, bottom=("Clothes",), discard=("Medkit", "Scalpel")))
    ok(g.push("RoomSearched", 1, kept="Clothes", colour="green", returned="Scalpel"))
    green = item_deck(g.state, "green")
    assert green.reshuffles == 1 and green.discard == () and green.cards == 2 and green.bottom == ("Scalpel",)
    assert "item-deck-reshuffled" in types(g)


def test_nothing_left_to_draw():
    cons = []
    g = in_archive()
    with_decks(g, red=ItemDeck(cards=0))
    state, drawn = draw(g.state, "red", 2, cons)
    assert drawn == [] and [c.type for c in cons] == ["item-deck-empty"]


def test_a_white_room_offers_every_deck_and_the_card_not_kept():
    g = in_archive()
    offers = [e for e in LOCKDOWN.next_inputs(g.state) if e.type == "RoomSearched"]
    assert [e.options["colour"] for e in offers] == [["red"], ["yellow"], ["green"]]
    assert all("returned" in e.options for e in offers)


def test_trades_and_starting_items_leave_the_decks_alone():
    g = in_archive()
    before = g.state.item_decks
    ok(g.push("RoomSearched", 1, kept="Medkit", colour="green"))
    after_search = g.state.item_decks
    assert before != after_search
    g2 = new_game(2, characters=["survivor", "janitor"])
    assert g2.state.item_decks == {}
