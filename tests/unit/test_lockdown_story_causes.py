"""The story tells a fact's named cause (``by``, decision 0039) and the card a Search put back (``returned``,
decision 0037), in English and in Polish (decision 0045)."""
from __future__ import annotations

import pytest

from service import i18n
from service.rules.base import Fact, Seat, Setup
from service.rules.lockdown import story
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.state import initial_state
from web.i18n import translations


@pytest.fixture(scope="module")
def table():
    return initial_state(Setup(players=(Seat(1, "Ada"), Seat(2, "Bo"))))


def tell(state, type_, data, actor=1):
    return LOCKDOWN.narrate(state, Fact(9, type_, data, actor), state)


@pytest.mark.parametrize("by, told", [
    ("event:Coolant Leak", "the event card “Coolant Leak”"),
    ("event: coolant leak", "the event card “Coolant Leak”"),  # as the catalogue prints it
    ("attack: cut", "the attack card “Cut”"),
    ("room:Nest", "the room “Nest”"),
    ("item:Analyze Toolset", "the item “Analyze Toolset”"),
    ("Interruption", "“Interruption”"),  # an action card, no prefix: its name
    ("a table rule", "“a table rule”"),  # any other name, as recorded
])
def test_the_cause_is_named_as_its_catalogue_prints_it(by, told):
    assert story.cause_words(by) == told


def test_a_death_with_a_named_cause_tells_it_before_the_full_stop(table):
    text = tell(table, "CharacterDied", {"cause": "event", "by": "event:Coolant Leak"})
    assert text == "Ada dies: an event (caused by the event card “Coolant Leak”)."
    assert tell(table, "CharacterDied", {"cause": "event"}) == "Ada dies: an event."  # nothing named: as before


@pytest.mark.parametrize("type_, data", [
    ("KnowledgeGained", {"amount": 2}), ("ItemGained", {"item": "Medkit", "colour": "green"}),
    ("SelfDestructStarted", {}), ("IntruderPlaced", {"kind": "adult", "room": "nest"}),
])
def test_every_warranted_fact_type_tells_its_cause(table, type_, data):
    text = tell(table, type_, {**data, "by": "room:Nest"}, actor=None if type_ in ("SelfDestructStarted", "IntruderPlaced") else 1)
    assert text.endswith(" (caused by the room “Nest”).") and text.count("(caused by") == 1, text


def test_a_search_tells_the_card_put_back_at_the_bottom_of_its_deck(table):
    text = tell(table, "RoomSearched", {"kept": "Flashlight", "colour": "yellow", "returned": "Duct Tape"})
    assert text == "Ada searches the room, keeps the Flashlight and puts the Duct Tape at the bottom of the yellow deck."
    assert tell(table, "RoomSearched", {"kept": "Flashlight", "colour": "yellow"}) == \
        "Ada searches the room and keeps the Flashlight (yellow)."  # the card put back not named: as before


def test_in_polish_the_cause_and_the_card_put_back_are_told_in_polish(table):
    with i18n.language("pl", translations("pl")):
        died = tell(table, "CharacterDied", {"cause": "event", "by": "event:Coolant Leak"})
        searched = tell(table, "RoomSearched", {"kept": "Flashlight", "colour": "yellow", "returned": "Duct Tape"})
        item = tell(table, "KnowledgeGained", {"amount": 3, "by": "item:Analyze Toolset"})
    assert died.endswith("(przyczyna: karta wydarzenia „Wyciek chłodziwa”).") and "caused" not in died, died
    assert "Duct Tape" in searched and "na spód talii (żółty)" in searched, searched
    assert item.endswith("(przyczyna: przedmiot „Narzędzia badawcze”).") and "Analyze" not in item, item
