"""One-tap table effects (``Ruleset.effect_groups``, decision 0022): a card's printed pair recorded as one group,
the outcomes of a short choice as one button each; every group legal in order where it is offered."""
from service.demo import HERE as DEMO_DIR
from service.rules.base import Fact, Group, Ruleset, Seat, Setup
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.checks import check
from tests.browser.recorder_driver import read_notation, standing


def friday_after(n: int):
    """The 4-player demo game's state after its first ``n`` standing facts."""
    header, facts = read_notation(DEMO_DIR / "friday-four-players.jsonl")
    facts, _ = standing(facts)
    setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in header["players"]), mode=header["mode"],
                  options=header.get("options") or {})
    state = LOCKDOWN.initial_state(setup)
    for i, f in enumerate(facts[:n], start=1):
        state, _ = LOCKDOWN.apply(state, Fact(i, f["type"], f["data"], f["actor"]))
    return state, facts


def shapes(groups):
    return [[(f.type, f.actor, dict(f.data)) for f in g.facts] for g in groups]


def test_a_printed_wound_and_contamination_is_one_group_of_the_next_two_facts():
    state, facts = friday_after(189)  # the event card resolved, a fire put out: seat 1's wound and card follow
    want = [(f["type"], f["actor"], f["data"]) for f in facts[189:191]]
    assert want == [("WoundSuffered", 1, {"kind": "serious"}), ("ContaminationCardReceived", 1, {})]
    assert want in shapes(LOCKDOWN.effect_groups(state))


def test_every_group_is_legal_in_order_and_only_for_characters_still_in_the_game():
    state, _ = friday_after(188)
    groups = LOCKDOWN.effect_groups(state)
    assert groups and all(isinstance(g, Group) and g.facts for g in groups)
    in_game = {s for s in state.seats if state.characters[s].status in ("base", "pod")}
    assert in_game != set(state.seats)  # this game has lost characters by then: they get no buttons
    for g in groups:
        s = state
        for f in g.facts:
            assert f.actor is None or f.actor in in_game
            assert check(s, f) == [], (g, f)
            s, _ = LOCKDOWN.apply(s, f)


def test_a_short_choice_gets_one_button_per_outcome():
    state, _ = friday_after(188)
    fires = sorted(p for p, r in state.rooms.items() if r.fire)
    assert 2 <= len(fires) <= 4
    removed = sorted(g.facts[0].data["room"] for g in LOCKDOWN.effect_groups(state) if g.facts[0].type == "FireRemoved")
    assert removed == fires
    # the serious wound, which the offer's form would need ✎, a tap and Record for, is one button
    assert [("WoundSuffered", 1, {"kind": "serious"})] in shapes(LOCKDOWN.effect_groups(state))


def test_no_groups_before_the_board_nor_after_the_end_and_none_by_default():
    state = LOCKDOWN.initial_state(Setup(players=(Seat(1, "A"), Seat(2, "B"))))
    assert LOCKDOWN.effect_groups(state) == []
    state, _ = LOCKDOWN.apply(state, Fact(1, "GameEnded", {"ending": "abandoned"}))
    assert LOCKDOWN.effect_groups(state) == []

    class Bare(Ruleset):  # a ruleset that offers none: the interface's default
        name = "bare"
        initial_state = next_inputs = check = apply = score = describe = position = lambda *a: None

    assert Bare().effect_groups(None) == []


def test_group_as_dict_lists_the_facts_in_order():
    g = Group((Fact(0, "WoundSuffered", {"kind": "light"}, 2), Fact(0, "ContaminationCardReceived", {}, 2)), "n")
    assert g.as_dict() == {"facts": [{"type": "WoundSuffered", "actor": 2, "data": {"kind": "light"}},
                                     {"type": "ContaminationCardReceived", "actor": 2, "data": {}}], "note": "n"}
