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
