"""The victory check of Nemesis: Lockdown (lockdown.md §11.5, §11.8; seed 000 L1603–1699).

The input is a :class:`ScoringView`: plain data, built by the fold (``view.score``) from the
game state once the game has ended. Every hidden value may be ``None`` = *unknown* (a
contingency token never revealed, a card never scanned, an objective never shown). The check
then says ``undetermined`` with the reason "needs X" — but only when the unknown value could
change that seat's outcome; otherwise it decides anyway.

    >>> v = ScoringView(mode="standard", ending="time_out", active_contingency="save_all",
    ...     seats=(SeatView(seat=1, character="survivor", alive=True, location="bunker",
    ...                     larva=False, scan_infected=False, objective="send_signal",
    ...                     signal_sent=True),))
    >>> r = victory_check(v)
    >>> r.players[0].outcome, r.players[0].survival
    ('won', 'bunker')

Vocabulary (ids used in the fields below):

- ``ending``: ``time_out``, ``alarm_procedure``, ``base_destroyed``, ``no_characters_left``,
  ``abandoned`` (the ids of ``facts.ENDINGS``; lockdown.md §11.5).
- ``location`` of a character alive when the game ended: ``base`` (free in the facility),
  ``isolation`` (locked in the Isolation Room), ``pod`` (sitting in a CSS pod that never
  launched), ``swc`` (evacuated by a CSS/SWC pod), ``bunker`` (escaped to the Bunker).
- contingency plan ids (gaps_filled.md §4): ``signal``, ``knowledge``, ``pods``, ``isolation``,
  ``save_all``; colour names (blue, yellow, grey, red, green) are accepted as aliases.
- objective: ``"<type>"`` or ``"<type>:<arg>[,<arg>…]"``, a type of ``data/objectives.json``,
  e.g. ``knowledge_at_least:5``, ``player_must_not_survive:2``, ``sectors_explored:S-01,S-03``.
- final-scan draw card kinds: ``action`` or ``contamination``.

The algorithm and every disputed choice are described in docs/scoring.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from service.rules.base import PlayerResult, Result

MODES = ("standard", "solo", "coop")
ENDINGS = ("abandoned", "time_out", "alarm_procedure", "base_destroyed", "no_characters_left", "incomplete")
# an incomplete record (docs/decisions/0018) is checked under every ending it could have had
REAL_ENDINGS = ("time_out", "alarm_procedure", "base_destroyed", "no_characters_left")
LOCATIONS = ("base", "isolation", "pod", "swc", "bunker")
SURVIVAL_LOCATIONS = ("isolation", "swc", "bunker")
PLANS = ("signal", "knowledge", "pods", "isolation", "save_all")


# --------------------------------------------------------------------------------------------
# the input contract
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaknessView:
    """One weakness card slot of the laboratory board (lockdown.md §8.7; gaps_filled.md §11)."""

    slot: int
    """1, 2 or 3 (under knowledge 3, 5 and 8). Objectives may name a slot."""
    card: str | None = None
    """The weakness card's id (e.g. ``wary_of_shadows``); None = not recorded."""
    discovered: bool | None = None
    """Face up (revealed/discovered) at the end of the game; None = unknown. Slot 1 starts face up."""


@dataclass(frozen=True)
class SeatView:
    """Everything the victory check needs about one seat. ``None`` always means *unknown*."""

    seat: int
    """The seat number (1-based, clockwise) — the key of the PlayerResult."""

    player_number: int | None = None
    """The player's help-card number ("player X" on objective cards, L1106–1110). None = not
    tracked: the seat number is then used as the player number."""

    character: str | None = None
    """Character id of data/characters.json (``survivor``, ``lab_rat``, ``hacker``, …)."""

    nemesis_survivor: bool | None = None
    """True for a "Nemesis survivor" (Lab Rat, Survivor, Medic, every Nemesis/Aftermath character;
    seed L1251–1254, FAQ 21). None = derive from ``character`` (group ``survivor`` in characters.json)."""

    alive: bool | None = None
    """Alive at the moment the game ended, *before* the end-of-game effects (rapid response team,
    explosion) and before the victory check. False = died during play."""

    death_cause: str | None = None
    """Why a character dead during play died (free text or id: ``wounds``, ``larva``, ``fire``, …)."""

    location: str | None = None
    """Where a living character was when the game ended — one of LOCATIONS (``base``, ``isolation``,
    ``pod``, ``swc``, ``bunker``); the survival route is read from it. None = unknown."""

    pod: str | None = None
    """For ``location`` ``swc`` or ``pod``: the pod letter ``A``, ``B`` or ``C`` (None = unknown)."""

    bunker_via: str | None = None
    """For ``location`` ``bunker``: ``rover`` or ``space_suit`` (informational; None = unknown)."""

    contingency_tokens: tuple[str | None, ...] | None = None
    """Contingency tokens this seat holds at the end (plan id per token, None for a token nobody
    saw). None = not even the number is known. Used only to deduce an unrevealed active plan."""

    signal_sent: bool | None = None
    """A status marker lies on the character's "signal sent" field (Transmitter Control Room)."""

    knowledge: int | None = None
    """The character's knowledge level at the end (0–8)."""

    knowledge_token_active: bool | None = None
    """The character's knowledge token is on its active side (Archive)."""

    larva: bool | None = None
    """A larva lies on the character board at the end (then the scan skips step A, L1669)."""

    contamination_cards: int | None = None
    """How many contamination cards the character owns (deck + discard + hand). 0 means the scan
    and the draw can find nothing; None = unknown."""

    scan_infected: bool | None = None
    """Final scan step A: True = at least 1 card showed INFECTED; False = none did; None = not
    scanned / not recorded."""

    final_draw: tuple[str, ...] | None = None
    """Final scan step B: the kinds of the 4 drawn cards (``action`` / ``contamination``), in any
    order. None = not drawn / not recorded."""

    objectives_dealt: tuple[str | None, ...] | None = None
    """The objective cards dealt (2 in standard and solo; 1 open card in co-op); None per card =
    never revealed; None = unknown."""

    objective: str | None = None
    """The objective kept at the first encounter (or the only one). None = never revealed; the
    check then tries every dealt objective and needs the card only if they disagree."""

    items: tuple[str, ...] | None = None
    """Items and objects the character holds at the end (ids, e.g. ``egg``, ``enviro_suit``);
    None = unknown. Only objectives that name an item read it."""


@dataclass(frozen=True)
class ScoringView:
    """The end of one game, as the victory check sees it. ``None`` always means *unknown*."""

    mode: str
    """``standard`` (semi-co-operative), ``solo`` or ``coop`` (full co-operative)."""

    ending: str
    """How the game ended: one of ENDINGS (lockdown.md §11.5)."""

    seats: tuple[SeatView, ...] = ()
    """One view per seat, in seat order."""

    base_destroyed: bool | None = None
    """The base exploded. None = derive it from ``ending`` and the self-destruct state: ending
    ``base_destroyed``; or ``alarm_procedure``/``no_characters_left`` with the self-destruct countdown
    active (L1630–1638; FAQ 6)."""

    self_destruct: str | None = "off"
    """Self-destruct token at the end: ``off``, ``yellow`` or ``red``; None = unknown."""

    alarm_procedure: bool | None = False
    """The alarm procedure (Alert Room) was active at the end."""

    active_contingency: str | None = None
    """The active contingency plan (plan id or colour) as revealed at the victory check; None = not
    recorded (it is deduced by elimination from ``neutral_pool`` and the seats' tokens if possible)."""

    neutral_pool: tuple[str | None, ...] | None = None
    """The neutral-pool contingency tokens at the end (plan id or None per token; None = unknown)."""

    eggs_in_nest: int | None = None
    """Egg tokens left in the Nest at the end (0 = Nest destroyed, L1290–1293)."""

    queen_killed: bool | None = None
    """The queen was killed during play (the explosion kills her too; that is derived)."""

    weaknesses: tuple[WeaknessView, ...] | None = None
    """The three weakness slots of the laboratory board; None = unknown."""

    first_weakness_face_up: bool = True
    """Slot 1 starts face up (night stalkers, L3413); with *Nemesis* intruders all 3 start face down
    (seed 000 L4777, L4794–4795), so discovering slot 1 counts for "discover a weakness"."""

    sectors_explored: Mapping[str, bool | None] | None = None
    """Per sector (``S-01``, ``S-02``, ``S-03``): every room in it explored at the end."""

    pods_launched: tuple[str, ...] = ()
    """CSS tokens revealed in order (``A``, ``B``, ``C``, ``ALL``, ``NONE``) — informational."""


@dataclass(frozen=True)
class ScoringSettings:
    """Values the sources dispute or do not give. Each default is documented in docs/scoring.md."""

    knowledge_plan_rule: str = "at_most_dies"
    """The knowledge contingency token (2 copies, gaps_filled.md §4, disputed): ``at_most_dies`` =
    every living character with knowledge ≤ ``knowledge_plan_threshold`` dies (S4 tracker reading);
    ``above_dies`` = every character with knowledge > threshold dies (the "Yellow code" narrative)."""

    knowledge_plan_threshold: int = 4
    """Threshold of the knowledge contingency plan (S4: "4 or less dies")."""

    isolation_plan_kills_bunker: bool = False
    """Whether the isolation ("Red", nuke) plan also kills characters in the Bunker. gaps_filled.md §4:
    no token kills Bunker characters (C1), so False."""

    pod_at_end_counts_as_base: bool = True
    """A character sitting in a CSS pod that never launched when the game ends (fate not stated,
    lockdown.md §11.9): True = treated as being in the base (killed by the rapid response team or the
    explosion); False = treated as evacuated."""

    yellow_self_destruct_is_active: bool = True
    """A yellow (still stoppable) self-destruct token counts as an *active* countdown when the game
    ends by ``no_characters_left`` or the alarm procedure (L1630–1638; FAQ 6 note) ⇒ base destroyed."""

    timeout_fails_stalker_objectives: bool = True
    """On a time-out / alarm ending "night stalkers stay alive; kill the queen / destroy the Nest
    objectives fail" (L1612–1613), even if the Nest was emptied before."""

    base_destroyed_destroys_nest: bool = True
    """When the base explodes the Nest goes with it: "destroy the Nest" is met even with eggs left. The seed
    says only that the stalkers die and the queen is killed "which may matter for some objectives"
    (seed 000 L1618–1622); the Nest is a room of the base, so True (docs/rules-gaps.md). False = only an
    emptied Nest (no egg token left, L1293) counts."""


DEFAULT = ScoringSettings()


def settings_from(options: Mapping | None) -> ScoringSettings:
    """The game's scoring settings: header option ``scoring`` overrides the defaults, e.g.
    ``{"scoring": {"knowledge_plan_threshold": 5}}``. Raises ValueError naming a bad key or value.

    >>> settings_from({"scoring": {"knowledge_plan_threshold": 5}}).knowledge_plan_threshold
    5
    """
    given = (options or {}).get("scoring") or {}
    if not isinstance(given, Mapping):
        raise ValueError("option 'scoring' must be an object of scoring settings")
    known = {f: type(getattr(DEFAULT, f)) for f in DEFAULT.__dataclass_fields__}
    for key, value in given.items():
        if key not in known:
            raise ValueError(f"unknown scoring setting {key!r}; known: {', '.join(sorted(known))}")
        if type(value) is not known[key]:
            raise ValueError(f"scoring setting {key!r} must be a {known[key].__name__}, not {value!r}")
    if given.get("knowledge_plan_rule", DEFAULT.knowledge_plan_rule) not in ("at_most_dies", "above_dies"):
        raise ValueError("scoring setting 'knowledge_plan_rule' must be 'at_most_dies' or 'above_dies'")
    return ScoringSettings(**given)


# --------------------------------------------------------------------------------------------
# three-valued values: (value, needs) — value None means unknown, ``needs`` says what would decide
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tri:
    """A possibly-unknown value plus, when unknown, what is needed to know it."""

    value: object = None
    needs: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        return self.value is not None


def _k(value: object) -> Tri:
    return Tri(value, ())


def _u(*needs: str) -> Tri:
    return Tri(None, tuple(dict.fromkeys(needs)))


def _not(t: Tri) -> Tri:
    return t if t.value is None else _k(not t.value)


def _all(items: list[Tri]) -> Tri:
    if any(t.value is False for t in items):
        return _k(False)
    unknown = [t for t in items if t.value is None]
    if unknown:
        return _u(*(n for t in unknown for n in t.needs))
    return _k(True)


def _any(items: list[Tri]) -> Tri:
    return _not(_all([_not(t) for t in items]))


# --------------------------------------------------------------------------------------------
# per-seat verdict while checking
# --------------------------------------------------------------------------------------------


@dataclass
class _Seat:
    view: SeatView
    name: str
    alive: Tri = field(default_factory=lambda: _k(False))  # after the step reached so far
    route: str | None = None  # "isolation", "swc:A", "bunker"
    death_cause: str | None = None
    reasons: list[str] = field(default_factory=list)


def _label(sv: SeatView) -> str:
    if sv.character:
        try:
            from service.rules.lockdown.components import CHARACTERS

            c = CHARACTERS.resolve(sv.character)
            if c is not None:
                return f"seat {sv.seat} ({c.en})"
        except Exception:  # components are another module's data; never fail scoring on a label
            pass
        return f"seat {sv.seat} ({sv.character})"
    return f"seat {sv.seat}"


def _is_nemesis_survivor(sv: SeatView) -> bool | None:
    if sv.nemesis_survivor is not None:
        return sv.nemesis_survivor
    if sv.character is None:
        return None
    from service.rules.lockdown.catalog import character_group

    group = character_group(sv.character)
    return None if group is None else group == "survivor"


def _base_destroyed(view: ScoringView, settings: ScoringSettings) -> Tri:
    if view.base_destroyed is not None:
        return _k(bool(view.base_destroyed))
    if view.ending == "base_destroyed":
        return _k(True)
    if view.ending in ("alarm_procedure", "no_characters_left"):
        sd = view.self_destruct
        if sd is None:
            return _u("the self-destruct state at the end (was the base destroyed?)")
        if sd == "red":
            return _k(True)
        if sd == "yellow":
            return _k(settings.yellow_self_destruct_is_active)
        return _k(False)
    return _k(False)


def _ending_effects(seat: _Seat, destroyed: Tri, settings: ScoringSettings) -> None:
    """Step 0: the end of the game (lockdown.md §11.5): rapid response team or explosion."""
    sv = seat.view
    if sv.alive is False:
        seat.alive = _k(False)
        seat.death_cause = sv.death_cause or "died during play"
        seat.reasons.append(f"died during play{f' ({sv.death_cause})' if sv.death_cause else ''}")
        return
    if sv.alive is None:
        seat.alive = _u(f"whether {seat.name} was alive at the end")
        seat.reasons.append("alive or dead at the end is not recorded")
        return
    loc = sv.location
    if loc == "pod":
        loc = "base" if settings.pod_at_end_counts_as_base else "swc"
        seat.reasons.append("sat in a CSS pod that never launched"
                            + (" (counts as in the base)" if loc == "base" else " (counts as evacuated)"))
    if loc is None:
        seat.alive = _u(f"where {seat.name} was at the end (Isolation Room, pod, Bunker or base)")
        seat.reasons.append("where the character ended is not recorded")
        return
    if loc == "swc":
        seat.route = f"swc:{sv.pod}" if sv.pod else "swc"
        seat.alive = _k(True)
        seat.reasons.append(f"escaped by pod {sv.pod}" if sv.pod else "escaped by a CSS pod")
    elif loc == "bunker":
        seat.route = "bunker"
        seat.alive = _k(True)
        via = {"rover": " by rover", "space_suit": " in a space suit"}.get(sv.bunker_via or "", "")
        seat.reasons.append(f"reached the Bunker{via}")
    elif loc == "isolation":
        seat.route = "isolation"
        if destroyed.value is True:
            seat.alive = _k(False)
            seat.death_cause = "base_destroyed"
            seat.reasons.append("locked in the Isolation Room, but the base was destroyed")
        elif destroyed.value is False:
            seat.alive = _k(True)
            seat.reasons.append("locked in the Isolation Room with the base intact")
        else:
            seat.alive = _u(*destroyed.needs)
            seat.reasons.append("locked in the Isolation Room; whether the base was destroyed is unknown")
    else:  # "base" or anything else: still in the facility
        if destroyed.value is True:
            seat.alive = _k(False)
            seat.death_cause = "base_destroyed"
            seat.reasons.append("was in the base when it exploded")
        elif destroyed.value is False:
            seat.alive = _k(False)
            seat.death_cause = "rapid_response_team"
            seat.reasons.append("was in the base at the end: killed by the rapid response team")
        else:  # dies either way; the cause is unknown
            seat.alive = _k(False)
            seat.death_cause = "base"
            seat.reasons.append("was in the base at the end: killed (explosion or rapid response team)")


def _plan_kills(seat: _Seat, plan: str, settings: ScoringSettings) -> Tri:
    sv = seat.view
    route = (seat.route or "").split(":")[0]
    if plan == "save_all":
        return _k(False)
    if plan == "pods":
        return _k(route == "swc")
    if plan == "isolation":
        return _k(route == "isolation" or (settings.isolation_plan_kills_bunker and route == "bunker"))
    if plan == "signal":
        if sv.signal_sent is None:
            return _u(f"whether {seat.name} sent the signal")
        return _k(not sv.signal_sent)
    if plan == "knowledge":
        if sv.knowledge is None:
            return _u(f"the knowledge of {seat.name}")
        t = settings.knowledge_plan_threshold
        if settings.knowledge_plan_rule == "above_dies":
            return _k(sv.knowledge > t)
        return _k(sv.knowledge <= t)
    raise ValueError(f"unknown contingency plan {plan!r}")


_PLAN_TEXT = {
    "signal": "killed everyone who had not sent the signal",
    "knowledge": "killed everyone with low knowledge",
    "pods": "killed pod escapees",
    "isolation": "killed everyone locked in the Isolation Room",
    "save_all": "saved everyone",
}


def _plan_name(plan: str) -> str:
    from service.rules.lockdown.catalog import plans

    return f"{plans()[plan]['colour']} ({plan})"


def _contingency(seat: _Seat, plan: str, settings: ScoringSettings) -> None:
    """Step 1 (L1648–1655): the active plan's effect on every living character."""
    if seat.alive.value is False:
        return
    kills = _plan_kills(seat, plan, settings)
    text = f"contingency {_plan_name(plan)} {_PLAN_TEXT[plan]}"
    if settings.knowledge_plan_rule == "above_dies" and plan == "knowledge":
        text = f"contingency {_plan_name(plan)} killed everyone with knowledge above {settings.knowledge_plan_threshold}"
    elif plan == "knowledge":
        text = (f"contingency {_plan_name(plan)} killed everyone with knowledge "
                f"{settings.knowledge_plan_threshold} or less")
    if kills.value is True:
        seat.death_cause = f"contingency:{plan}"
        seat.alive = _k(False)
        seat.reasons.append(text)
    elif kills.value is False:
        seat.reasons.append(f"survived contingency {_plan_name(plan)}")
    else:
        seat.alive = _all([seat.alive, _not(kills)])
        seat.reasons.append(f"contingency {_plan_name(plan)}: outcome unknown")


def _final_scan(seat: _Seat) -> None:
    """Step 2 (L1657–1675): scan all cards (A); if infected or carrying a larva, draw 4 (B)."""
    if seat.alive.value is False:
        return
    sv = seat.view
    no_cards = sv.contamination_cards == 0
    if sv.larva is True:
        need_draw: Tri = _k(True)
        why = "carried a larva"
    elif no_cards:
        need_draw, why = _k(False), ""
    elif sv.scan_infected is True:
        need_draw, why = _k(True), "an infected card was scanned"
    elif sv.scan_infected is False and sv.larva is False:
        need_draw, why = _k(False), ""
    else:
        needs = []
        if sv.scan_infected is None:
            needs.append(f"the final scan (step A) of {seat.name}")
        if sv.larva is None:
            needs.append(f"whether {seat.name} carried a larva")
        need_draw, why = _u(*needs), ""
    if need_draw.value is False:
        seat.reasons.append("passed the final scan" + (" (no contamination cards)" if no_cards else ""))
        return
    # step B
    if no_cards:
        dies: Tri = _k(False)
    elif sv.final_draw is not None:
        dies = _k(any(str(c).casefold().startswith("contamination") for c in sv.final_draw))
    else:
        dies = _u(f"the final-scan four-card draw of {seat.name}")
    if need_draw.value is True:
        if dies.value is True:
            seat.alive = _k(False)
            seat.death_cause = "final_scan"
            seat.reasons.append(f"final scan: {why}; drew a contamination card among 4 cards and died")
        elif dies.value is False:
            seat.reasons.append(f"final scan: {why}; drew 4 cards without contamination and survived")
        else:
            seat.alive = _all([seat.alive, _not(dies)])
            seat.reasons.append(f"final scan: {why}; the four-card draw is not recorded")
    else:  # unknown whether the draw was needed
        if dies.value is False:
            seat.reasons.append("passed the final scan (the draw found no contamination card)")
        else:
            seat.alive = _all([seat.alive, _any([_not(need_draw), _not(dies)])])
            seat.reasons.append("final scan not recorded")


# --------------------------------------------------------------------------------------------
# objectives: the declarative rules of data/objectives.json
# --------------------------------------------------------------------------------------------


class _Ctx:
    def __init__(self, view: ScoringView, seats: dict[int, _Seat], me: _Seat, args: tuple, settings: ScoringSettings,
                 destroyed: Tri):
        self.view, self.seats, self.me, self.args, self.settings, self.destroyed = view, seats, me, args, settings, destroyed


def _seat_field(seat: _Seat, name: str) -> Tri:
    if name == "survives":
        if seat.alive.value is None:
            return _u(*seat.alive.needs) if seat.alive.needs else _u(f"whether {seat.name} survived")
        return seat.alive
    if name == "nemesis_survivor":
        v = _is_nemesis_survivor(seat.view)
        return _k(v) if v is not None else _u(f"the character of {seat.name}")
    v = getattr(seat.view, name)
    if v is None:
        return _u(f"{name.replace('_', ' ')} of {seat.name}")
    return _k(v)


def _game_field(ctx: _Ctx, name: str) -> Tri:
    v = ctx.view
    if name == "base_destroyed":
        return ctx.destroyed
    if name == "queen_dead":
        if ctx.destroyed.value is True:
            return _k(True)
        if v.queen_killed is None:
            return _all([_not(ctx.destroyed), _u("whether the queen was killed")])
        return _k(v.queen_killed) if ctx.destroyed.known else (
            _k(True) if v.queen_killed else _u(*ctx.destroyed.needs))
    if name == "nest_destroyed":
        empty = _k(v.eggs_in_nest == 0) if v.eggs_in_nest is not None else _u("eggs in nest")
        return _any([empty, ctx.destroyed]) if ctx.settings.base_destroyed_destroys_nest else empty
    if name == "stalkers_survive_ending":
        if not ctx.settings.timeout_fails_stalker_objectives:
            return _k(False)
        if v.ending in ("base_destroyed", "abandoned"):
            return _k(False)
        return _not(ctx.destroyed)
    val = getattr(v, name)
    if val is None:
        return _u(name.replace("_", " "))
    return _k(val)


def _arg(ctx: _Ctx, i: int) -> Tri:
    # a missing optional argument is a plain None (not an unknown): the rule decides what it means
    return Tri(ctx.args[i] if i < len(ctx.args) else None, ())


def _eval(rule: object, ctx: _Ctx, cur: _Seat | None = None) -> Tri:
    if isinstance(rule, (int, str, bool)) or rule is None:
        return _k(rule)
    assert isinstance(rule, Mapping), rule
    (op, arg), = rule.items()
    if op == "arg":
        return _arg(ctx, int(arg))
    if op == "self":
        return _seat_field(ctx.me, arg)
    if op == "seat":
        assert cur is not None, "'seat' outside every_seat"
        return _seat_field(cur, arg)
    if op == "game":
        return _game_field(ctx, arg)
    if op == "not":
        return _not(_eval(arg, ctx, cur))
    if op == "all":
        return _all([_eval(r, ctx, cur) for r in arg])
    if op == "any":
        return _any([_eval(r, ctx, cur) for r in arg])
    if op in ("eq", "ge", "le"):
        a, b = (_eval(x, ctx, cur) for x in arg)
        if a.value is None or b.value is None:
            return _u(*a.needs, *b.needs)
        return _k({"eq": a.value == b.value, "ge": a.value >= b.value, "le": a.value <= b.value}[op])
    if op == "has_item":
        items = ctx.me.view.items
        if items is None:
            return _u(f"the items held by {ctx.me.name}")
        want = str(_eval(arg, ctx, cur).value).casefold()
        return _k(any(str(i).casefold() == want for i in items))
    if op == "every_seat":
        where, test = arg["where"], arg["test"]
        results = []
        for s in ctx.seats.values():
            sel = _selected(where, s, ctx)
            if sel.value is False:
                continue
            t = _eval(test, ctx, s)
            results.append(t if sel.value is True else _any([_not(sel), t]))
        return _all(results)
    if op == "sector_explored":
        sector = _eval(arg, ctx, cur).value
        m = ctx.view.sectors_explored
        key = _sector_key(sector)
        if m is None or m.get(key) is None:
            return _u(f"whether every room of sector {key} was explored")
        return _k(bool(m[key]))
    if op == "weakness_discovered":
        target = _eval(arg, ctx, cur).value
        ws = ctx.view.weaknesses
        if ws is None:
            return _u("which weaknesses were discovered")
        if target is None:  # at least one beyond the first, face-up one (lockdown_cz.md §5.1)
            return _any([_k(w.discovered) if w.discovered is not None else _u(f"whether weakness slot {w.slot} was discovered")
                         for w in ws if w.slot != 1 or not ctx.view.first_weakness_face_up])
        if isinstance(target, int) or str(target).isdigit():
            found = [w for w in ws if w.slot == int(target)]
        else:
            found = [w for w in ws if w.card is not None and w.card.casefold() == str(target).casefold()]
            if not found and any(w.card is None for w in ws):
                return _u(f"which weakness cards lay on the laboratory board ({target})")
        if not found:
            return _k(False)
        w = found[0]
        return _k(w.discovered) if w.discovered is not None else _u(f"whether weakness {target} was discovered")
    raise ValueError(f"unknown rule operator {op!r}")


def _sector_key(sector: object) -> str:
    s = str(sector).upper().replace(" ", "")
    if s.isdigit():
        return f"S-{int(s):02d}"
    if s.startswith("S") and not s.startswith("S-"):
        return f"S-{int(s[1:]):02d}" if s[1:].isdigit() else s
    return s


def _selected(where: object, s: _Seat, ctx: _Ctx) -> Tri:
    if where == "others":
        return _k(s is not ctx.me)
    if where == "all":
        return _k(True)
    if where == "nemesis_survivors":
        v = _is_nemesis_survivor(s.view)
        return _k(v) if v is not None else _u(f"the character of {s.name}")
    if isinstance(where, Mapping) and "player" in where:
        x = _eval(where["player"], ctx).value
        numbered = any(t.view.player_number is not None for t in ctx.seats.values())
        number = s.view.player_number if numbered else s.view.seat
        return _k(number == x)
    raise ValueError(f"unknown seat selector {where!r}")


def _objective_options(sv: SeatView) -> list[str | None]:
    if sv.objective is not None:
        return [sv.objective]
    if sv.objectives_dealt:
        return list(dict.fromkeys(sv.objectives_dealt))
    return [None]


def _describe_objective(text: str) -> str:
    from service.rules.lockdown.catalog import objective_types, parse_objective

    kind, args = parse_objective(text)
    t = objective_types().get(kind)
    name = t["en"] if t else kind
    if args:
        name = f"{name} [{', '.join(str(a) for a in args)}]"
    return f"'{name}'"


def _objective_met(text: str | None, seat: _Seat, ctx: _Ctx) -> Tri:
    from service.rules.lockdown.catalog import objective_types, parse_objective

    if text is None:
        return _u(f"the objective card of {seat.name}")
    kind, args = parse_objective(text)
    t = objective_types().get(kind)
    if t is None:
        return _u(f"a known objective type instead of {kind!r} ({seat.name})")
    if t["rule"] is None:
        return _u(f"the card text of objective {t['en']!r}")
    sub = _Ctx(ctx.view, ctx.seats, seat, args, ctx.settings, ctx.destroyed)
    return _eval(t["rule"], sub)


# --------------------------------------------------------------------------------------------
# the check
# --------------------------------------------------------------------------------------------


def candidate_plans(view: ScoringView) -> tuple[str, ...]:
    """The plans the active token can still be: the revealed one, or by elimination (L1543–1546)."""
    from service.rules.lockdown.catalog import plan_copies, resolve_plan

    if view.active_contingency is not None:
        return (resolve_plan(view.active_contingency),)
    left = dict(plan_copies())
    known = [t for t in (view.neutral_pool or ()) if t is not None]
    for s in view.seats:
        known.extend(t for t in (s.contingency_tokens or ()) if t is not None)
    for t in known:
        p = resolve_plan(t)
        if left.get(p, 0) <= 0:  # inconsistent record: deduce nothing
            return tuple(plan_copies())
        left[p] -= 1
    return tuple(p for p, n in left.items() if n > 0)


def _run(view: ScoringView, plan: str, settings: ScoringSettings) -> dict[int, tuple[str, PlayerResult, tuple[str, ...]]]:
    """One complete check assuming ``plan`` is active: seat → (outcome, result, needs)."""
    destroyed = _base_destroyed(view, settings)
    seats = {sv.seat: _Seat(view=sv, name=_label(sv)) for sv in view.seats}
    for s in seats.values():
        _ending_effects(s, destroyed, settings)
    anyone = _any([s.alive for s in seats.values()]) if seats else _k(False)
    if anyone.value is False:
        out = {}
        for n, s in seats.items():
            out[n] = ("lost", PlayerResult(n, "lost", tuple(s.reasons + ["nobody survived the end of the game"]),
                                           survival=s.route, death_cause=s.death_cause,
                                           objective=s.view.objective), ())
        return out
    for s in seats.values():
        _contingency(s, plan, settings)
    for s in seats.values():
        _final_scan(s)
    ctx = _Ctx(view, seats, next(iter(seats.values())), (), settings, destroyed)
    if view.mode == "coop":
        return _coop(view, seats, ctx)
    if view.mode == "solo":
        return _solo(view, seats, ctx)
    return _standard(seats, ctx)


def _standard(seats: dict[int, _Seat], ctx: _Ctx) -> dict:
    """Each seat on its own: alive after steps 0–2 and its kept objective met (L1646–1699)."""
    out = {}
    for n, s in seats.items():
        reasons = list(s.reasons)
        needs: tuple[str, ...] = ()
        if s.alive.value is False:
            outcome = "lost"
        else:
            results = [(o, _objective_met(o, s, ctx)) for o in _objective_options(s.view)]
            values = {r.value for _, r in results}
            if len(results) == 1:
                objective = results[0][1]
            elif values == {True} or values == {False}:
                objective = results[0][1]
            else:
                objective = _u(f"the objective {s.name} kept", *(n2 for _, r in results for n2 in r.needs))
            chosen = s.view.objective or (results[0][0] if len(results) == 1 else None)
            if objective.value is True:
                reasons.append(f"objective {_describe_objective(chosen)} met" if chosen
                               else "objective met (every dealt objective is met)")
            elif objective.value is False:
                reasons.append(f"objective {_describe_objective(chosen)} not met" if chosen
                               else "objective not met (no dealt objective is met)")
            verdict = _all([s.alive, objective])
            outcome = {True: "won", False: "lost", None: "undetermined"}[verdict.value]
            if outcome == "undetermined":
                needs = verdict.needs
                reasons.append("needs " + "; ".join(needs))
        out[n] = (outcome, PlayerResult(n, outcome, tuple(reasons), survival=s.route,
                                        death_cause=None if s.alive.value is True else s.death_cause,
                                        objective=s.view.objective), needs)
    return out


def not_solo_coop_card(text: str | None) -> str | None:
    """The objective type if ``text`` is a card of the standard decks only (``semi_coop_only``)."""
    from service.rules.lockdown.catalog import objective_types, parse_objective

    if text is None:
        return None
    kind, _ = parse_objective(text)
    t = objective_types().get(kind)
    return kind if t is not None and t.get("semi_coop_only") else None


def _solo(view: ScoringView, seats: dict[int, _Seat], ctx: _Ctx) -> dict:
    """Solo (seed 000 L4495–4512): "Aby wygrać, musisz zrealizować swój cel i przeżyć" (L4512).

    Exactly 1 player (the mode is for "w pojedynkę", L4496–4497); the objective is one of the 2
    "Solo/Koop" cards dealt instead of the standard decks (L4499–4500), kept at the first encounter
    (L4505–4506). Survival is the standard one: steps 0–2 of the check (end effects, contingency
    plan — the solo player holds 2 tokens, L4501–4503 — and the final scan). A card of the standard
    decks that targets other players (``semi_coop_only``) cannot be a solo objective: undetermined.
    """
    (n, s), = seats.items()  # victory_check refuses a solo view with another seat count
    options = _objective_options(s.view)
    wrong = [k for k in (not_solo_coop_card(o) for o in options) if k]
    if wrong and s.alive.value is not False:
        need = (f"a Solo/Co-op objective card: {', '.join(dict.fromkeys(wrong))} is a card of the standard decks "
                f"(solo deals 2 \"Solo/Koop\" cards, seed 000 L4499–4500)")
        reasons = s.reasons + ["needs " + need]
        return {n: ("undetermined", PlayerResult(n, "undetermined", tuple(reasons), survival=s.route,
                                                 death_cause=None, objective=s.view.objective), (need,))}
    outcome, result, needs = _standard(seats, ctx)[n]
    rule = "solo: to win, fulfil your objective and survive (seed 000 L4512)"
    return {n: (outcome, PlayerResult(n, outcome, result.reasons + (rule,), survival=result.survival,
                                      death_cause=result.death_cause, objective=result.objective), needs)}


def _coop(view: ScoringView, seats: dict[int, _Seat], ctx: _Ctx) -> dict:
    """Full co-op (L4525–4535): every objective met by a character alive after the checks, and ≥1 survivor."""
    from itertools import permutations

    from service.rules.lockdown.catalog import objective_types, parse_objective

    cards = [c for s in seats.values() for c in (s.view.objectives_dealt or ((s.view.objective,) if s.view.objective else (None,)))]
    team: list[str] = []
    verdicts: list[Tri] = [_any([s.alive for s in seats.values()])]
    distinct_cards: list[list[Tri]] = []
    for card in cards:
        if card is None:
            verdicts.append(_u("an objective card of the co-op game"))
            continue
        kind, _ = parse_objective(card)
        t = objective_types().get(kind)
        if not_solo_coop_card(card):
            verdicts.append(_u(f"a Solo/Co-op objective card: {kind} is a card of the standard decks "
                               f"(co-op deals 1 \"Solo/Koop\" card per player, seed 000 L4524–4526)"))
            team.append(f"objective {_describe_objective(card)} is not a Solo/Co-op card")
            continue
        # who fulfils it: a character alive after the checks
        per_seat = [_all([s.alive, _objective_met(card, s, ctx)]) for s in seats.values()]
        if t is not None and t.get("coop_distinct"):
            distinct_cards.append(per_seat)
            team.append(f"objective {_describe_objective(card)} needs its own sender")
            continue
        met = _any(per_seat)
        verdicts.append(met)
        team.append(f"objective {_describe_objective(card)} "
                    + {True: "met", False: "not met", None: "undetermined"}[met.value])
    if distinct_cards:  # "as many senders as signal cards" (L4534–4535)
        n = len(distinct_cards)
        seat_count = len(seats)
        best: Tri = _k(False)
        options = []
        for perm in permutations(range(seat_count), n) if seat_count >= n else []:
            options.append(_all([distinct_cards[i][j] for i, j in enumerate(perm)]))
        best = _any(options) if options else _k(False)
        verdicts.append(best)
        team.append(f"{n} signal objective(s) " + {True: "met", False: "not met", None: "undetermined"}[best.value])
    verdict = _all(verdicts)
    outcome = {True: "won", False: "lost", None: "undetermined"}[verdict.value]
    if verdicts[0].value is False:
        team.append("no character survived")
    out = {}
    for n, s in seats.items():
        reasons = s.reasons + team + (["needs " + "; ".join(verdict.needs)] if outcome == "undetermined" else [])
        out[n] = (outcome, PlayerResult(n, outcome, tuple(reasons), survival=s.route,
                                        death_cause=None if s.alive.value is True else s.death_cause,
                                        objective=s.view.objective), verdict.needs)
    return out


def victory_check(view: ScoringView, settings: ScoringSettings = DEFAULT) -> Result:
    """The verdict for every seat, in the rulebook's order (lockdown.md §11.8; docs/scoring.md).

    End effects (§11.5) → contingency plan (step 1) → final scan (step 2) → objective (step 3).
    An unrevealed active plan is tried for every plan it can still be; the outcome is decided
    when all agree, else undetermined with "needs the active contingency token".
    """
    if view.ending == "abandoned":
        return Result(ending=view.ending, players=tuple(
            PlayerResult(s.seat, "undetermined", ("the game was abandoned: no victory check",),
                         objective=s.objective) for s in view.seats))
    if view.ending == "incomplete":
        return _incomplete(view, settings)
    if view.mode == "solo" and len(view.seats) != 1:
        need = f"exactly 1 seat in a solo game (seed 000 L4496–4497), not {len(view.seats)}"
        return Result(ending=view.ending, players=tuple(
            PlayerResult(s.seat, "undetermined", ("needs " + need,), objective=s.objective) for s in view.seats))
    candidates = candidate_plans(view)
    runs = {p: _run(view, p, settings) for p in candidates}
    players = []
    for sv in view.seats:
        per = {p: runs[p][sv.seat] for p in candidates}
        outcomes = {o for o, _, _ in per.values()}
        first = per[candidates[0]][1]
        if len(candidates) == 1 or len(outcomes) == 1:
            if len(candidates) > 1 and first.outcome != "undetermined":
                first = PlayerResult(first.seat, first.outcome,
                                     first.reasons + (f"the active contingency plan is not revealed; the outcome is the same for every plan it can be ({', '.join(candidates)})",),
                                     first.survival, first.death_cause if len({r.death_cause for _, r, _ in per.values()}) == 1 else None,
                                     first.objective)
            players.append(first)
            continue
        detail = "; ".join(f"{p}: {o}" + (f" (needs {'; '.join(n)})" if o == "undetermined" and n else "")
                           for p, (o, _, n) in per.items())
        players.append(PlayerResult(sv.seat, "undetermined",
                                    (f"needs the active contingency token ({detail})",),
                                    survival=first.survival, death_cause=None, objective=sv.objective))
    return Result(ending=view.ending, players=tuple(players))


def _incomplete(view: ScoringView, settings: ScoringSettings) -> Result:
    """The record stops before the end: known deaths and escapes stand; a verdict is given only when every
    ending the game could have had gives it (docs/decisions/0018)."""
    from dataclasses import replace as copy

    still_in = any(sv.alive is None for sv in view.seats)
    endings = tuple(e for e in REAL_ENDINGS if e != "no_characters_left" or not still_in)
    runs = {e: victory_check(copy(view, ending=e), settings) for e in endings}
    players = []
    for i, sv in enumerate(view.seats):
        per = {e: r.players[i] for e, r in runs.items()}
        first = next(iter(per.values()))
        if len({p.outcome for p in per.values()}) == 1 and first.outcome != "undetermined":
            players.append(PlayerResult(sv.seat, first.outcome, first.reasons + (
                "the record is incomplete; the outcome is the same however the game ended",),
                first.survival, first.death_cause, first.objective))
            continue
        needs = sorted({r.split("needs ", 1)[1] for p in per.values() for r in p.reasons if r.startswith("needs ")})
        detail = "; ".join(f"{e.replace('_', ' ')}: {p.outcome}" for e, p in per.items())
        reasons = [r for r in first.reasons if not r.startswith("needs ")]
        differ = len({p.outcome for p in per.values()}) > 1
        reasons.append("the record is incomplete: needs " + "; ".join(
            ([f"how the game ended ({detail})"] if differ else []) + needs or ["how the game ended"]))
        players.append(PlayerResult(sv.seat, "undetermined", tuple(reasons), first.survival,
                                    first.death_cause if sv.alive is False else None, sv.objective))
    return Result(ending="incomplete", players=tuple(players))
