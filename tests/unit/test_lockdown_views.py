"""describe / position / score, and the documentation of the fact vocabulary."""
import json
from pathlib import Path

from service.rules.base import Result
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.facts import FACTS
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.generate import facts_of, generate_game

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_position_shape():
    g = new_game(2)
    assert g.position() == {"round": 1, "phase": "player", "step": "turns", "acting": 1, "finished": False}
    g.push("CharacterMoved", 1, to_room="alert_room", corridor=1)
    assert g.position()["step"] == "noise_roll" and g.position()["acting"] == 1


def test_describe_is_json_and_human_readable():
    setup, generated = generate_game(11, players=4)
    state = LOCKDOWN.initial_state(setup)
    for fact in facts_of(generated):
        state, _ = LOCKDOWN.apply(state, fact)
        json.dumps(LOCKDOWN.describe(state))
    d = LOCKDOWN.describe(state)
    assert {"game", "time", "players", "rooms", "intruders"} <= set(d)
    assert d["game"]["synthetic board"] is True
    assert d["time"]["time token on"] == "12"
    assert {"seat", "character", "room", "cards in hand", "passed"} <= set(d["players"][0])


def test_describe_names_rooms_in_english_and_polish():
    g = new_game(1, mode="solo")
    rooms = {r["space"]: r for r in LOCKDOWN.describe(g.state)["rooms"]}
    assert rooms["isolation_room"]["room"] == "Isolation Room"
    assert rooms["isolation_room"]["room (PL)"] == "Izolatka"
    assert rooms["slot-01"]["room"] is None and rooms["slot-01"]["explored"] is False


def test_score_is_none_until_the_game_ends_then_undetermined():
    g = new_game(3)
    assert LOCKDOWN.score(g.state) is None
    assert g.push("GameEnded", ending="abandoned", note="club closed") == []
    result = LOCKDOWN.score(g.state)
    assert isinstance(result, Result) and result.ending == "abandoned"
    assert [p.outcome for p in result.players] == ["undetermined"] * 3
    assert result.as_dict()["players"][0]["seat"] == 1
    assert g.position()["finished"] and LOCKDOWN.next_inputs(g.state) == []
    assert [v.rule for v in g.check("GameEnded", ending="abandoned")] == ["game-over"]


def test_game_can_be_abandoned_during_setup():
    from service.rules.base import Seat, Setup
    from service.rules.lockdown.fold import Game

    g = Game(Setup(players=(Seat(1, "A"),)))
    assert g.push("GameEnded", ending="abandoned") == []
    assert LOCKDOWN.score(g.state).ending == "abandoned"


def test_shape_invalid_fact_is_not_applied():
    g = new_game(2)
    before = g.state
    g.push("CharacterMoved", 1, to_room="Moon", corridor=1)
    assert g.state.characters == before.characters
    assert g.consequences[0].type == "fact-ignored"


def test_every_fact_type_is_documented():
    text = (DOCS / "lockdown-facts.md").read_text(encoding="utf-8")
    for name, spec in FACTS.items():
        assert f"`{name}`" in text, name
        for f in spec.fields:
            assert f"`{f.name}`" in text, (name, f.name)


def test_rules_gaps_document_exists():
    text = (DOCS / "rules-gaps.md").read_text(encoding="utf-8")
    assert "gaps_filled.md" in text and "synthetic" in text
