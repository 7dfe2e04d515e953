"""The Lockdown ruleset: the pure interface of ``service.rules.base.Ruleset``.

    >>> from service.rules.base import Seat, Setup
    >>> state = LOCKDOWN.initial_state(Setup(players=(Seat(1, "Ann"), Seat(2, "Ben"))))
    >>> LOCKDOWN.position(state)["step"]
    'board'
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from service.rules.base import (
    Consequence, Expected, Fact, Group, Moment, Result, Ruleset, Setup, StepStatistics, Violation,
)
from service.rules.lockdown import names as _names
from service.rules.lockdown import (
    apply as _apply, checks, inputs, items as _items, masking, sidebar as _sidebar, state as _state, story, svg, unknowns, view,
    warrants,
)
from service.rules.lockdown import corridors as _corridors, result_words, statistics as _statistics
from service.rules.lockdown.components import BOARDS, EVENT_CARDS, board as _board
from service.rules.lockdown.fact_types import FACT_TYPES
from service.rules.lockdown.facts import KINDS, SHAPE as _shape, shape_and_unknowns  # noqa: F401
from service.rules.replay import fold


class LockdownRuleset(Ruleset):
    name = "lockdown"
    title = "Nemesis: Lockdown"
    modes = _state.MODES
    drawing_styles = (svg.STYLE,)
    # warrants (decision 0039): checked in every game created from now on, never in one stored before
    new_game_options = MappingProxyType({warrants.OPTION: warrants.REQUIRED})
    legacy_options = MappingProxyType({warrants.OPTION: warrants.UNCHECKED})

    def setup_form(self) -> dict[str, Any]:
        return {"max_players": _state.MAX_PLAYERS, "options": {
            key: {"title": title, "choices": choices} for key, (title, choices) in _state.SETUP_FORM_OPTIONS.items()}}

    def initial_state(self, setup: Setup) -> _state.LockdownState:
        return _state.initial_state(setup)

    def next_inputs(self, state: _state.LockdownState) -> list[Expected]:
        return warrants.offers(state, inputs.next_inputs(state))  # a cause to name where needed (decision 0039)

    def check(self, state: _state.LockdownState, fact: Fact) -> list[Violation]:
        return checks.check(state, fact)

    def apply(self, state: _state.LockdownState, fact: Fact) -> tuple[_state.LockdownState, list[Consequence]]:
        return _apply.apply(state, fact)

    def checked_apply(self, state: _state.LockdownState,
                      fact: Fact) -> tuple[list[Violation], _state.LockdownState, list[Consequence]]:
        # the shape check and the unknown fields, done once for both (check and apply each do them on their own),
        # in one pass over the fact's data
        shape, unknown = _shape[fact.type](state, fact, state.seats)  # facts.shape_and_unknowns, inlined
        if shape:
            return shape, state, []
        violations = checks.check_shaped(state, fact, unknown)
        after, consequences = _apply.apply_shaped(state, fact, unknown)
        return violations, after, consequences

    def score(self, state: _state.LockdownState) -> Result | None:
        return view.score(state)

    def describe(self, state: _state.LockdownState) -> dict[str, Any]:
        return view.describe(state)

    def position(self, state: _state.LockdownState) -> dict[str, Any]:
        return view.position(state)

    def draw(self, state: _state.LockdownState, *, before: _state.LockdownState | None = None,
             learned: Callable[[str], Iterable[Mapping[str, Any]]] | None = None, narrow: bool = False,
             styled: bool = True) -> str:
        return svg.board(state, before=before, learned=learned, narrow=narrow, styled=styled)

    # --- the vocabulary --------------------------------------------------------------------

    facts = MappingProxyType({t: ft.spec for t, ft in FACT_TYPES.items()})  # asserted complete at import
    field_kinds = KINDS

    # --- boards and learned corridors -------------------------------------------------------

    boards = BOARDS

    def board_about(self, board: str) -> dict[str, Any] | None:
        if board not in BOARDS:
            return None
        b = _board(board)
        return {"id": b.id, "name": b.en, "synthetic": b.synthetic, "corridors_declared": b.has_graph}

    def observe_corridor(self, before: _state.LockdownState, fact: Fact | None,
                         after: _state.LockdownState) -> _corridors.Observation | None:
        return _corridors.observe(before, fact, after)

    def learned_corridors(self, replay: Any) -> list[_corridors.Observation]:
        return list(_corridors.observations(_corridors.replay_steps(replay)))

    def corridor_fragment(self, board: str, proposals: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        return _corridors.board_fragment(board, proposals)

    # --- the result's words ------------------------------------------------------------------

    result_words = {"death_cause": result_words.DEATH_CAUSES, "route": result_words.ROUTES}

    def escape_route(self, survival: str | None, state: _state.LockdownState, seat: int) -> str | None:
        # the flat reading form (decision 0042): the read side passes what it kept of a state, not a LockdownState
        return result_words.escape_route(survival, state.characters.get(seat))

    # --- statistics (decision 0040) ----------------------------------------------------------------

    state_type = _state.LockdownState

    def step_statistics(self, before: _state.LockdownState, fact: Fact, after: _state.LockdownState,
                        consequences: Iterable[Consequence] = ()) -> StepStatistics:
        return _statistics.step(before, fact, after, consequences)

    def final_statistics(self, state: _state.LockdownState) -> dict[str, Any]:
        return _statistics.final(state)

    # --- the replay as a story -------------------------------------------------------------

    def narrate(self, before: _state.LockdownState, fact: Fact, after: _state.LockdownState) -> str:
        return story.narrate(before, fact, after)

    def details(self, state: _state.LockdownState, fact: Fact | None, consequences: tuple[Consequence, ...]) -> list[str]:
        return story.details(state, fact, consequences)

    def moments(self, before: _state.LockdownState, fact: Fact | None, after: _state.LockdownState,
                consequences: tuple[Consequence, ...] = ()) -> list[Moment]:
        return story.moments(before, fact, after, consequences)

    def ending_story(self, state: _state.LockdownState) -> str:
        return story.ending_story(state)

    def sidebar(self, state: _state.LockdownState) -> dict[str, Any]:
        return _sidebar.sidebar(state)

    def verdicts(self, result: Result, state: _state.LockdownState | None = None) -> list[dict[str, Any]]:
        return _sidebar.verdicts(result, state)

    def mask(self, setup: Setup, fact: Fact, as_: str) -> Fact:
        return masking.mask(setup, fact, as_)

    def revealed(self, all_state: _state.LockdownState, seen_state: _state.LockdownState, as_: str) -> list[Fact]:
        return masking.revealed(all_state, seen_state, as_)

    def unknown_kinds(self) -> frozenset[str]:
        return unknowns.UNKNOWN_KINDS

    def coarse_inputs(self, state: _state.LockdownState) -> list[Expected]:
        out = list(unknowns.coarse_inputs(state))
        if not state.end.ended:
            out.append(Expected("GameEnded", None, {"ending": ["incomplete"], "note": None},
                                "the record stops here: what followed is not known (known deaths and escapes stay "
                                "in the result; statistics count the game as incomplete)"))
        return out

    def round_procedure(self, state: _state.LockdownState) -> list[dict[str, Any]]:
        return inputs.round_procedure(state)

    def implied(self, kind: str, value: Any) -> dict[str, Any]:
        card = EVENT_CARDS.resolve(value) if kind == "event_card" and isinstance(value, str) else None
        return {"corridors": list(card.corridors)} if card is not None and card.corridors else {}

    def effect_groups(self, state: _state.LockdownState) -> list[Group]:
        from service.rules.lockdown.inputs_play import effect_groups
        return effect_groups(state)

    def causes(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        return warrants.known_causes()

    def deck_cards(self, deck: str) -> tuple[str, ...]:
        return _items.deck_cards(deck)

    def display_name(self, kind: str, value: Any, locale: str = "en") -> str | None:
        return _names.display_name(kind, value, locale)

    def names(self, kind: str, value: Any) -> tuple[str, ...]:
        return _names.names(kind, value)

    def perspective_view(self, setup: Setup, facts: list[Fact], as_: str) -> _state.LockdownState:
        """The state after ``facts`` as ``as_`` knew it (for the board drawing)."""
        return fold(self, setup, list(facts), True, as_=as_).head.state


LOCKDOWN = LockdownRuleset()
