"""What the guided recorder needs from the rules: the event phase's steps in order, the rules' defaults, the first
player token skipping observers (docs/rules-gaps.md), and table values offered as lists instead of free text."""
from service.rules.base import Expected
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.inputs import round_procedure
from service.rules.lockdown.state import with_character


def rules(violations):
    return [v.rule for v in violations]


def all_pass(g):
    while g.state.phase == "player":
        assert g.push("Passed", g.state.turn) == []


def offered(g, type_):
    return next(e for e in LOCKDOWN.next_inputs(g.state) if e.type == type_)


def test_expected_keeps_its_old_form_and_shows_a_default_only_when_set():
    assert Expected("TimeAdvanced").as_dict() == {"type": "TimeAdvanced", "actor": None, "options": {}, "note": ""}
    e = Expected("NoiseMarkersCleared", None, {"removed": [1]}, "n", {"removed": [1]})
    assert e.as_dict()["default"] == {"removed": [1]}


def test_the_round_procedure_walks_the_event_phase_in_rulebook_order():
    g = new_game(2)
    assert round_procedure(g.state) == []  # the player phase of round 1: no procedure shown
    all_pass(g)
    steps = round_procedure(g.state)
    assert [s["fact"] for s in steps] == ["CssTokenRevealed", "TimeAdvanced", "NoiseMarkersCleared", "IntruderAttacked",
                                          "EventCardDrawn", "ColonyTokenDrawn", "FirstPlayerPassed"]
    assert [s["status"] for s in steps][:3] == ["done", "now", "next"]
    g.push("TimeAdvanced")
    assert offered(g, "NoiseMarkersCleared").default == {"removed": offered(g, "NoiseMarkersCleared").options["removed"]}
    g.push("NoiseMarkersCleared", removed=[])
    assert next(s for s in round_procedure(g.state) if s["status"] == "now")["fact"] == "EventCardDrawn"
    g.push("EventCardDrawn", card="lurking", corridors=[2])
    g.push("ColonyTokenDrawn", token="larva")
    assert next(s for s in round_procedure(g.state) if s["status"] == "now")["fact"] == "FirstPlayerPassed"


def test_the_first_player_token_skips_players_whose_characters_left_the_game():
    g = new_game(3)
    all_pass(g)
    for fact, data in (("TimeAdvanced", {}), ("NoiseMarkersCleared", {"removed": []}),
                       ("EventCardDrawn", {"card": "lurking", "corridors": [2]}), ("ColonyTokenDrawn", {"token": "larva"})):
        assert g.push(fact, **data) == []
    g.state = with_character(g.state, 2, status="dead", room=None, passed=True)  # seat 2, on seat 1's left, died
    assert g.state.first_player == 1
    assert offered(g, "FirstPlayerPassed").options == {"to": [3]}
    assert rules(g.check("FirstPlayerPassed", 1, to=3)) == []
    assert rules(g.check("FirstPlayerPassed", 1, to=2)) == []  # the plain left neighbour: facts stored before
    assert rules(g.check("FirstPlayerPassed", 1, to=1)) == ["first-player-wrong-seat"]
    assert g.push("FirstPlayerPassed", 1) == []  # no 'to': the rules' seat
    assert g.state.first_player == 3 and g.state.turn == 3


def test_table_values_are_offered_as_lists():
    g = new_game(2)
    g.push("BoardPrepared", board="basic")
    g.push("CharacterChosen", 1, character="lab_rat")
    g.push("CharacterChosen", 2, character="janitor")
    objectives = offered(g, "ObjectivesDealt").options["objectives"]
    assert "nest_destroyed" in objectives and "player_must_not_survive:2" in objectives
    assert "player_must_not_survive:3" not in objectives  # no such seat
    assert "sectors_explored:S-01,S-02" in objectives and "knowledge_at_least:5" in objectives
    assert offered(g, "ContingencyTokensDealt").options["tokens"][-1] == "unknown"
    assert rules(g.check("ObjectivesDealt", 1, objectives=["nest_destroyed", "player_must_not_survive:2"])) == []
