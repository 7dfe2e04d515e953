"""Character condition: wounds (light, serious, dressed, healed), contamination and its scans, the larva, slime,
and death.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check, its effect, and its
offers — table effects (wounds, treatment, scans and slime, the larva, death) that ``inputs_play.table_effects``
composes with the others in the order the seeded generator depends on, and the one-tap pairs
(``effect_groups``). Decision 0029.

    >>> [t.spec.type for t in FACT_TYPES][:3]
    ['WoundSuffered', 'WoundDressed', 'WoundHealed']
"""
from __future__ import annotations

from typing import Callable

from service.rules.base import Consequence, Expected, Fact, Group, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.offers import OUTCOME_NOTE, TABLE_EFFECT, offer
from service.rules.lockdown.state import LockdownState, who, with_character
from service.rules.lockdown.turns import in_game

DEATH_CAUSES = ("wounds", "infection", "attack", "time_out", "alarm_procedure", "base_destroyed", "vent_out",
                "defense_control", "contingency", "final_scan", "event", "other")


# --- checks --------------------------------------------------------------------------------------------------

def check_in_play(state: LockdownState, fact: Fact) -> list[Violation]:
    """Facts whose only rule is that their character is still in the game."""
    return in_game(state, fact.actor, S.SERIOUS_WOUNDS)


def check_dressed(state: LockdownState, fact: Fact) -> list[Violation]:
    out = in_game(state, fact.actor, S.SERIOUS_WOUNDS)
    open_ = sum(1 for w in state.crew.characters[fact.actor].serious if not w.dressed)
    n = fact.data.get("count") or 1
    if not out and open_ < n:
        out.append(V("no-undressed-wound", f"{who(state, fact.actor)} has {open_} undressed serious wound(s), "
                     f"not {n}.", S.SERIOUS_WOUNDS, "count"))
    return out


def check_healed(state: LockdownState, fact: Fact) -> list[Violation]:
    out = in_game(state, fact.actor, S.SERIOUS_WOUNDS)
    c = state.crew.characters[fact.actor]
    if out:
        return out
    if fact.data["kind"] == "light" and c.light == 0:
        out.append(V("no-light-wounds", f"{who(state, fact.actor)} has no light wounds to heal.", S.LIGHT_WOUNDS,
                     "kind"))
    if fact.data["kind"] == "serious" and not any(w.dressed for w in c.serious):
        out.append(V("no-dressed-wound", f"Only a dressed serious wound can be healed; {who(state, fact.actor)} "
                     f"has none (dress it first).", S.SERIOUS_WOUNDS, "kind"))
    return out


def check_scanned(state: LockdownState, fact: Fact) -> list[Violation]:
    out = in_game(state, fact.actor, S.CONTAMINATION)
    c = state.crew.characters[fact.actor]
    n = fact.data["infected"] + (fact.data.get("clean") or 0)
    if not out and n > c.contamination:
        out.append(V("scan-more-than-owned", f"{who(state, fact.actor)} owns {c.contamination} contamination "
                     f"card(s); {n} cannot have been scanned.", S.CONTAMINATION))
    return out


def check_larva(state: LockdownState, fact: Fact) -> list[Violation]:
    out = in_game(state, fact.actor, S.CONTAMINATION)
    if not out and not state.crew.characters[fact.actor].larva:
        out.append(V("no-larva", f"{who(state, fact.actor)} has no larva on the board.", S.CONTAMINATION))
    return out


def check_slime(state: LockdownState, fact: Fact) -> list[Violation]:
    out = in_game(state, fact.actor, S.SLIME)
    if not out and not fact.data["slime"] and not state.crew.characters[fact.actor].slime:
        out.append(V("no-slime", f"{who(state, fact.actor)} has no slime marker to remove.", S.SLIME, "slime"))
    return out


def check_died(state: LockdownState, fact: Fact) -> list[Violation]:
    return in_game(state, fact.actor)


# --- effects -------------------------------------------------------------------------------------------------

def wound(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    return M.wound(state, fact.actor, fact.data["kind"], cons, card=fact.data.get("card"),
                   count=fact.data.get("count") or 1)


def dressed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    c = state.crew.characters[fact.actor]
    n = fact.data.get("count") or 1
    wounds, done = [], 0
    for w in c.serious:
        if not w.dressed and done < n:
            w, done = replace(w, dressed=True), done + 1
        wounds.append(w)
    cons.append(C("dressed", f"{who(state, fact.actor)} dresses {done} serious wound(s).", seat=fact.actor, count=done))
    return with_character(state, fact.actor, serious=tuple(wounds))


def healed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    c = state.crew.characters[fact.actor]
    if fact.data["kind"] == "light":
        cons.append(C("healed", f"{who(state, fact.actor)}'s light wounds are healed.", seat=fact.actor))
        return with_character(state, fact.actor, light=0)
    wounds = list(c.serious)
    i = next((k for k, w in enumerate(wounds) if w.dressed), None)
    if i is None:
        cons.append(C("ignored", "No dressed serious wound to heal."))
        return state
    del wounds[i]
    cons.append(C("healed", f"{who(state, fact.actor)} heals a dressed serious wound.", seat=fact.actor))
    return with_character(state, fact.actor, serious=tuple(wounds))


def contaminated(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    return M.contaminate(state, fact.actor, cons, fact.data.get("count") or 1)


def scan(state: LockdownState, seat: int, infected: int, clean: int, scope: str, remove: bool,
         cons: list[Consequence]) -> LockdownState:
    c = state.crew.characters[seat]
    cons.append(C("scanned", f"{who(state, seat)} scans contamination cards ({scope}): {infected} INFECTED, "
                  f"{clean} clean.", seat=seat, infected=infected, clean=clean))
    known_clean = min(c.contamination, max(c.clean, clean) if scope != "all" else clean)
    state = with_character(state, seat, clean=known_clean, infected=min(c.contamination, max(c.infected, infected)))
    if remove:
        if infected:
            state = M.remove_contamination(state, seat, infected, scope)
            cons.append(C("contamination-removed", f"{infected} infected card(s) are removed.", seat=seat))
        if state.crew.characters[seat].larva:
            state = with_character(state, seat, larva=False)
            cons.append(C("larva-removed", f"The larva is removed from {who(state, seat)}'s board.", seat=seat))
        return state
    if infected:
        state = M.infest(state, seat, cons)
    return state


def scanned(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    d = fact.data
    return scan(state, fact.actor, d["infected"], d.get("clean") or 0, d.get("scope") or "hand",
                bool(d.get("remove_infected")), cons)


def larva_removed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    cons.append(C("larva-removed", f"The larva is removed from {who(state, fact.actor)}'s board.", seat=fact.actor))
    return with_character(state, fact.actor, larva=False)


def slime(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    if fact.data["slime"]:
        return M.slime(state, fact.actor, cons)
    cons.append(C("slime-removed", f"{who(state, fact.actor)} discards the slime marker.", seat=fact.actor))
    return with_character(state, fact.actor, slime=False)


def died(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    return M.die(state, fact.actor, fact.data["cause"], cons)


# --- offers (table effects; inputs_play composes them with the others in the seeded generator's order) ---------

WOUND_OPTIONS = ["light", "serious"]
SCAN_SCOPES = ("hand", "all", "drawn")
DEATH_CAUSES_OFFERED = ["event"] + [c for c in DEATH_CAUSES if c != "event"]


def wound_offers(state: LockdownState, seats: list[int]) -> list[Expected]:
    """Table effects, the most frequent: a wound, then a contamination card, for each seat in play."""
    note = TABLE_EFFECT
    return ([offer("WoundSuffered", s, None, lambda: Expected("WoundSuffered", s, {"kind": WOUND_OPTIONS}, note))
             for s in seats]
            + [offer("ContaminationCardReceived", s, None, lambda: Expected("ContaminationCardReceived", s, {}, note))
               for s in seats])


def treatment_offers(state: LockdownState, seats: list[int]) -> list[Expected]:
    """Table effects: open serious wounds dressed, light or dressed wounds healed (per seat, in that order)."""
    note = TABLE_EFFECT
    out: list[Expected] = []
    for s in seats:
        c = state.crew.characters[s]
        open_ = sum(1 for w in c.serious if not w.dressed)
        if open_:
            out.append(offer("WoundDressed", s, open_, lambda: Expected(
                "WoundDressed", s, {"count": list(range(1, open_ + 1))}, note)))
        healable = (["light"] if c.light else []) + (["serious"] if any(w.dressed for w in c.serious) else [])
        if healable:
            out.append(offer("WoundHealed", s, tuple(healable), lambda: Expected(
                "WoundHealed", s, {"kind": healable}, note)))
    return out


def scan_offers(state: LockdownState, seat: int) -> list[Expected]:
    """Table effects for one seat: a contamination scan (how many infected), slime placed or removed."""
    note = TABLE_EFFECT
    c = state.crew.characters[seat]
    n = c.contamination
    slime = c.slime
    return [offer("ContaminationScanned", seat, n, lambda: Expected(
                "ContaminationScanned", seat, {"infected": list(range(n + 1)), "scope": list(SCAN_SCOPES)}, note)),
            offer("SlimeChanged", seat, slime, lambda: Expected(
                "SlimeChanged", seat, {"slime": [False, True] if slime else [True]}, note))]


def larva_offers(state: LockdownState, seats: list[int]) -> list[Expected]:
    """Table effect: a larva removed from a character who carries one."""
    return [offer("LarvaRemoved", s, None, lambda: Expected("LarvaRemoved", s, {}, TABLE_EFFECT))
            for s in seats if state.crew.characters[s].larva]


def death_offers(state: LockdownState, seats: list[int]) -> list[Expected]:
    """Table effect, rare and final: a character dies (by an event unless the table names another cause)."""
    return [offer("CharacterDied", s, None, lambda: Expected("CharacterDied", s, {"cause": DEATH_CAUSES_OFFERED},
                                                             TABLE_EFFECT)) for s in seats]


# Printed effects that give one character two things at once: one tap records both facts, in one command.
PAIRED_EFFECTS = (
    # "Cut" (Draśnięcie): 1 light wound + 1 contamination card (data/attack_cards.json; gaps_filled.md §7)
    (("WoundSuffered", {"kind": "light"}), ("ContaminationCardReceived", {})),
    # "Piercing the Heart": 1 serious wound + 1 contamination card (data/attack_cards.json; gaps_filled.md §7)
    (("WoundSuffered", {"kind": "serious"}), ("ContaminationCardReceived", {})),
    # "Blood Chase" (Węszenie): 1 light wound + a slime marker (lockdown.md §7, seed 000 L2993–2998)
    (("WoundSuffered", {"kind": "light"}), ("SlimeChanged", {"slime": True})),
    # "Radioactive Dust" (Radioaktywny pył): 1 contamination card + slime (lockdown.md, Mars surface cards);
    # the two commute: recorded marker first, as the other slime pairs
    (("SlimeChanged", {"slime": True}), ("ContaminationCardReceived", {})),
)
GROUP_NOTE = "table effect: printed together, one tap records both"


def effect_groups(state: LockdownState, seats: list[int], chain_legal: Callable[..., bool]) -> list[Group]:
    """One-tap table effects (``Ruleset.effect_groups``) per seat: a serious wound (the offer preselects a light
    one), then each printed pair that is legal (``chain_legal``: the rules' check, passed in by the ruleset)."""
    out: list[Group] = []
    for s in seats:
        serious = (Fact(0, "WoundSuffered", {"kind": "serious"}, s),)
        if chain_legal(state, serious):  # the offer preselects a light wound: a serious one is its own button
            out.append(Group(serious, OUTCOME_NOTE))
        for pair in PAIRED_EFFECTS:
            facts = tuple(Fact(0, t, dict(d), s) for t, d in pair)
            if chain_legal(state, facts):
                out.append(Group(facts, GROUP_NOTE))
    return out


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("WoundSuffered", "seat",
             "The character suffered wounds from an effect the table resolved (event, item, card). A 3rd light "
             "wound becomes a serious wound and any wound beyond 3 serious wounds kills — both derived.",
             (_f("kind", "wound_kind", "light or serious"),
              _f("count", "count1", "how many (default 1); resolved one by one", False),
              _f("card", "text", "the serious wound card drawn, if named ('Knee' / 'Kolano' surcharges a move: faq_lockdown.md 7)", False),
              _f("cause", "text", "what caused it (free text)", False)),
             {"kind": "light", "count": 1, "cause": "Noise in Corridors (darkness)"}, S.LIGHT_WOUNDS),
    FactSpec("WoundDressed", "seat",
             "Serious wounds were dressed (flipped): their effect is ignored, they still count towards 3.",
             (_f("count", "count1", "how many serious wounds were dressed (default 1)", False),),
             {"count": 1}, S.SERIOUS_WOUNDS),
    FactSpec("WoundHealed", "seat",
             "Wounds were healed: 'light' removes all light wounds, 'serious' discards 1 dressed serious wound.",
             (_f("kind", "wound_kind", "light or serious"),),
             {"kind": "light"}, S.SERIOUS_WOUNDS),
    FactSpec("ContaminationCardReceived", "seat",
             "The character received contamination cards (onto the own discard pile), from an effect the table "
             "resolved.",
             (_f("count", "count1", "how many (default 1)", False),),
             {"count": 1}, S.CONTAMINATION),
    FactSpec("ContaminationScanned", "seat",
             "Contamination cards were scanned: how many showed INFECTED and how many were clean. An infected card "
             "puts a larva on the board, or kills (a creeper appears) if a larva is already there — derived — "
             "unless the effect removes infected cards.",
             (_f("infected", "count0", "cards showing INFECTED"),
              _f("clean", "count0", "cards without the word", False),
              _f("scope", "scope", "hand, all (deck, hand and discard) or drawn (default hand)", False),
              _f("remove_infected", "bool", "the effect removes the infected cards (and the larva)", False)),
             {"infected": 0, "clean": 2, "scope": "hand"}, S.CONTAMINATION),
    FactSpec("LarvaRemoved", "seat", "The larva on the character board was removed (Skalpel etc.).",
             (), {}, S.CONTAMINATION),
    FactSpec("SlimeChanged", "seat", "A slime marker was placed on (true) or removed from (false) the character board.",
             (_f("slime", "bool", "true: slime marker placed; false: removed"),),
             {"slime": False}, S.SLIME),
    FactSpec("CharacterDied", "seat",
             "The character died from an effect the table resolved (a death the rules derive is never recorded). "
             "Corpse, dropped heavy objects, lost items, tokens to the pool and the main gate are derived.",
             (_f("cause", "cause", f"one of {', '.join(DEATH_CAUSES)}"),
              _f("note", "text", "free text", False)),
             {"cause": "event", "note": "Blood Rage"}, S.DEATH),
)
_CHECKS = (check_in_play, check_dressed, check_healed, check_in_play, check_scanned, check_larva, check_slime,
           check_died)
_EFFECTS = (wound, dressed, healed, contaminated, scanned, larva_removed, slime, died)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
