"""Setup facts: board, characters, start of round 1."""
import pytest

from service.rules.base import Seat, Setup
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import Game, new_game


def game(players=2, board="basic", mode="standard"):
    return Game(Setup(players=tuple(Seat(i, f"P{i}") for i in range(1, players + 1)), mode=mode,
                      options={"board": board}))


def rules(violations):
    return [v.rule for v in violations]


def test_registry_exports_lockdown():
    from service.rules import get_ruleset

    assert get_ruleset("lockdown") is LOCKDOWN
    assert LOCKDOWN.title == "Nemesis: Lockdown" and LOCKDOWN.modes == ("standard", "solo", "coop")


@pytest.mark.parametrize("players", [0, 6])
def test_player_count(players):
    with pytest.raises(ValueError):
        LOCKDOWN.initial_state(Setup(players=tuple(Seat(i, "x") for i in range(1, players + 1))))


def test_unknown_mode_and_solo_count():
    with pytest.raises(ValueError):
        LOCKDOWN.initial_state(Setup(players=(Seat(1, "a"),), mode="versus"))
    with pytest.raises(ValueError):
        LOCKDOWN.initial_state(Setup(players=(Seat(1, "a"), Seat(2, "b")), mode="solo"))


def test_full_setup_places_characters_and_deals_hands():
    g = new_game(3, characters=["survivor", "hacker", "lab_rat"])
    s = g.state
    assert s.phase == "player" and s.round == 1 and s.turn == 1
    assert s.characters[1].room == "isolation_room" and s.characters[1].hand == 6  # Isolation Room: 6
    assert s.characters[2].room == "repository" and s.characters[2].hand == 5
    assert s.characters[1].knowledge == 3 and s.characters[2].knowledge == 1
    assert [c.type for c in g.consequences].count("cards-drawn") == 3
    assert s.bag["adult"] == 3 + 3  # 3 adults + 1 per player


def test_board_prepared_records_tiles():
    g = game()
    assert g.push("BoardPrepared", board="basic", tiles={"slot-04": "Archive", "slot-01": "surgery"}) == []
    assert g.state.rooms["slot-04"].tile == "archive"
    assert not g.state.rooms["slot-04"].explored


def test_board_prepared_violations():
    g = game()
    assert rules(g.check("BoardPrepared", board="synthetic")) == ["board-mismatch"]
    assert rules(g.check("BoardPrepared", board="basic", tiles={"slot-04": "surgery"})) == ["tile-kind"]
    assert rules(g.check("BoardPrepared", board="basic", tiles={"slot-04": "nest", "slot-05": "nest"})) == ["tile-twice"]
    v = g.check("BoardPrepared", board="basic", tiles={"slot-99": "nest"})
    assert v[0].shape and v[0].field == "tiles"
    g.push("BoardPrepared", board="basic")
    assert rules(g.check("BoardPrepared", board="basic")) == ["setup-order"]


def test_character_choice_rules():
    g = game()
    assert rules(g.check("CharacterChosen", 1, character="survivor")) == ["setup-order"]  # board first
    g.push("BoardPrepared", board="basic")
    assert g.push("CharacterChosen", 1, character="Ocalała") == []
    assert rules(g.check("CharacterChosen", 2, character="survivor")) == ["character-taken"]
    assert rules(g.check("CharacterChosen", 1, character="hacker")) == ["already-chosen"]
    assert rules(g.check("SetupCompleted")) == ["setup-order"]
    v = g.check("CharacterChosen", 2, character="Ripley")
    assert v[0].shape and v[0].field == "character"
    g.push("CharacterChosen", 2, character="janitor")
    assert g.push("SetupCompleted", first_player=2) == []
    assert g.state.first_player == 2 and g.state.turn == 2
    assert rules(g.check("SetupCompleted")) == ["setup-order"]


def test_play_before_setup_is_refused():
    g = game()
    assert rules(g.check("TimeAdvanced")) == ["setup-not-finished"]
