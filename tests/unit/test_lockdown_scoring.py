"""The Lockdown victory check (service/rules/lockdown/scoring.py; docs/scoring.md).

Rule sources: lockdown.md §11.5 (end of game), §11.8 (victory check order), gaps_filled.md §4
(contingency tokens), faq_lockdown.md (official FAQ 25.03.2022, cited by entry number).
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from service.rules.lockdown.scoring import (
    DEFAULT, ScoringSettings, ScoringView, SeatView, WeaknessView, candidate_plans, victory_check,
)

# a character who survives everything by default: Bunker, clean scan, signal sent, knowledge 5
CLEAN = dict(alive=True, location="bunker", larva=False, scan_infected=False, signal_sent=True, knowledge=5,
             knowledge_token_active=True)


def seat(n: int, character: str = "hacker", objective: str | None = "send_signal", **kw) -> SeatView:
    data = {**CLEAN, **kw}
    return SeatView(seat=n, character=character, objective=objective, **data)


def view(*seats: SeatView, ending: str = "time_out", plan: str | None = "save_all", **kw) -> ScoringView:
    return ScoringView(mode=kw.pop("mode", "standard"), ending=ending, seats=seats, active_contingency=plan, **kw)


def outcome(v: ScoringView, n: int = 1, settings: ScoringSettings = DEFAULT):
    r = victory_check(v, settings)
    return next(p for p in r.players if p.seat == n)


# --- survival routes (lockdown.md §11.3, §11.5; seed L1207–1218, L1603–1645) -------------------


@pytest.mark.parametrize("loc,route", [("bunker", "bunker"), ("swc", "swc:B"), ("isolation", "isolation")])
def test_each_survival_route_survives_a_time_out(loc, route):
    p = outcome(view(seat(1, location=loc, pod="B" if loc == "swc" else None)))
    assert p.outcome == "won" and p.survival == route


def test_pod_escape_reason_names_the_pod():
    p = outcome(view(seat(1, location="swc", pod="B")))
    assert "escaped by pod B" in p.reasons


def test_bunker_by_rover_or_space_suit_is_named():
    assert "reached the Bunker by rover" in outcome(view(seat(1, bunker_via="rover"))).reasons
    assert "reached the Bunker in a space suit" in outcome(view(seat(1, bunker_via="space_suit"))).reasons


def test_time_out_kills_everyone_in_the_base():
    p = outcome(view(seat(1, location="base")))
    assert p.outcome == "lost" and p.death_cause == "rapid_response_team"


def test_base_destroyed_kills_the_isolation_room_too():
    p = outcome(view(seat(1, location="isolation"), ending="base_destroyed"))
    assert p.outcome == "lost" and p.death_cause == "base_destroyed"
    assert outcome(view(seat(1, location="swc", pod="A"), ending="base_destroyed")).outcome == "won"
    assert outcome(view(seat(1, location="bunker"), ending="base_destroyed")).outcome == "won"


def test_died_during_play_loses_with_its_cause():
    p = outcome(view(seat(1, alive=False, death_cause="wounds")))
    assert p.outcome == "lost" and p.death_cause == "wounds"


def test_nobody_survived_everyone_loses():
    r = victory_check(view(seat(1, location="base"), seat(2, alive=False)))
    assert [p.outcome for p in r.players] == ["lost", "lost"]
    assert any("nobody survived" in x for x in r.players[0].reasons)


def test_no_characters_left_with_red_self_destruct_destroys_the_base():
    v = view(seat(1, location="isolation"), ending="no_characters_left", self_destruct="red")
    assert outcome(v).death_cause == "base_destroyed"
    v = view(seat(1, location="isolation"), ending="no_characters_left", self_destruct="off")
    assert outcome(v).outcome == "won"


def test_yellow_self_destruct_counts_as_active_by_setting():
    v = view(seat(1, location="isolation"), ending="no_characters_left", self_destruct="yellow")
    assert outcome(v).outcome == "lost"
    assert outcome(v, settings=ScoringSettings(yellow_self_destruct_is_active=False)).outcome == "won"


def test_unknown_self_destruct_state_leaves_isolation_undetermined_but_not_the_bunker():
    v = view(seat(1, location="isolation"), seat(2, location="bunker"), ending="no_characters_left",
             self_destruct=None)
    assert outcome(v, 1).outcome == "undetermined"
    assert "self-destruct" in outcome(v, 1).reasons[-1]
    assert outcome(v, 2).outcome == "won"


def test_character_in_an_unlaunched_pod_counts_as_in_the_base_by_default():
    v = view(seat(1, location="pod", pod="A"))
    assert outcome(v).outcome == "lost"
    assert outcome(v, settings=ScoringSettings(pod_at_end_counts_as_base=False)).outcome == "won"


def test_unknown_location_is_undetermined_with_needs():
    p = outcome(view(seat(1, location=None)))
    assert p.outcome == "undetermined" and "needs where" in p.reasons[-1]


def test_abandoned_game_has_no_victory_check():
    assert outcome(view(seat(1), ending="abandoned")).outcome == "undetermined"


# --- contingency plans (gaps_filled.md §4) -------------------------------------------------------


def test_plan_signal_kills_those_without_signal():
    v = view(seat(1, signal_sent=False, objective="knowledge_at_least:1"), seat(2, objective="knowledge_at_least:1"),
             plan="signal")
    assert outcome(v, 1).outcome == "lost" and outcome(v, 1).death_cause == "contingency:signal"
    assert outcome(v, 2).outcome == "won"


def test_plan_knowledge_kills_knowledge_4_or_less_by_default():
    v = view(seat(1, knowledge=4), seat(2, knowledge=5), plan="knowledge")
    assert outcome(v, 1).outcome == "lost" and outcome(v, 2).outcome == "won"


def test_plan_knowledge_threshold_and_direction_are_settings():
    v = view(seat(1, knowledge=4), seat(2, knowledge=6), plan="yellow")
    s = ScoringSettings(knowledge_plan_rule="above_dies", knowledge_plan_threshold=5)
    assert outcome(v, 1, s).outcome == "won" and outcome(v, 2, s).outcome == "lost"


def test_plan_pods_grey_kills_pod_escapees():
    v = view(seat(1, location="swc", pod="B"), seat(2, location="bunker"), plan="grey")
    p = outcome(v, 1)
    assert p.outcome == "lost" and p.death_cause == "contingency:pods"
    assert "escaped by pod B" in p.reasons and any("grey" in r and "killed pod escapees" in r for r in p.reasons)
    assert outcome(v, 2).outcome == "won"


def test_plan_isolation_kills_isolation_but_not_the_bunker():
    v = view(seat(1, location="isolation"), seat(2, location="bunker"), plan="isolation")
    assert outcome(v, 1).outcome == "lost" and outcome(v, 2).outcome == "won"
    assert outcome(v, 2, ScoringSettings(isolation_plan_kills_bunker=True)).outcome == "lost"


def test_plan_save_all_kills_nobody():
    v = view(seat(1, location="isolation", signal_sent=False, knowledge=1), seat(2, location="swc", pod="A"),
             plan="green")
    assert [p.outcome for p in victory_check(v).players] == ["lost", "won"]  # 1 lost only by its objective
    assert "contingency" not in (outcome(v, 1).death_cause or "")


def test_contingency_applies_before_objectives_player_x_dies_by_plan():
    # seat 2 wants player 1 dead; the grey plan kills seat 1's pod escape → seat 2 wins
    v = view(seat(1, location="swc", pod="A"), seat(2, objective="player_must_not_survive:1"), plan="pods")
    assert outcome(v, 2).outcome == "won"


def test_unrevealed_plan_is_deduced_by_elimination():
    # 6 of the 7 tokens are known: the active one can only be "pods"
    v = replace(view(seat(1, location="swc", pod="A", contingency_tokens=("signal", "knowledge")),
                     seat(2, contingency_tokens=("signal", "isolation")), plan=None),
                neutral_pool=("knowledge", "save_all"))
    assert candidate_plans(v) == ("pods",)
    assert outcome(v, 1).outcome == "lost"


def test_unrevealed_plan_that_cannot_change_the_outcome_is_not_needed():
    # Bunker, signal sent, knowledge 5: no plan kills this character
    p = outcome(view(seat(1), plan=None))
    assert p.outcome == "won"


def test_unrevealed_plan_that_could_change_the_outcome_is_needed():
    p = outcome(view(seat(1, location="swc", pod="C"), plan=None))
    assert p.outcome == "undetermined"
    assert p.reasons[0].startswith("needs the active contingency token")


def test_unknown_signal_matters_only_under_the_signal_plan():
    assert outcome(view(seat(1, signal_sent=None, objective="knowledge_at_least:1"), plan="pods")).outcome == "won"
    p = outcome(view(seat(1, signal_sent=None, objective="knowledge_at_least:1"), plan="signal"))
    assert p.outcome == "undetermined" and "sent the signal" in p.reasons[-1]


# --- final scan (lockdown.md §11.8 step 2; seed L1657–1675) ---------------------------------------


def test_scan_clean_passes_without_draw():
    assert outcome(view(seat(1, scan_infected=False, final_draw=None))).outcome == "won"


def test_scan_infected_draw_with_contamination_dies():
    p = outcome(view(seat(1, scan_infected=True, final_draw=("action", "contamination", "action", "action"))))
    assert p.outcome == "lost" and p.death_cause == "final_scan"


def test_scan_infected_draw_without_contamination_survives():
    p = outcome(view(seat(1, scan_infected=True, final_draw=("action",) * 4)))
    assert p.outcome == "won"


def test_larva_skips_step_a_and_draws():
    p = outcome(view(seat(1, larva=True, scan_infected=None, final_draw=("contamination", "action", "action", "action"))))
    assert p.outcome == "lost" and any("larva" in r for r in p.reasons)


def test_larva_without_a_recorded_draw_is_undetermined():
    p = outcome(view(seat(1, larva=True, scan_infected=False, final_draw=None)))
    assert p.outcome == "undetermined" and "four-card draw" in p.reasons[-1]


def test_unscanned_is_undetermined_unless_no_contamination_cards():
    assert outcome(view(seat(1, scan_infected=None))).outcome == "undetermined"
    assert outcome(view(seat(1, scan_infected=None, contamination_cards=0))).outcome == "won"


def test_unscanned_but_draw_found_nothing_passes_either_way():
    assert outcome(view(seat(1, scan_infected=None, final_draw=("action",) * 4))).outcome == "won"


def test_unscanned_dead_character_needs_no_scan():
    assert outcome(view(seat(1, location="base", scan_infected=None))).outcome == "lost"


def test_scan_comes_after_contingency_and_before_objectives():
    # seat 2 dies in the scan → seat 1's "player 2 must not survive" is met
    v = view(seat(1, objective="player_must_not_survive:2"),
             seat(2, scan_infected=True, final_draw=("contamination",) * 4))
    assert outcome(v, 1).outcome == "won" and outcome(v, 2).death_cause == "final_scan"


# --- objectives (lockdown.md §11.1; seed L1236–1318) ----------------------------------------------


def test_player_must_not_survive_met_not_met_undetermined():
    dead = view(seat(1, objective="player_must_not_survive:2"), seat(2, alive=False))
    alive = view(seat(1, objective="player_must_not_survive:2"), seat(2))
    unknown = view(seat(1, objective="player_must_not_survive:2"), seat(2, scan_infected=None))
    assert [outcome(v).outcome for v in (dead, alive, unknown)] == ["won", "lost", "undetermined"]


def test_player_number_is_the_help_card_when_recorded():
    v = view(seat(1, player_number=2, objective="player_must_not_survive:1"), seat(2, player_number=1, alive=False))
    assert outcome(v).outcome == "won"


def test_sole_survivor():
    assert outcome(view(seat(1, objective="sole_survivor"), seat(2, location="base"))).outcome == "won"
    assert outcome(view(seat(1, objective="sole_survivor"), seat(2))).outcome == "lost"
    assert outcome(view(seat(1, objective="sole_survivor"), seat(2, location=None))).outcome == "undetermined"


def test_no_nemesis_survivor_survives():
    ok = view(seat(1, objective="no_nemesis_survivor_survives"), seat(2, character="lab_rat", location="base"))
    bad = view(seat(1, objective="no_nemesis_survivor_survives"), seat(2, character="survivor"))
    unk = view(seat(1, objective="no_nemesis_survivor_survives"), seat(2, character=None))
    staff_alive = view(seat(1, objective="no_nemesis_survivor_survives"), seat(2, character="janitor"))
    assert [outcome(v).outcome for v in (ok, bad, unk, staff_alive)] == ["won", "lost", "undetermined", "won"]


def test_faq21_medic_counts_as_nemesis_survivor():
    """faq_lockdown.md 21: Medic in the Bunker, Hacker by CSS with 'No Nemesis Survivor' → failed."""
    v = view(seat(1, objective="no_nemesis_survivor_survives", location="swc", pod="A"),
             seat(2, character="medic", nemesis_survivor=None))
    assert outcome(v, 1).outcome == "lost"


def test_send_signal():
    assert outcome(view(seat(1, objective="send_signal", signal_sent=True))).outcome == "won"
    assert outcome(view(seat(1, objective="send_signal", signal_sent=False))).outcome == "lost"
    assert outcome(view(seat(1, objective="send_signal", signal_sent=None), plan="pods")).outcome == "undetermined"


def test_weakness_discovered():
    ws = (WeaknessView(1, "wary_of_shadows", True), WeaknessView(2, "w2", True), WeaknessView(3, None, False))
    assert outcome(view(seat(1, objective="weakness_discovered"), weaknesses=ws)).outcome == "won"
    assert outcome(view(seat(1, objective="weakness_discovered:3"), weaknesses=ws)).outcome == "lost"
    assert outcome(view(seat(1, objective="weakness_discovered:w2"), weaknesses=ws)).outcome == "won"
    assert outcome(view(seat(1, objective="weakness_discovered:wary_of_shadows"), weaknesses=ws)).outcome == "won"
    first_only = (WeaknessView(1, None, True), WeaknessView(2, None, False), WeaknessView(3, None, False))
    assert outcome(view(seat(1, objective="weakness_discovered"), weaknesses=first_only)).outcome == "lost"
    assert outcome(view(seat(1, objective="weakness_discovered"))).outcome == "undetermined"


def test_nest_destroyed_and_time_out_rule():
    """Seed L1612–1613 / faq_lockdown.md 5: a time-out makes 'destroy the Nest' fail."""
    assert outcome(view(seat(1, objective="nest_destroyed"), eggs_in_nest=0, ending="no_characters_left",
                        self_destruct="red")).outcome == "won"
    assert outcome(view(seat(1, objective="nest_destroyed"), eggs_in_nest=0, ending="time_out")).outcome == "lost"
    # the explosion destroys the Nest with the base (seed L1618–1622; setting base_destroyed_destroys_nest)
    assert outcome(view(seat(1, objective="nest_destroyed"), eggs_in_nest=2, ending="base_destroyed")).outcome == "won"
    assert outcome(view(seat(1, objective="nest_destroyed"), ending="base_destroyed")).outcome == "won"
    eggs_only = ScoringSettings(base_destroyed_destroys_nest=False)
    assert outcome(view(seat(1, objective="nest_destroyed"), eggs_in_nest=2, ending="base_destroyed"),
                   settings=eggs_only).outcome == "lost"
    assert outcome(view(seat(1, objective="nest_destroyed"), ending="base_destroyed"),
                   settings=eggs_only).outcome == "undetermined"
    lenient = ScoringSettings(timeout_fails_stalker_objectives=False)
    assert outcome(view(seat(1, objective="nest_destroyed"), eggs_in_nest=0), settings=lenient).outcome == "won"


def test_knowledge_at_least():
    assert outcome(view(seat(1, objective="knowledge_at_least:5", knowledge=5))).outcome == "won"
    assert outcome(view(seat(1, objective="knowledge_at_least:6", knowledge=5))).outcome == "lost"
    assert outcome(view(seat(1, objective="knowledge_at_least:6", knowledge=None))).outcome == "undetermined"


def test_knowledge_token_active():
    assert outcome(view(seat(1, objective="knowledge_token_active", knowledge_token_active=True))).outcome == "won"
    assert outcome(view(seat(1, objective="knowledge_token_active", knowledge_token_active=False))).outcome == "lost"
    assert outcome(view(seat(1, objective="knowledge_token_active", knowledge_token_active=None))).outcome == "undetermined"


def test_sectors_explored():
    m = {"S-01": True, "S-02": False, "S-03": True}
    assert outcome(view(seat(1, objective="sectors_explored:S-01,S-03"), sectors_explored=m)).outcome == "won"
    assert outcome(view(seat(1, objective="sectors_explored:1,2"), sectors_explored=m)).outcome == "lost"
    assert outcome(view(seat(1, objective="sectors_explored:S-01,S-03"), sectors_explored={"S-01": True})).outcome == "undetermined"


def test_queen_killed_faq5_time_out_fails():
    """faq_lockdown.md 5: alert-procedure end = time-out → 'kill the Queen' fails."""
    v = view(seat(1, objective="queen_killed", location="isolation"), ending="alarm_procedure",
             alarm_procedure=True, queen_killed=True)
    p = outcome(v)
    assert p.survival == "isolation" and p.outcome == "lost"


def test_queen_killed_faq6_alert_with_autodestruction_destroys_the_base():
    """faq_lockdown.md 6: alert end with red autodestruction → base destroyed, Queen killed; Bunker wins."""
    v = view(seat(1, character="survivor", objective="send_signal", location="isolation"),
             seat(2, character="janitor", location="base"),
             seat(3, character="sentry", objective="queen_killed", location="bunker"),
             ending="alarm_procedure", alarm_procedure=True, self_destruct="red", queen_killed=False)
    r = victory_check(v)
    assert [p.outcome for p in r.players] == ["lost", "lost", "won"]
    assert r.players[0].death_cause == "base_destroyed"


def test_faq31_destruction_on_leaving_red_slot_is_an_ending_base_destroyed():
    """faq_lockdown.md 31: the facility is destroyed when the Time token leaves the red slot: Hacker
    (base) and Survivor (Isolation) die; the Queen counts as killed."""
    v = view(seat(1, character="hacker", location="base"),
             seat(2, character="survivor", location="isolation"),
             seat(3, character="sentry", location="swc", pod="A", objective="queen_killed"),
             ending="base_destroyed", self_destruct="red")
    assert [p.outcome for p in victory_check(v).players] == ["lost", "lost", "won"]


def test_faq5_purge_kills_base_character_isolation_goes_to_checks():
    """faq_lockdown.md 5: Janitor in the Repository dies; Survivor locked in goes to the checks."""
    v = view(seat(1, character="survivor", location="isolation"), seat(2, character="janitor", location="base"),
             ending="alarm_procedure", alarm_procedure=True)
    r = victory_check(v)
    assert r.players[0].outcome == "won" and r.players[1].death_cause == "rapid_response_team"


def test_faq8_css_pod_launch_twice_both_evacuated():
    """faq_lockdown.md 8: two characters evacuated by pod A (ALL then A) both count as CSS escapees."""
    v = view(seat(1, character="survivor", location="swc", pod="A"), seat(2, character="lab_rat", location="swc", pod="A"),
             pods_launched=("ALL", "A"))
    assert [p.survival for p in victory_check(v).players] == ["swc:A", "swc:A"]


def test_faq12_several_characters_locked_in_isolation_all_survive():
    """faq_lockdown.md 12: several characters can be locked in the Isolation Room."""
    v = view(seat(1, character="survivor", location="isolation"), seat(2, character="lab_rat", location="isolation"))
    assert [p.outcome for p in victory_check(v).players] == ["won", "won"]


def test_unverified_objectives_escape_with_egg_and_destroy_base():
    assert outcome(view(seat(1, objective="escape_with_egg", items=("egg",)))).outcome == "won"
    assert outcome(view(seat(1, objective="escape_with_egg", items=()))).outcome == "lost"
    assert outcome(view(seat(1, objective="escape_with_egg"))).outcome == "undetermined"
    assert outcome(view(seat(1, objective="destroy_base"), ending="base_destroyed")).outcome == "won"
    assert outcome(view(seat(1, objective="destroy_base"))).outcome == "lost"


def test_objective_with_unknown_text_is_undetermined():
    p = outcome(view(seat(1, objective="this_is_my_revenge")))
    assert p.outcome == "undetermined" and "card text" in p.reasons[-1]


def test_unrevealed_objective_uses_the_dealt_cards_when_they_agree():
    both_met = seat(1, objective=None, objectives_dealt=("send_signal", "knowledge_at_least:3"))
    disagree = seat(1, objective=None, objectives_dealt=("send_signal", "knowledge_at_least:8"))
    unknown = seat(1, objective=None, objectives_dealt=None)
    assert outcome(view(both_met)).outcome == "won"
    assert outcome(view(disagree)).outcome == "undetermined"
    assert "needs the objective" in outcome(view(disagree)).reasons[-1]
    assert outcome(view(unknown)).outcome == "undetermined"


def test_unknown_objective_does_not_matter_for_a_dead_character():
    assert outcome(view(seat(1, objective=None, location="base"))).outcome == "lost"


def test_several_winners_are_normal():
    v = view(seat(1), seat(2, location="swc", pod="A"), seat(3, location="isolation"))
    assert [p.outcome for p in victory_check(v).players] == ["won", "won", "won"]


def test_result_carries_ending_and_objective():
    r = victory_check(view(seat(1, objective="knowledge_at_least:2")))
    assert r.ending == "time_out" and r.players[0].objective == "knowledge_at_least:2"


# --- co-op and solo (lockdown.md §12.2, §12.3; seed L4495–4535) -----------------------------------


def coop(*seats, **kw):
    return view(*seats, mode="coop", **kw)


def test_coop_all_objectives_and_one_survivor_team_wins():
    v = coop(seat(1, objective="knowledge_at_least:5", knowledge=5), seat(2, objective="nest_destroyed", alive=False),
             eggs_in_nest=0, ending="base_destroyed")
    assert [p.outcome for p in victory_check(v).players] == ["won", "won"]


def test_coop_objective_fulfiller_must_be_alive_after_the_checks():
    # only seat 2 reaches knowledge 8, and the scan kills it
    v = coop(seat(1, objective="knowledge_at_least:8", knowledge=5),
             seat(2, objective="knowledge_token_active", knowledge=8, scan_infected=True,
                  final_draw=("contamination",) * 4))
    assert [p.outcome for p in victory_check(v).players] == ["lost", "lost"]


def test_coop_no_survivor_loses():
    v = coop(seat(1, location="base"), seat(2, alive=False))
    assert {p.outcome for p in victory_check(v).players} == {"lost"}


def test_coop_each_signal_card_needs_its_own_sender():
    two_cards_one_sender = coop(seat(1, objective="send_signal"), seat(2, objective="send_signal", signal_sent=False))
    two_senders = coop(seat(1, objective="send_signal"), seat(2, objective="send_signal"))
    assert {p.outcome for p in victory_check(two_cards_one_sender).players} == {"lost"}
    assert {p.outcome for p in victory_check(two_senders).players} == {"won"}


def test_coop_one_signal_card_one_sender_is_enough():
    v = coop(seat(1, objective="send_signal"), seat(2, objective="knowledge_at_least:1", signal_sent=False),
             plan="pods")
    assert {p.outcome for p in victory_check(v).players} == {"won"}


def test_coop_objective_met_by_any_surviving_character():
    v = coop(seat(1, objective="knowledge_at_least:5", knowledge=None), seat(2, objective="send_signal"))
    assert {p.outcome for p in victory_check(v).players} == {"won"}  # seat 2 has knowledge 5


def test_coop_unknown_makes_the_team_undetermined():
    v = coop(seat(1, objective="knowledge_at_least:5", knowledge=None),
             seat(2, objective="send_signal", knowledge=1))
    assert {p.outcome for p in victory_check(v).players} == {"undetermined"}


def test_solo_win_needs_objective_and_survival():
    v = view(seat(1, objective="knowledge_at_least:5"), mode="solo")
    assert outcome(v).outcome == "won"
    assert outcome(replace(v, seats=(seat(1, objective="knowledge_at_least:6"),))).outcome == "lost"
    assert outcome(replace(v, seats=(seat(1, location="base"),))).outcome == "lost"


def solo(*seats, **kw):
    return view(*seats, mode="solo", **kw)


def test_solo_won_objective_met_and_survived_seed_l4512():
    p = outcome(solo(seat(1, objective="knowledge_at_least:5", knowledge=5)))
    assert p.outcome == "won" and any("L4512" in r for r in p.reasons)


def test_solo_lost_when_the_contingency_plan_or_the_scan_kills():
    assert outcome(solo(seat(1, location="swc", pod="A"), plan="pods")).outcome == "lost"
    assert outcome(solo(seat(1, scan_infected=True, final_draw=("contamination", "action", "action", "action"))
                        )).outcome == "lost"
    assert outcome(solo(seat(1, alive=False))).outcome == "lost"


def test_solo_lost_when_the_objective_is_not_met():
    assert outcome(solo(seat(1, objective="send_signal", signal_sent=False))).outcome == "lost"


def test_solo_undetermined_cases():
    # the kept card is unknown and the two dealt cards disagree
    p = outcome(solo(seat(1, objective=None, objectives_dealt=("send_signal", "knowledge_at_least:8"))))
    assert p.outcome == "undetermined" and any("objective" in r for r in p.reasons)
    # survival unknown
    assert outcome(solo(seat(1, location=None))).outcome == "undetermined"
    # the active plan is unknown and decides (pods kills a pod escapee, the others do not)
    assert outcome(solo(seat(1, location="swc", pod="A"), plan=None)).outcome == "undetermined"


def test_solo_standard_deck_betrayal_card_is_not_a_solo_objective():
    # "player X cannot survive" read in a 1-player game would be trivially met: solo deals Solo/Koop cards
    p = outcome(solo(seat(1, objective="player_must_not_survive:2")))
    assert p.outcome == "undetermined" and any("Solo/Co-op objective" in r for r in p.reasons)
    assert outcome(solo(seat(1, objective="sole_survivor", alive=False))).outcome == "lost"


def test_solo_needs_exactly_one_seat():
    r = victory_check(solo(seat(1), seat(2)))
    assert {p.outcome for p in r.players} == {"undetermined"} and "L4496" in r.players[0].reasons[0]


def test_coop_standard_deck_betrayal_card_leaves_the_team_undetermined():
    v = coop(seat(1, objective="sole_survivor"), seat(2, objective="send_signal"))
    assert {p.outcome for p in victory_check(v).players} == {"undetermined"}


# --- order of checks -------------------------------------------------------------------------


def test_order_contingency_death_is_reported_before_scan_and_objective():
    p = outcome(view(seat(1, location="swc", pod="A", scan_infected=True, final_draw=("contamination",) * 4),
                     plan="pods"))
    assert p.death_cause == "contingency:pods"
    assert not any("final scan" in r for r in p.reasons)


def test_objective_of_a_survivor_evaluated_after_others_die_in_the_checks():
    # seat 1: sole survivor; seat 2 escapes by pod but the pods plan kills it
    v = view(seat(1, objective="sole_survivor"), seat(2, location="swc", pod="A"), plan="pods")
    assert outcome(v, 1).outcome == "won"
