"""Hidden information: the objectives and the contingency tokens — dealt, kept, peeked at, taken and revealed.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check, its effect; the
offers of the concept follow (what a recorder may be asked: the cards that may be dealt at setup, the objective
kept after the first encounter, the table effects that touch hidden information, and what the victory check
reveals). Decision 0029: the first of Lockdown's concept modules.

    >>> [t.spec.type for t in FACT_TYPES][:2]
    ['ObjectivesDealt', 'ObjectiveChosen']
    >>> contingency_tokens()[-1]
    'unknown'
"""
from __future__ import annotations

from typing import Any

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import catalog, sections as S
from service.rules.lockdown.offers import offer
from service.rules.lockdown.scoring import not_solo_coop_card
from service.rules.lockdown.state import POWER_LOCATIONS, LockdownState, who, with_character

CONTINGENCY_PLANS = ("signal", "knowledge", "pods", "isolation", "save_all", "unknown")


# --- rules shared by the concept's checks ------------------------------------------------------------------

def mode_section(state: LockdownState) -> str:
    return {"solo": S.SOLO, "coop": S.COOP}.get(state.setup.mode, S.OBJECTIVES)


def not_solo_coop(state: LockdownState, objectives: list[str], field: str) -> list[Violation]:
    """Solo and co-op deal "Solo/Koop" cards instead of the standard decks (seed 000 L4499–4500,
    L4524–4526): a standard-deck card aimed at other players (``semi_coop_only``) is refused."""
    if state.setup.mode not in ("solo", "coop"):
        return []
    wrong = [k for k in (not_solo_coop_card(o) for o in objectives if o != "unknown") if k]
    if wrong:
        return [V("not-a-solo-coop-objective", f"{', '.join(wrong)} is a card of the standard objective decks; "
                  f"{state.setup.mode} uses the Solo/Co-op deck.", mode_section(state), field)]
    return []


# --- ObjectivesDealt -----------------------------------------------------------------------------------------

def check_dealt(state: LockdownState, fact: Fact) -> list[Violation]:
    c = state.crew.characters[fact.actor]
    n = 1 if state.setup.mode == "coop" else 2
    if c.objectives:
        return [V("objectives-twice", "Objectives were already dealt to this player.", S.OBJECTIVES)]
    if len(fact.data["objectives"]) != n:
        return [V("objective-count", f"{n} objective card(s) are dealt in {state.setup.mode} mode.",
                  mode_section(state), "objectives")]
    return not_solo_coop(state, fact.data["objectives"], "objectives")


def dealt(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    cons.append(C("objectives-dealt", f"{who(state, fact.actor)} is dealt {len(fact.data['objectives'])} objective(s).",
                  seat=fact.actor))
    return with_character(state, fact.actor, objectives=tuple(fact.data["objectives"]))


# --- ObjectiveChosen -----------------------------------------------------------------------------------------

def check_chosen(state: LockdownState, fact: Fact) -> list[Violation]:
    c = state.crew.characters[fact.actor]
    if state.setup.mode == "coop":
        return [V("coop-objectives-open", "In co-op every player has 1 open objective; there is no choice.", S.COOP)]
    if not state.colony.first_encounter:
        return [V("objective-choice-not-due", "Objectives are chosen at the first encounter with a night stalker.",
                  S.OBJECTIVES)]
    if c.objective is not None:
        return [V("objective-chosen-twice", f"{who(state, fact.actor)} already kept an objective.", S.OBJECTIVES)]
    known = [o for o in c.objectives if o != "unknown"]
    if len(known) == len(c.objectives) and known and fact.data["objective"] not in known:
        return [V("objective-not-dealt", f"{fact.data['objective']} was not dealt to this player.", S.OBJECTIVES,
                  "objective")]
    return not_solo_coop(state, [fact.data["objective"]], "objective")


def chosen(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    cons.append(C("objective-chosen", f"{who(state, fact.actor)} keeps 1 objective; the other is boxed unseen.",
                  seat=fact.actor))
    return with_character(state, fact.actor, objective=fact.data["objective"])


# --- ObjectiveRevealed ---------------------------------------------------------------------------------------

def check_objective_revealed(state: LockdownState, fact: Fact) -> list[Violation]:
    c = state.crew.characters[fact.actor]
    if c.objective not in (None, "unknown") and c.objective != fact.data["objective"]:
        return [V("objective-mismatch", f"The objective kept was {c.objective}.", S.VICTORY, "objective")]
    return not_solo_coop(state, [fact.data["objective"]], "objective")


def objective_revealed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    cons.append(C("objective-revealed", f"{who(state, fact.actor)} reveals the objective {fact.data['objective']}.",
                  seat=fact.actor, objective=fact.data["objective"]))
    c = state.crew.characters[fact.actor]
    objectives = c.objectives if fact.data["objective"] in c.objectives else c.objectives + (fact.data["objective"],)
    return with_character(state, fact.actor, objective=fact.data["objective"], objectives=objectives)


# --- ContingencyTokensDealt ----------------------------------------------------------------------------------

def check_tokens_dealt(state: LockdownState, fact: Fact) -> list[Violation]:
    c = state.crew.characters[fact.actor]
    if state.setup.mode == "coop":
        return [V("coop-no-tokens", "In co-op no contingency tokens are dealt to players.", S.COOP)]
    if c.contingency:
        return [V("contingency-twice", "Contingency tokens were already dealt to this player.", S.CONTINGENCY)]
    n = 2 if len(state.seats) <= 2 else 1
    if len(fact.data["tokens"]) != n:
        return [V("contingency-count", f"Each player holds {n} contingency token(s) with {len(state.seats)} "
                  f"player(s).", S.CONTINGENCY, "tokens")]
    return []


def tokens_dealt(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    tokens = tuple(fact.data["tokens"])
    cons.append(C("contingency-dealt", f"{who(state, fact.actor)} holds {len(tokens)} contingency token(s).",
                  seat=fact.actor))
    return with_character(state, fact.actor, contingency=tokens)


# --- ContingencyTokenPeeked ----------------------------------------------------------------------------------

def check_peeked(state: LockdownState, fact: Fact) -> list[Violation]:
    if fact.data["owner"] == "active":
        return [V("active-plan-hidden", "No effect may peek at the active contingency plan.", S.CONTINGENCY, "owner")]
    if fact.data["owner"] == fact.actor:
        return [V("own-token", "A player always knows their own tokens.", S.CONTINGENCY, "owner")]
    return []


def peeked(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    owner, token = fact.data["owner"], fact.data.get("token") or "unknown"
    cons.append(C("contingency-peeked", f"{who(state, fact.actor)} looks at a contingency token of "
                  f"{'the neutral pool' if owner == 'pool' else who(state, owner)}.", seat=fact.actor, owner=owner))
    if token != "unknown" and owner != "pool":
        held = list(state.crew.characters[owner].contingency)
        if token not in held and "unknown" in held:
            held[held.index("unknown")] = token
            state = with_character(state, owner, contingency=tuple(held))
    return state


# --- ContingencyTokenTaken (also the Alert Room's "gather information") ---------------------------------------

def check_taken(state: LockdownState, fact: Fact) -> list[Violation]:
    return [] if state.secrets.pool else [V("pool-empty", "The neutral pool is empty.", S.CONTINGENCY)]


def gather(state: LockdownState, seat: int, place: str | None, d: Any, cons: list[Consequence]) -> LockdownState:
    """``seat`` takes a contingency token from the neutral pool (the token ``d["token"]`` if recorded)."""
    token = d.get("token") or "unknown"
    pool = list(state.secrets.pool)
    if token in pool:
        pool.remove(token)
    elif "unknown" in pool:
        pool.remove("unknown")
    elif pool:
        pool.pop()
    c = state.crew.characters[seat]
    cons.append(C("contingency-taken", f"{who(state, seat)} takes a contingency token from the neutral pool.",
                  seat=seat))
    state = with_character(state, seat, contingency=c.contingency + (token,))
    return replace_in(state, "secrets", pool=tuple(pool))


def taken(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    return gather(state, fact.actor, None, fact.data, cons)


# --- ContingencyTokenRevealed --------------------------------------------------------------------------------

def check_token_revealed(state: LockdownState, fact: Fact) -> list[Violation]:
    if fact.data["owner"] == "active" and not state.end.ended:
        return [V("active-plan-hidden", "The active contingency plan is revealed only at the end of the game.",
                  S.CONTINGENCY, "owner")]
    return []


def token_revealed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    owner, token = fact.data["owner"], fact.data["token"]
    cons.append(C("contingency-revealed", f"Contingency token revealed ({owner}): {token}.", owner=owner, token=token))
    if owner == "active":
        return replace_in(state, "secrets", active_contingency=token)
    if owner == "pool":
        pool = list(state.secrets.pool)
        if "unknown" in pool:
            pool.remove("unknown")
        return replace_in(state, "secrets", pool=tuple(pool) + (token,),
                          revealed_pool=state.secrets.revealed_pool + (token,))
    held = list(state.crew.characters[owner].contingency)
    if token not in held:
        if "unknown" in held:
            held[held.index("unknown")] = token
        else:
            held.append(token)
    return with_character(state, owner, contingency=tuple(held))


# --- the declarations --------------------------------------------------------------------------------------

FACT_TYPES: tuple[FactType, ...] = (
    FactType(FactSpec("ObjectivesDealt", "seat", "Objective cards dealt to the player (secret; names if recorded).",
                      (_f("objectives", "objectives",
                          "the cards as type ids with values (see objectives.json), or 'unknown'"),),
                      {"objectives": ["unknown", "unknown"]}, S.OBJECTIVES),
             check_dealt, dealt),
    FactType(FactSpec("ObjectiveChosen", "seat",
                      "At the first encounter the player kept 1 of their 2 objectives (the other is boxed unseen).",
                      (_f("objective", "objective", "the objective kept (type id with values, or 'unknown')"),),
                      {"objective": "send_signal"}, S.OBJECTIVES),
             check_chosen, chosen),
    FactType(FactSpec("ObjectiveRevealed", "seat", "The player showed their objective (victory check, or later).",
                      (_f("objective", "objective", "the objective (type id with values)"),),
                      {"objective": "knowledge_at_least:5"}, S.VICTORY),
             check_objective_revealed, objective_revealed),
    FactType(FactSpec("ContingencyTokensDealt", "seat", "Contingency tokens dealt to the player (secret).",
                      (_f("tokens", "names", "plan ids (signal, knowledge, pods, isolation, save_all) or 'unknown'"),),
                      {"tokens": ["unknown"]}, S.CONTINGENCY),
             check_tokens_dealt, tokens_dealt),
    FactType(FactSpec("ContingencyTokenPeeked", "seat",
                      "The player looked at a contingency token (Archive, computer): whose, and what it was if "
                      "recorded.",
                      (_f("owner", "owner", "a seat, or 'pool'"),
                       _f("token", "plan", "what was seen ('unknown' if not recorded)", False)),
                      {"owner": 2, "token": "save_all"}, S.CONTINGENCY),
             check_peeked, peeked),
    FactType(FactSpec("ContingencyTokenTaken", "seat",
                      "The player took a contingency token from the neutral pool (Alert Room).",
                      (_f("token", "plan", "the token, if recorded", False),), {"token": "unknown"}, S.CONTINGENCY),
             check_taken, taken),
    FactType(FactSpec("ContingencyTokenRevealed", "table",
                      "A hidden contingency token was revealed: the active plan (at the victory check), a neutral "
                      "token (co-op), or a player's token.",
                      (_f("owner", "owner", "'active', 'pool' or a seat"),
                       _f("token", "plan", "the plan on it")),
                      {"owner": "active", "token": "signal"}, S.CONTINGENCY),
             check_token_revealed, token_revealed),
)
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}


# --- offers ------------------------------------------------------------------------------------------------

def objective_cards(state: LockdownState, seat: int) -> list[str]:
    """Objectives as recorded (type plus printed arguments, data/objectives.json): every type with the arguments
    this game allows — a seat, a weakness 1-3, knowledge 1-8, two sectors. The printed X values are not
    in the sources, so the ranges are the tracks' own."""
    sectors = [p for p in POWER_LOCATIONS if p.startswith("S-")]
    # every seat: the check does not refuse one's own number (a card names a player number, not a person)
    args = {"player": [str(o) for o in state.seats], "weakness": ["1", "2", "3"],
            "knowledge": [str(n) for n in range(1, 9)]}
    out = []
    for tid, t in catalog.objective_types().items():
        params = tuple(t.get("params") or ())
        if not params:
            out.append(tid)
        elif params == ("sector", "sector"):
            out += [f"{tid}:{a},{b}" for i, a in enumerate(sectors) for b in sectors[i + 1:]]
        elif len(params) == 1 and params[0] in args:
            out += [f"{tid}:{v}" for v in args[params[0]]]
    return out


def contingency_tokens() -> list[str]:
    """The contingency plans a player may be dealt, and ``unknown`` for a token the recorder did not see."""
    return list(catalog.plans()) + ["unknown"]


def table_effects(state: LockdownState, seats: list[int], note: str) -> list[Expected]:
    """The table effects that touch hidden information (a card or a room lets a player peek, take or reveal a
    token, show an objective, or the cards are dealt late), in the order ``next_inputs`` lists them."""
    out: list[Expected] = []
    chars = state.crew.characters
    plans = list(CONTINGENCY_PLANS)
    holders = [s for s in state.seats if chars[s].contingency]
    for s in seats:
        owners = [o for o in holders if o != s] + (["pool"] if state.secrets.pool else [])
        if owners:
            out.append(offer("ContingencyTokenPeeked", s, tuple(owners), lambda: Expected(
                "ContingencyTokenPeeked", s, {"owner": owners, "token": plans}, note)))
    if state.secrets.pool:
        out += [offer("ContingencyTokenTaken", s, None, lambda: Expected(
            "ContingencyTokenTaken", s, {"token": plans}, note)) for s in seats]
    hidden = (["pool"] if "unknown" in state.secrets.pool else []) + [s for s in holders if "unknown" in chars[s].contingency]
    if hidden:
        out.append(Expected("ContingencyTokenRevealed", None, {"owner": hidden, "token": plans[:-1]}, note))
    for s in seats:
        c = chars[s]
        if c.objective not in (None, "unknown"):
            objective: list[str] | None = [c.objective]
        else:
            known = [o for o in dict.fromkeys(c.objectives) if o != "unknown"]
            objective = known if known and "unknown" not in c.objectives else None
        out.append(offer("ObjectiveRevealed", s, tuple(objective) if objective else None, lambda: Expected(
            "ObjectiveRevealed", s, {"objective": objective}, note)))
        if not c.objectives:
            out.append(Expected("ObjectivesDealt", s, {"objectives": objective_cards(state, s)}, note))
        if not c.contingency and state.setup.mode != "coop":
            out.append(Expected("ContingencyTokensDealt", s, {"tokens": contingency_tokens()}, note))
    return out


def setup_offers(state: LockdownState, seat: int) -> list[Expected]:
    """Optional setup records for ``seat``: its objective cards and (not in co-op) its contingency tokens dealt."""
    c = state.crew.characters[seat]
    out = []
    if not c.objectives:
        n_obj = 1 if state.setup.mode == "coop" else 2
        out.append(Expected("ObjectivesDealt", seat, {"objectives": objective_cards(state, seat)},
                            f"{n_obj} objective card(s) dealt"))
    if not c.contingency and state.setup.mode != "coop":
        n_tok = 2 if len(state.seats) <= 2 else 1
        out.append(Expected("ContingencyTokensDealt", seat, {"tokens": contingency_tokens()},
                            f"{n_tok} contingency token(s) dealt"))
    return out


def due_offers(state: LockdownState) -> list[Expected]:
    """Due outside the pending queue: after the first encounter, each player keeps 1 of their 2 objectives."""
    out = []
    if state.colony.first_encounter and state.setup.mode != "coop":
        for s in state.seats:
            c = state.crew.characters[s]
            if c.objectives and c.objective is None and c.status in ("base", "pod"):
                out.append(Expected("ObjectiveChosen", s, {"objective": list(dict.fromkeys(c.objectives))},
                                    "first encounter: keep 1 of the 2 objectives"))
    return out


def end_contingency_offers(state: LockdownState) -> list[Expected]:
    """At the victory check: the active contingency plan, if the record does not know it."""
    if state.secrets.active_contingency != "unknown":
        return []
    return [Expected("ContingencyTokenRevealed", None,
                     {"owner": ["active"], "token": ["signal", "knowledge", "pods", "isolation", "save_all"]},
                     "reveal the active contingency plan")]


def end_objective_offers(state: LockdownState, seat: int) -> list[Expected]:
    """At the victory check: ``seat``'s objective, if the record does not know it."""
    c = state.crew.characters[seat]
    if c.objective in (None, "unknown") and c.objectives and "unknown" not in c.objectives:
        return [Expected("ObjectiveRevealed", seat, {"objective": list(dict.fromkeys(c.objectives))},
                         "reveal the objective")]
    return []
