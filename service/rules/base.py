"""The interface every ruleset implements, and the plain data it speaks.

A ruleset is pure: state in, state out. Randomness comes from the table, so dice
results and drawn cards arrive as facts; the ruleset never rolls or shuffles.

    >>> from service.rules import get_ruleset
    >>> lockdown = get_ruleset("lockdown")

The interface (modelled on python-chess's board/legal_moves/push):

- ``initial_state(setup)``  the state before the first fact.
- ``next_inputs(state)``    what may be recorded next, with legal options.
- ``check(state, fact)``    rule violations of ``fact`` in ``state`` (empty when legal).
- ``apply(state, fact)``    the new state and the consequences the rules derive.
- ``score(state)``          the final result per player once the game has ended, else None.
- ``describe(state)``       a JSON-shaped, human-oriented view of the state for replays.
- ``position(state)``       where the game stands: round, phase, step, who acts, finished.
- ``draw(state, before=…, learned=…, narrow=…)``  the board as an SVG document, or None without a drawing.

Replays also ask (with plain defaults here, so a new ruleset works before it tells stories):

- ``narrate(before, fact, after)``          one sentence for a fact.
- ``details(state, fact, cons)``           its consequences as sub-lines.
- ``moments(before, fact, after, cons)``    the turning points of a step.
- ``ending_story(state)``                   how the game ended.
- ``sidebar(state)``, ``verdicts(result)``   the compact state and the explained verdicts.
- ``perspectives(setup)``                   who a replay can be seen as (``all``, ``public``, ``seatN``).
- ``mask(setup, fact, as_)``                the fact as that perspective saw it when it happened.
- ``revealed(all_state, seen_state, as_)``  facts the perspective learns at the end (the victory check).
- ``display_name(kind, id, locale)``        a component's printed name in a language (decision 0019).
- ``names(kind, id)``                       every name a component goes by, for searches in either language.

Boards (pages and the corridor view ask the ruleset, never its modules):

- ``boards``, ``board_about(id)``           the boards the ruleset knows, and what a page says of one.
- ``observe_corridor(before, fact, after)`` what a move showed of a board's corridors; ``learned_corridors(replay)``.
- ``corridor_fragment(id, proposals)``      learned corridors in the board file's format.

Statistics (the "stats" view asks the ruleset, never its state; decision 0040):

- ``step_statistics(before, fact, after, cons)``  what a step showed (deaths, wounds, attacks, hits, kills, power)
  as a :class:`StepStatistics`; ``state_type`` tells which ruleset a folded state belongs to.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, NamedTuple


@dataclass(frozen=True)
class Seat:
    """A player at the table: seat number (1-based, clockwise) and display name."""

    seat: int
    name: str


@dataclass(frozen=True)
class Setup:
    """What the game header says before any fact: ruleset options and the players."""

    players: tuple[Seat, ...]
    mode: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Fact:
    """One thing that happened at the table.

    ``type`` is a stable, past-tense name (``CharacterMoved``); ``data`` is a JSON
    object; ``actor`` is the acting seat or None for the table/game itself.
    """

    seq: int
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    actor: int | None = None
    visibility: str = "public"


@dataclass(frozen=True)
class Violation:
    """A reason a fact is not legal here.

    ``shape`` violations (unknown type, missing or malformed field) are refused in
    every game because the fact cannot be applied at all; other violations are
    refused in strict games and stored with a flag in lenient games.
    """

    rule: str
    message: str
    section: str = ""
    field: str | None = None
    shape: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "message": self.message,
            "section": self.section,
            "field": self.field,
            "shape": self.shape,
        }


@dataclass(frozen=True)
class Consequence:
    """Something the rules derive from a fact (shown as a sub-step in replays)."""

    type: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text, "data": dict(self.data)}


@dataclass(frozen=True)
class Moment:
    """A turning point of a game (a death, an escape, the end …) that a replay lists as a chapter.

    ``kind`` is a stable word the viewer styles (``death``, ``kill``, ``escape``, ``power``,
    ``self_destruct``, ``alarm``, ``gate``, ``encounter``, ``contingency``, ``objective``, ``end``).
    """

    kind: str
    text: str
    seat: int | None = None


@dataclass(frozen=True)
class Expected:
    """One kind of fact that may come next.

    ``options`` maps a data field to its legal values (a list), or to None when the
    value is free (e.g. a corridor number on a board without a corridor graph).

    ``default`` (optional) maps a field to the value the rules themselves give it when the table has
    nothing else to say (e.g. the noise markers the clean-up removes): a recorder preselects it, and a
    fact whose every field is fixed or defaulted may be recorded without asking. Rulesets that do not
    know leave it empty; ``as_dict`` shows it only when set, so the older form is unchanged.
    """

    type: str
    actor: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    default: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out = {"type": self.type, "actor": self.actor, "options": dict(self.options), "note": self.note}
        if self.default:
            out["default"] = dict(self.default)
        return out


@dataclass(frozen=True)
class Group:
    """Facts the table resolves together, every value given: a recorder records them with one tap, in order and
    in one command (all or nothing).

    A card's printed pair ("1 serious wound + 1 contamination card") is a group of two facts; one legal
    outcome of a short choice ("the fire in the Laboratory is put out") is a group of one. ``facts`` hold
    ``seq`` 0 (the store numbers them); ``note`` says where the group comes from.
    """

    facts: tuple[Fact, ...]
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"facts": [{"type": f.type, "actor": f.actor, "data": dict(f.data)} for f in self.facts],
                "note": self.note}


@dataclass(frozen=True)
class PlayerResult:
    """The victory check's verdict for one seat: ``won``, ``lost`` or ``undetermined``."""

    seat: int
    outcome: str
    reasons: tuple[str, ...] = ()
    survival: str | None = None
    death_cause: str | None = None
    objective: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "outcome": self.outcome,
            "reasons": list(self.reasons),
            "survival": self.survival,
            "death_cause": self.death_cause,
            "objective": self.objective,
        }


@dataclass(frozen=True)
class Result:
    """The final result of a game: one verdict per seat, plus how the game ended."""

    ending: str
    players: tuple[PlayerResult, ...]
    effects: str | None = None
    """The end-of-game effects that were applied, when a ruleset tells them apart from ``ending`` (Lockdown:
    ``time_out``, ``alarm_procedure`` or ``base_destroyed`` — e.g. a ``no_characters_left`` ending resolved as a
    time-out); None when none were (an abandoned or incomplete record)."""

    def as_dict(self) -> dict[str, Any]:
        return {"ending": self.ending, "effects": self.effects, "players": [p.as_dict() for p in self.players]}


class StatHit(NamedTuple):
    """A character hit an intruder (a shot, a melee attack): the last hitter is credited with its kill."""

    target: str  # the intruder's id in the game
    seat: int | None
    weapon: str | None  # the weapon's name, or ``"melee"``


class StatWound(NamedTuple):
    seat: int
    count: int  # wounds suffered in the step
    room: str | None  # the room as statistics name it (comparable across games), None when unknown


class StatDeath(NamedTuple):
    seat: int
    room: str | None
    cause: str | None  # one of ``result_words["death_cause"]``
    killer: str | None  # the kind of intruder attacking in that step (the player's "nemesis"), if any


class StatKill(NamedTuple):
    target: str  # the intruder's id: its last :class:`StatHit` names the killer and weapon
    kind: str
    room: str | None


@dataclass(frozen=True)
class StepStatistics:
    """What one step of a game tells the statistics, in words no ruleset owns (decision 0040).

    ``round``: the round of the step (of deaths, kills). ``attacks``: the room of each attack on a character.
    ``power_lost``: the round, when the step cut a sector's power during play (never the setup's unpowered
    sectors); ``blackout``: the round, when the step left no sector with power.
    """

    round: int | None = None
    hits: tuple[StatHit, ...] = ()
    attacks: tuple[str | None, ...] = ()
    wounds: tuple[StatWound, ...] = ()
    deaths: tuple[StatDeath, ...] = ()
    kills: tuple[StatKill, ...] = ()
    power_lost: int | None = None
    blackout: int | None = None


class Ruleset(ABC):
    """The rules of one game. Implementations hold no mutable state."""

    name: str
    title: str
    modes: tuple[str, ...]
    #: the exact texts of the ``<style>`` elements ``draw`` puts in its SVG (pages admit them by hash)
    drawing_styles: tuple[str, ...] = ()
    #: setup options the store writes into every game it creates, unless the header gives them: a default that
    #: may change later stays the one the game was recorded under (decision 0039)
    new_game_options: Mapping[str, Any] = {}
    #: setup options a stored game that lacks them is read with: what the ruleset did before the option existed,
    #: so a game stored then folds as it did (decision 0039)
    legacy_options: Mapping[str, Any] = {}

    @abstractmethod
    def initial_state(self, setup: Setup) -> Any: ...

    @abstractmethod
    def next_inputs(self, state: Any) -> list[Expected]: ...

    @abstractmethod
    def check(self, state: Any, fact: Fact) -> list[Violation]: ...

    @abstractmethod
    def apply(self, state: Any, fact: Fact) -> tuple[Any, list[Consequence]]: ...

    def checked_apply(self, state: Any, fact: Fact) -> tuple[list[Violation], Any, list[Consequence]]:
        """``check`` then, unless a violation is a shape one, ``apply``: the violations, the state after the
        fact (``state`` itself when it cannot be applied) and the consequences (none then). What a fold does
        with every fact; a ruleset may answer it faster than the two calls (sharing the work they both do),
        never differently."""
        violations = self.check(state, fact)
        if any(v.shape for v in violations):
            return violations, state, []
        after, consequences = self.apply(state, fact)
        return violations, after, consequences

    @abstractmethod
    def score(self, state: Any) -> Result | None: ...

    @abstractmethod
    def describe(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def position(self, state: Any) -> dict[str, Any]:
        """``{"round": int, "phase": str, "step": str, "acting": seat|None, "finished": bool}``."""

    def draw(self, state: Any, *, before: Any = None,
             learned: Callable[[str], Iterable[Mapping[str, Any]]] | None = None,
             narrow: bool = False, styled: bool = True) -> str | None:
        """The board of ``state`` as a standalone SVG document; None when the ruleset draws no board.

        ``before`` is the state one step earlier: what changed since is highlighted. ``learned``
        looks up, by board id, the corridors learned from recorded moves (rows with ``from_place``,
        ``to_place``, ``corridor``; decision 0005); the rules cannot query a database themselves.
        ``narrow`` asks for a layout for a phone-wide screen (taller, larger print).
        ``styled=False`` leaves out the ``<style>`` elements (the texts of ``drawing_styles``): a
        page that shows many drawings links those texts once as a stylesheet instead.
        """
        return None

    # --- the vocabulary (the contract tests, tests/unit/test_ruleset_contract.py) ---------------------

    #: every fact type the ruleset knows, by name (``service.rules.kit.facts.FactSpec``), and a shape checker per
    #: field kind its specs name
    facts: Mapping[str, Any] = {}
    field_kinds: Mapping[str, Callable[[Any, Any], Any]] = {}


    # --- boards and what recorded moves teach about them (decision 0005; pages ask here, never a ruleset's modules) ---

    #: the ids of the boards this ruleset knows (its board files)
    boards: tuple[str, ...] = ()

    def board_about(self, board: str) -> dict[str, Any] | None:
        """``{"id", "name", "synthetic", "corridors_declared"}`` of one of ``boards``; None for another id."""
        return None

    def observe_corridor(self, before: Any, fact: Fact | None, after: Any) -> Any | None:
        """What ``fact`` showed of a board's corridors (an object with ``as_dict()``: ``board``, ``from_place``,
        ``to_place``, ``corridor``, ``mover``, ``seq``), or None; a ruleset without corridors learns nothing."""
        return None

    def learned_corridors(self, replay: Any) -> list[Any]:
        """Every corridor observation of a folded game (a :class:`service.rules.replay.Replay`), in order."""
        steps = replay.steps
        found = (self.observe_corridor(prev.state, step.fact, step.state) for prev, step in zip(steps, steps[1:])
                 if step.fact is not None and not any(v.shape for v in step.violations))
        return [o for o in found if o is not None]

    def corridor_fragment(self, board: str, proposals: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
        """Learned corridors (``from_place``, ``to_place``, ``corridor``) in the board file's format; None when
        the ruleset's boards have no corridors."""
        return None

    # --- the result's words (statistics and pages print them) -----------------------------------------

    #: ``{"death_cause": {cause: words}, "route": {route: words}}``, words marked for gettext (``N_``)
    result_words: Mapping[str, Mapping[str, str]] = {}

    def escape_route(self, survival: str | None, state: Any, seat: int) -> str | None:
        """How seat's character left (or tried to leave) the game, from its verdict's ``survival`` and the final
        ``state``: one of ``result_words["route"]``, or None."""
        return None

    # --- statistics (decision 0040) -------------------------------------------------------------

    #: the class of this ruleset's states (``ruleset_of_state`` finds the ruleset of a folded state); None: unknown
    state_type: type | None = None

    def step_statistics(self, before: Any, fact: Fact, after: Any,
                        consequences: Iterable[Consequence] = ()) -> StepStatistics:
        """What the step from ``before`` to ``after`` by ``fact`` (with the consequences the rules derived)
        tells the statistics; a ruleset that counts nothing tells nothing (an empty :class:`StepStatistics`)."""
        return StepStatistics()

    def final_statistics(self, state: Any) -> dict[str, Any] | None:
        """What the statistics read of a game's last state beside its steps: ``round``, ``plan`` (the active
        contingency, or None) and ``seats``, each seat's ``character``, ``objective``, ``status`` and ``was``
        (its status before it left the game); None for a ruleset that counts nothing."""
        return None

    # --- the replay as a story (defaults: plain, secret-free) -----------------------------------

    def narrate(self, before: Any, fact: Fact, after: Any) -> str:
        return f"{fact.type}" + (f" by seat {fact.actor}" if fact.actor is not None else "") + "."

    def details(self, state: Any, fact: Fact | None, consequences: tuple[Consequence, ...]) -> list[str]:
        """The consequences of ``fact`` as sub-lines of its sentence."""
        return [c.text for c in consequences]

    def ending_story(self, state: Any) -> str:
        """How the game ended, in a few sentences (empty while it runs)."""
        return ""

    def sidebar(self, state: Any) -> dict[str, Any]:
        """A compact state for the replay's sidebar: ``{"characters": [...], "status": [(label, value)]}``."""
        return {"characters": [], "status": []}

    def verdicts(self, result: Result, state: Any = None) -> list[dict[str, Any]]:
        """Each player's verdict with its reasons grouped by the steps of the victory check."""
        return [{"seat": p.seat, "outcome": p.outcome, "steps": {"why": list(p.reasons)}} for p in result.players]

    def moments(self, before: Any, fact: Fact | None, after: Any, consequences: tuple[Consequence, ...] = ()) -> list[Moment]:
        return []

    def perspectives(self, setup: Setup) -> list[tuple[str, str]]:
        """``(key, label)`` pairs: ``all`` (every fact as recorded), ``public``, and one per seat."""
        return [("all", "All-seeing"), ("public", "Public")] + [(f"seat{p.seat}", p.name) for p in setup.players]

    def mask(self, setup: Setup, fact: Fact, as_: str) -> Fact:
        """``fact`` as the perspective ``as_`` saw it; a ruleset without secrets shows everything."""
        return fact

    def revealed(self, all_state: Any, seen_state: Any, as_: str) -> list[Fact]:
        return []

    # --- a new game's form ----------------------------------------------------------------------------

    def setup_form(self) -> dict[str, Any]:
        """What the new-game form asks of this ruleset: ``max_players``, and ``options``, each option's key
        with its title and its choices as ``(value, label)``, the first the default (titles and labels are
        English message ids the page translates). The form sends only options that differ from the default."""
        return {"max_players": 5, "options": {}}

    # --- what a recorder may offer beside next_inputs (decisions 0016, 0018) -----------------------

    def unknown_kinds(self) -> frozenset[str]:
        """Field kinds a lenient game may record as ``"unknown"``: table values nobody saw."""
        return frozenset()

    def coarse_inputs(self, state: Any) -> list[Expected]:
        """Facts of a record made after the fact: skip ahead, an outcome without its steps, an incomplete end."""
        return []

    def round_procedure(self, state: Any) -> list[dict[str, Any]]:
        """The round's table procedure at ``state``, step by step in rulebook order (``[]`` if none)."""
        return []

    def implied(self, kind: str, value: Any) -> dict[str, Any]:
        """Other fields a chosen value decides by itself (an event card's printed corridors)."""
        return {}

    def effect_groups(self, state: Any) -> list[Group]:
        """Table effects recorded with one tap each: facts a printed effect gives together, and the single
        outcomes of a short choice; each group legal at ``state`` in order (``[]`` if none)."""
        return []

    def causes(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """The named causes a fact's optional ``by`` may take (decision 0039), for a recorder's picker (decision
        0045): ``(prefix, kind, names)``, ``by`` being stored as ``"prefix:name"``; ``kind`` is the component kind
        :meth:`display_name` names them by; ``names`` as facts record them. Empty when the ruleset names none."""
        return ()

    def deck_cards(self, deck: str) -> tuple[str, ...]:
        """The cards known to be in deck ``deck`` (for Lockdown an item deck's colour: what a Search there may put
        back), the likeliest first, as facts record them; empty when none is known (decision 0045)."""
        return ()

    # --- names in the reader's language (decision 0019) -------------------------------------------

    def display_name(self, kind: str, value: Any, locale: str = "en") -> str | None:
        """The printed name of component ``value`` of ``kind`` (``room``, ``character``, ``item`` …) in
        ``locale``; None when the ruleset names no such component (callers then show the value)."""
        return None

    def names(self, kind: str, value: Any) -> tuple[str, ...]:
        """Every name the component goes by (each language's), so a search matches any of them."""
        return ()
