"""What a Lockdown step tells the statistics (``LockdownRuleset.step_statistics``, decision 0040), and how the
"stats" tally counts it without reading Lockdown's state."""
from __future__ import annotations

from projections.statistics import Tally
from service.rules import StepStatistics, get_ruleset, ruleset_of_state
from service.rules.base import Fact, Ruleset, Seat, Setup, StatDeath, StatHit, StatKill, StatWound
from service.rules.replay import fold

LOCKDOWN = get_ruleset("lockdown")
SETUP = [("BoardPrepared", None, {"board": "basic"}), ("CharacterChosen", 1, {"character": "survivor"}),
         ("CharacterChosen", 2, {"character": "hacker"}), ("SetupCompleted", None, {})]
PLAY = [  # tests/integration/test_statistics.py's game A
    ("IntruderPlaced", None, {"kind": "adult", "room": "isolation_room"}),
    ("ItemGained", 1, {"item": "SMG", "colour": "starting", "where": "hand", "ammo": 2}),
    ("CharacterShot", 1, {"target": "i1", "weapon": "SMG", "result": "double"}),
    ("InjuryCheckDrawn", None, {"blood": [2]}),
    ("IntruderPlaced", None, {"kind": "breeder", "room": "repository"}),
    ("WoundSuffered", 2, {"kind": "serious", "count": 3}),
    ("IntruderAttacked", None, {"intruder": "i2", "card": "blood_rage"}),
    ("PowerChanged", None, {"location": "S-01", "on": False}),
    ("PowerChanged", None, {"location": "S-02", "on": False}),
    ("GameEnded", None, {"ending": "time_out"}),
]
A_ROUND = [("Passed", 1, {"discarded": 0}), ("Passed", 2, {"discarded": 0}), ("TimeAdvanced", None, {}),
           ("NoiseMarkersCleared", None, {"removed": []}), ("EventCardDrawn", None, {"card": "lurking", "corridors": [2]}),
           ("ColonyTokenDrawn", None, {"token": "blank"}), ("FirstPlayerPassed", 1, {"to": 2}),
           ("FirstPlayerPassed", 2, {"to": 1})]


def stepped(rows):
    facts = [Fact(i + 1, t, d, a) for i, (t, a, d) in enumerate(rows)]
    replay = fold(LOCKDOWN, Setup((Seat(1, "Bo"), Seat(2, "Cy")), "standard", {"board": "basic"}), facts)
    return [(step.fact, LOCKDOWN.step_statistics(before.state, step.fact, step.state, step.consequences), before, step)
            for before, step in zip(replay.steps, replay.steps[1:])]


def test_each_step_says_what_it_showed():
    seen = {fact.seq: s for fact, s, _, _ in stepped(SETUP + PLAY)}
    assert all(s == StepStatistics(0) for seq, s in seen.items() if seq <= 4)  # the setup: nothing, no power lost
    shot, check, wounded, attacked, s01, s02, ended = (seen[n] for n in (7, 8, 10, 11, 12, 13, 14))
    assert shot.hits == (StatHit("i1", 1, "SMG"),) and shot.kills == ()
    assert check.kills == (StatKill("i1", "adult", "isolation_room"),) and check.hits == ()  # the check finishes it
    assert wounded.wounds == (StatWound(2, 3, "repository"),)
    assert attacked.attacks == ("repository",)
    assert attacked.deaths == (StatDeath(2, "repository", "attack", "breeder"),)
    assert (s01.power_lost, s01.blackout) == (1, None)
    assert (s02.power_lost, s02.blackout) == (1, 1)  # the last powered sector goes dark
    assert ended.deaths == (StatDeath(1, "isolation_room", "time_out", None),)  # the verdict words it


def test_power_is_lost_when_the_time_track_drops_it_not_at_the_setup():
    """Tokens 3 and 4 start off (lockdown.md §3.1 step 7): no loss. Round 1's move into 14 is a red threshold
    (gaps_filled.md §13.2); with the time token blue, the first drop is the blue threshold into 11, in round 4."""
    usual = [s for fact, s, _, _ in stepped(SETUP + A_ROUND) if s.power_lost is not None]
    assert [(s.round, s.power_lost) for s in usual] == [(1, 1)]
    emergency = [("PowerChanged", None, {"emergency": True, "on": True})]
    later = [(fact.type, s.power_lost) for fact, s, _, _ in stepped(SETUP + emergency + A_ROUND * 4)
             if s.power_lost is not None]
    assert later == [("TimeAdvanced", 4)]


def test_the_tally_counts_the_steps_as_before():
    tally = Tally()
    for fact, _, before, step in stepped(SETUP + PLAY):
        tally.step(before.state, fact, step.state, step.consequences)
    assert tally.ruleset is LOCKDOWN
    assert tally.kills == [{"seq": 8, "seat": 1, "kind": "adult", "weapon": "SMG", "round": 1, "room": "isolation_room"}]
    assert tally.deaths == {2: {"round": 1, "room": "repository", "cause": "attack", "killer": "breeder"},
                            1: {"round": 1, "room": "isolation_room", "cause": "time_out", "killer": None}}
    assert tally.rooms == {"repository": [1, 3, 1], "isolation_room": [0, 0, 1]}
    assert tally.wounds == {2: 3} and tally.last_hit == {}
    assert (tally.power_lost, tally.blackout) == (1, 1)


def test_the_interface_default_and_the_ruleset_of_a_state():
    class Plain(Ruleset):  # a ruleset that counts nothing
        name, title, modes = "plain", "Plain", ("standard",)
        initial_state = next_inputs = check = apply = score = describe = position = lambda *a: None

    assert Plain().step_statistics(None, Fact(1, "X"), None) == StepStatistics()
    state = LOCKDOWN.initial_state(Setup((Seat(1, "Ada"),), "solo", {"board": "basic"}))
    assert ruleset_of_state(state) is LOCKDOWN and ruleset_of_state(object()) is None
    try:
        Tally().step(object(), Fact(1, "X"), object(), ())
    except TypeError as e:
        assert "object" in str(e)
    else:
        raise AssertionError("a state of no ruleset must be refused")
