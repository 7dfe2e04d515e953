"""A coarse record (decision 0018): a stretch of rounds not recorded (``RecordGap``) and an escape recorded by its
outcome only (``CharacterEscaped``) — lenient games only, each flagged.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check, its effect; its offers
are ``coarse_inputs`` (the recorder offers them to lenient games). Decision 0029.

    >>> [t.spec.type for t in FACT_TYPES]
    ['RecordGap', 'CharacterEscaped']
"""
from __future__ import annotations

from types import MappingProxyType

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.mechanics import C
from service.rules.lockdown.state import (
    EVACUATED, IN_BASE, IN_BUNKER, IN_POD, LOCKED_IN, PLAYER, TURNS, LockdownState, who, with_character,
    with_characters,
)

GAP_RULE, ESCAPE_RULE = "record-gap", "escape-summary"
ESCAPE_ROUTES = ("pod", "bunker", "isolation")
POD_LETTERS = ("A", "B", "C")
INCOMPLETE = "incomplete"


def after_the_fact(state: LockdownState) -> bool:
    """The game is recorded after the fact (header option ``after_the_fact``): from memory or a report."""
    return bool((state.setup.options or {}).get("after_the_fact"))


def uncertain(state: LockdownState) -> bool:
    """Positions may be wrong: the game is recorded after the fact, or a stretch of it was not recorded."""
    return bool(state.record.gaps) or after_the_fact(state)


# --- checks --------------------------------------------------------------------------------------------------

def check_gap(state: LockdownState, fact: Fact) -> list[Violation]:
    out = [Violation(GAP_RULE, "A gap in the record (rounds not recorded): strict games record every fact; "
                     "record the game as lenient to skip ahead.", S.END, "to_round")]
    if fact.data["to_round"] <= state.clock.round:
        out.append(Violation("gap-backwards", f"RecordGap.to_round must be after the current round "
                             f"({state.clock.round}), got {fact.data['to_round']}.", S.END, "to_round"))
    return out


def check_escape(state: LockdownState, fact: Fact) -> list[Violation]:
    c = state.crew.characters[fact.actor]
    out = [Violation(ESCAPE_RULE, "An escape recorded by its outcome only: strict games record how it happened "
                     "(the pod and its launch, the Bunker, the Isolation Room); record the game as lenient to "
                     "summarise it.", S.END, "route")]
    if c.status not in (IN_BASE, IN_POD):
        out.append(Violation("not-in-base", f"{who(state, fact.actor)} is no longer in the base ({c.status}): "
                             f"nothing to escape from.", S.END, "route"))
    return out


# --- effects -------------------------------------------------------------------------------------------------

def apply_gap(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    """Skip ahead: the rest of this round and the rounds before ``to_round`` were not recorded."""
    to = fact.data["to_round"]
    b = state.board
    time, time_text = state.clock.time, ""
    given = fact.data.get("time")
    if given is not None:
        labels = [b.time_label(i) for i in range(len(b.time_spaces))]
        label = str(given).zfill(2) if str(given).zfill(2) in labels else str(given)
        if label in labels:
            time = labels.index(label)
            time_text = f", time token at {label}"
    last = to - 1
    span = f"round {state.clock.round}" if last <= state.clock.round else f"rounds {state.clock.round}–{last}"
    cons.append(C("record-gap", f"Not recorded: the rest of {span}. Round {to} begins{time_text}; positions, hands "
                  f"and tokens from before the gap may have changed.", from_round=state.clock.round, to_round=to,
                  time=b.time_label(time)))
    changes = {s: {"actions": 0, "passed": False, "moves": 0, "first_turn_done": False, "fire_hurt": False}
               for s in state.seats if state.crew.characters[s].status == IN_BASE}
    state = with_characters(state, changes) if changes else state
    if not state.ship.isolation_open and b.isolation_opens_at in b.time_spaces[:time + 1]:
        state = replace_in(state, "ship",
                           isolation_open=True)  # the time token passed the first white space: it stays open
        cons.append(C("milestone-isolation", "The time token is past the first white space: the Isolation Room is "
                      "open.", milestone="isolation_open"))
    gap = (state.clock.round, to, b.time_label(time) if given is not None else None)
    state = replace_in(state, "record", gaps=state.record.gaps + (gap,))
    state = replace_in(state, "clock", round=to, time=time, phase=PLAYER, step=TURNS, pending=(),
                       turn=state.clock.first_player, last_turn=None)
    state = replace_in(state, "systems", css_at=frozenset(
        s for s in state.systems.css_at if s in b.time_spaces and b.time_spaces.index(s) > time))
    return state


def apply_escape(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat, route = fact.actor, fact.data["route"]
    c = state.crew.characters[seat]
    if c.status not in (IN_BASE, IN_POD):
        cons.append(C("ignored", f"{who(state, seat)} is no longer in the base; nothing changes."))
        return state
    pods = dict(state.systems.pods)
    for letter, s in list(pods.items()):
        if s == seat:
            del pods[letter]
    state = replace_in(state, "systems", pods=MappingProxyType(pods))
    if route == "pod":
        letter = fact.data.get("pod")
        letter = letter if letter in POD_LETTERS else None
        state = with_character(state, seat, status=EVACUATED, pod=letter, room=None, passed=True)
        text = f"escapes by pod {letter}" if letter else "escapes by a CSS pod (which one is not recorded)"
    elif route == "bunker":
        state = with_character(state, seat, status=IN_BUNKER, room=None, passed=True)
        text = "reaches the Bunker"
    else:
        state = with_character(state, seat, status=LOCKED_IN, passed=True)
        text = "locks themselves in the Isolation Room"
    cons.append(C("escaped", f"{who(state, seat)} {text} (recorded by its outcome).", seat=seat, route=route))
    return M.check_base_empty(state, cons)


# --- what a coarse record may add --------------------------------------------------------

def coarse_inputs(state: LockdownState) -> list[Expected]:
    """The coarse-record facts that fit here (offered by the recorder in lenient games only)."""
    if state.end.ended or state.clock.phase == "setup":
        return []
    b = state.board
    times = [b.time_label(i) for i in range(state.clock.time,
                                            len(b.time_spaces) - 1)]  # not the last: that ends the game
    out = [Expected("RecordGap", None, {"to_round": list(range(state.clock.round + 1, max(state.clock.round + 2, 16))),
                                        "time": times, "note": None},
                    "coarse record: skip ahead — the rest of this round and the rounds before the chosen one "
                    "were not recorded")]
    for seat in state.seats:
        if state.crew.characters[seat].status in (IN_BASE, IN_POD):
            out.append(Expected("CharacterEscaped", seat, {"route": list(ESCAPE_ROUTES), "pod": list(POD_LETTERS)},
                                f"coarse record: {who(state, seat)} escaped (how is not recorded)"))
    return out


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("RecordGap", "table",
             "Coarse record: the rest of this round and the rounds before to_round were not recorded; round "
             "to_round begins (lenient games only; flagged record-gap).",
             (_f("to_round", "round", "the round recorded next (after the current one)"),
              _f("time", "space", "where the time token stands when recording resumes, if known", False),
              _f("note", "text", "free text (what is known of the skipped rounds)", False)),
             {"to_round": 4, "time": "09", "note": "rounds 2-3 from memory: nothing remembered"}, S.END),
    FactSpec("CharacterEscaped", "seat",
             "Coarse record: the character escaped, recorded by its outcome only — by a CSS pod, to the Bunker, "
             "or locked in the Isolation Room (lenient games only; flagged escape-summary).",
             (_f("route", "route", "pod, bunker or isolation"),
              _f("pod", "pod", "for a pod: A, B or C, if known", False),
              _f("note", "text", "free text", False)),
             {"route": "pod", "pod": "B"}, S.END),
)
_CHECKS = (check_gap, check_escape)
_EFFECTS = (apply_gap, apply_escape)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
