"""The replay as a story: every fact narrated, key moments, corrections, and how the game ended."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.demo import HERE as DEMO_DIR
from service.notation import read_file
from service.rules.base import Fact, Seat, Setup
from service.rules.lockdown import story
from service.rules.lockdown.facts import FACTS
from service.rules.lockdown.generate import facts_of, generate_game
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.replay import fold
from service.rules.story import tell

DOCS = Path(__file__).resolve().parents[2] / "docs" / "lockdown-facts.md"


def demo(name: str) -> tuple[Setup, list[Fact]]:
    g = read_file(DEMO_DIR / name)
    h = g.header
    setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in h["players"]), mode=h["mode"],
                  options=h.get("options") or {})
    return setup, [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"), f.get("visibility", "public"))
                   for f in g.facts]


@pytest.fixture(scope="module")
def mid_game():
    """A state in the middle of a generated three-player game: characters placed, rooms explored."""
    setup, generated = generate_game(4, players=3, max_rounds=3)
    replay = fold(LOCKDOWN, setup, facts_of(generated))
    return replay.steps[len(replay.steps) // 2].state


def test_the_catalogue_page_and_the_narrators_cover_the_same_fact_types():
    documented = set(re.findall(r"^### `(\w+)`", DOCS.read_text(encoding="utf-8"), re.M))
    assert documented == set(FACTS)
    assert story.unnarrated() == set()


@pytest.mark.parametrize("fact_type", sorted(FACTS))
def test_every_fact_type_of_the_catalogue_narrates_in_its_own_words(mid_game, fact_type):
    spec = FACTS[fact_type]
    actor = mid_game.seats[0] if spec.actor == "seat" else None
    example = dict(spec.example)
    if "with" in example or fact_type == "ContingencyTokenPeeked":  # a seat of this game
        example = {**example, **({"with": mid_game.seats[1]} if "with" in example else {"owner": mid_game.seats[1]})}
    fact = Fact(99, fact_type, example, actor)
    text = LOCKDOWN.narrate(mid_game, fact, mid_game)
    assert text != story.generic(fact), f"{fact_type} fell back to the generic form"
    assert fact_type not in text and text.endswith((".", "!")) and text[0].isupper()
    if actor is not None:
        assert story.player(mid_game, actor) in text  # named, not "seat 1"
    assert "seat " not in text


def test_a_sentence_names_the_player_and_the_character_and_the_room():
    setup, facts = demo("club-three-players.jsonl")
    rp = fold(LOCKDOWN, setup, facts)
    lines = {e.seq: e for e in tell(rp).entries}
    assert lines[12].text == "Greta (Sentry) moves to an unexplored room (slot-12) through corridor 2."
    assert lines[13].text == "Greta (Sentry) explores the Cargo Sending System A: slime, 4 items to search."
    careful = next(e for e in lines.values() if "moves carefully to" in e.text)
    assert re.match(r"^\w+ \(\w[\w ]*\) moves carefully to the ", careful.text)
    # derived consequences are sub-lines, with names, and not a copy of the sentence
    assert "Greta (Sentry) gets a slime marker." in lines[13].details
    assert all("seat " not in d for e in lines.values() for d in e.details)
    assert lines[18].text == "Ada (Hacker) passes." and "Ada (Hacker) passes." not in lines[18].details


def test_steps_are_grouped_under_rounds_and_phases():
    setup, facts = demo("friday-four-players.jsonl")
    st = tell(fold(LOCKDOWN, setup, facts))
    headings = list(dict.fromkeys(e.heading for e in st.entries))
    assert headings[:4] == ["Setup", "Round 1 · Player phase", "Round 1 · Event phase", "Round 2 · Player phase"]
    assert headings[-1] == "After the end"
    assert [r for r, _ in st.rounds] == list(range(1, len(st.rounds) + 1))
    # a round's first step is where the state enters it
    for r, seq in st.rounds:
        assert LOCKDOWN.position(fold(LOCKDOWN, setup, [f for f in facts if f.seq <= seq]).head.state)["round"] == r


def test_key_moments_deaths_escapes_kills_power_gate_encounter_reveals_and_the_end():
    setup, facts = demo("friday-four-players.jsonl")
    st = tell(fold(LOCKDOWN, setup, facts))
    moments = [(seq, m.kind, m.text) for seq, m in st.moments]
    kinds = {k for _, k, _ in moments}
    assert {"death", "escape", "kill", "power", "gate", "encounter", "alarm", "contingency", "end"} <= kinds
    assert (144, "death", "Chiara (Xenobiologist) dies: a night stalker's attack") in moments
    assert any(k == "escape" and "Bartek (Janitor) escapes in pod C" == t for _, k, t in moments)
    assert any(k == "escape" and t.startswith("Dmitri (Sentry) locks in") for _, k, t in moments)
    assert any(k == "kill" and t == "Dmitri (Sentry) kills the larva" for _, k, t in moments)
    end = [s for s, k, _ in moments if k == "end"]
    assert len(end) == 1 and fold(LOCKDOWN, setup, [f for f in facts if f.seq <= end[0]]).head.state.ended
    assert not fold(LOCKDOWN, setup, [f for f in facts if f.seq < end[0]]).head.state.ended
    solo = tell(fold(LOCKDOWN, *demo("solo-evening.jsonl")))
    assert {"self_destruct", "escape"} <= {m.kind for _, m in solo.moments}


def test_corrections_show_in_both_views():
    setup, facts = demo("club-three-players.jsonl")
    void = next(f for f in facts if f.type == "FactVoided")
    mistake = void.data["seqs"][0]
    played = tell(fold(LOCKDOWN, setup, facts, corrected=False)).by_seq
    assert played[mistake].voided_by == void.seq  # struck through as played
    assert played[void.seq].kind == "correction" and f"#{mistake} did not happen" in played[void.seq].text
    corrected = tell(fold(LOCKDOWN, setup, facts)).by_seq
    assert mistake not in corrected and void.seq not in corrected
    # a replacement is marked as a correction in the corrected view
    fixed = facts + [Fact(len(facts) + 1, "FactReplaced", {"seq": 18, "replacement": {
        "type": "Passed", "actor": 1, "data": {"discarded": 1}}, "reason": "she discarded a card"})]
    by_seq = tell(fold(LOCKDOWN, setup, fixed)).by_seq
    assert by_seq[18].text == "Ada (Hacker) passes and discards 1 card." and "she discarded a card" in by_seq[18].corrected
    as_played = tell(fold(LOCKDOWN, setup, fixed, corrected=False)).by_seq
    assert as_played[18].voided_by == len(facts) + 1
    assert "is replaced by “Ada (Hacker) passes and discards 1 card”" in as_played[len(facts) + 1].text


@pytest.mark.parametrize("name, words", [
    ("friday-four-players.jsonl", ("Nobody was left in the base", "Bartek (Janitor) escaped by pod",
                                   "alarm procedure's space", "rapid response team")),
    ("solo-evening.jsonl", ("Ewa (Lab Rat) reached the Bunker", "the base exploded")),
])
def test_the_ending_says_how_the_game_ended(name, words):
    setup, facts = demo(name)
    text = LOCKDOWN.ending_story(fold(LOCKDOWN, setup, facts).head.state)
    assert all(w in text for w in words), text


def test_verdicts_are_explained_in_the_order_of_the_victory_check():
    setup, facts = demo("friday-four-players.jsonl")
    result = LOCKDOWN.score(fold(LOCKDOWN, setup, facts).head.state)
    verdicts = {v["seat"]: v for v in LOCKDOWN.verdicts(result)}
    bartek = verdicts[2]["steps"]
    assert list(bartek) == ["survival", "contingency", "final scan", "objective"]
    assert bartek["survival"] == ["escaped by pod C"] and "passed the final scan" in bartek["final scan"]
    assert "killed everyone locked in the Isolation Room" in verdicts[4]["steps"]["contingency"][0]


def test_time_out_and_abandoned_endings_are_told():
    setup, generated = generate_game(3, players=2, max_rounds=20)
    state = fold(LOCKDOWN, setup, facts_of(generated)).head.state
    assert state.ended and LOCKDOWN.ending_story(state)
    quit_ = fold(LOCKDOWN, setup, facts_of(generated)[:30] + [
        Fact(31, "GameEnded", {"ending": "abandoned", "note": "the club closed"})]).head.state
    assert LOCKDOWN.ending_story(quit_) == "The table abandoned the game before its end (the club closed)."
