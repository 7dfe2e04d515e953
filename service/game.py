"""The Game aggregate: one event stream per physical game.

Stored event classes are few and their topics are part of the stored data
(``service.game:Game.Created``, ``service.game:Game.FactRecorded``): renaming or
moving them needs ``register_topic``. tests/integration/test_store.py pins them.

Every event carries ``chain``, the hash linking it to the game's previous event
(service/chain.py, decision 0009). Events stored before chains existed are class
version 1 and load with ``chain = None``: an unchained legacy prefix.
"""
from __future__ import annotations

import hashlib
import json
from collections import abc
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping
from uuid import UUID

from eventsourcing.domain import Aggregate, event
from eventsourcing.utils import get_topic

from service import chain as hash_chain
from service import hygiene
from service.errors import CommandIdReused, FactsRefused, InvalidInput, StalePosition
from service.rules import Fact, Seat, Setup, Violation, get_ruleset
from service.rules.registry import RULESETS
from service.rules.replay import ANNOTATION_TYPES, CORRECTION_TYPES, GENERIC_TYPES, check_annotation, check_correction, fold


@dataclass(frozen=True)
class RecordedFact:
    """A fact as stored: the table fact plus who recorded it, when, under which command."""

    fact: Fact
    round: int | None
    phase: str | None
    recorder: str | None
    recorded_at: str
    command_id: str | None
    flags: tuple[Mapping[str, Any], ...] = ()

    def __deepcopy__(self, memo):  # immutable: the aggregate cache may share it
        return self


class _Head:
    """The folded as-corrected state after the first ``upto`` facts, folded when first asked for.

    Deep copies share it, so the copy that folds it first folds it for the cached aggregate too;
    an aggregate that records or fast-forwards gets a holder of its own (``carried``). Loading a
    game therefore applies no rule at all: a replay that folds the game anyway hands its head
    state over (``Game.know_head``) instead of the game being folded twice (decision 0031).
    """

    __slots__ = ("folded",)

    def __init__(self, folded: tuple[int, Any] | None) -> None:
        self.folded = folded  # (upto, state) or None: nothing folded yet

    def carried(self) -> "_Head":
        return _Head(self.folded)

    def __deepcopy__(self, memo):
        return self


def command_digest(facts: list[Fact]) -> str:
    """What a command asked for, independent of where its facts landed."""
    body = [[f.type, f.actor, f.data, f.visibility] for f in facts]
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _unchained(state: dict) -> None:
    """Upcast an event stored before hash chains: it has no link (a legacy prefix)."""
    state[hash_chain.CHAIN_FIELD] = None


class Game(Aggregate):
    class Created(Aggregate.Created):
        class_version = 2
        upcast_v1_v2 = staticmethod(_unchained)

        game_id: UUID
        ruleset: str
        mode: str
        players: list
        strict: bool
        options: dict
        league: str | None
        tags: list
        played_on: str | None
        title: str | None
        chain: str | None

    class FactRecorded(Aggregate.Event):
        class_version = 2
        upcast_v1_v2 = staticmethod(_unchained)

        seq: int
        type: str
        data: dict
        actor: int | None
        visibility: str
        round: int | None
        phase: str | None
        recorder: str | None
        recorded_at: str
        command_id: str | None
        flags: list
        chain: str | None

    @staticmethod
    def create_id(game_id: UUID) -> UUID:
        return game_id

    # -- the hash chain: every event this aggregate triggers is linked to the one before --

    @classmethod
    def _create(cls, event_class, *, id=None, **kwargs):  # noqa: A002 - the library's name
        kwargs["timestamp"] = kwargs.get("timestamp") or event_class.create_timestamp()
        game_id = id if id is not None else cls.create_id(kwargs["game_id"])
        fields = {**kwargs, "originator_topic": get_topic(cls)}  # the library adds it to Created
        kwargs["chain"] = hash_chain.link(hash_chain.GENESIS, game_id, cls.INITIAL_VERSION, get_topic(event_class), fields)
        return super()._create(event_class, id=id, **kwargs)

    def trigger_event(self, event_class, **kwargs) -> None:
        kwargs["timestamp"] = kwargs.get("timestamp") or event_class.create_timestamp()
        previous = self.chain or hash_chain.GENESIS  # a legacy game's chain starts at its first new event
        kwargs["chain"] = hash_chain.link(previous, self.id, self.version + 1, get_topic(event_class), kwargs)
        super().trigger_event(event_class, **kwargs)

    @event(Created)
    def __init__(
        self,
        game_id: UUID,
        ruleset: str,
        mode: str,
        players: list,
        strict: bool,
        options: dict,
        league: str | None,
        tags: list,
        played_on: str | None,
        title: str | None,
        chain: str | None = None,
    ) -> None:
        self.chain = chain
        self.ruleset_name = ruleset
        self.mode = mode
        self.players = [dict(p) for p in players]
        self.strict = strict
        self.options = dict(options)
        self.league = league
        self.tags = list(tags)
        self.played_on = played_on
        self.title = title
        self.recorded: list[RecordedFact] = []
        self.commands: dict[str, dict[str, int]] = {}
        self._head = _Head(None)

    def __deepcopy__(self, memo):
        """The aggregate cache hands out copies; only containers need copying.

        Recorded facts, the folded head and the setup are immutable, so a copy shares them
        instead of walking every fact (a deep copy grew with the game: 2.5 ms at 540 facts).
        """
        clone = object.__new__(type(self))
        for name, value in self.__dict__.items():
            if isinstance(value, list):
                value = [dict(v) if isinstance(v, dict) else v for v in value]
            elif isinstance(value, dict):
                value = {k: dict(v) if isinstance(v, dict) else v for k, v in value.items()}
            clone.__dict__[name] = value
        return clone

    # -- derived, never stored -------------------------------------------------------------

    @property
    def ruleset(self):
        # the registry's dict first: get_ruleset's import statement is a microsecond of every fact recorded
        # (decision 0052); it still names the known rulesets for a name none of them has
        found = RULESETS.get(self.ruleset_name)
        return found if found is not None else get_ruleset(self.ruleset_name)

    @property
    def setup(self) -> Setup:
        # an option the game was stored without reads as the ruleset did then (Ruleset.legacy_options; decision 0039)
        legacy = self.ruleset.legacy_options
        options = {**legacy, **self.options} if legacy and not legacy.keys() <= self.options.keys() else self.options
        return Setup(players=tuple(Seat(p["seat"], p["name"]) for p in self.players), mode=self.mode, options=options)

    @property
    def position(self) -> int:
        """How many facts the game holds (the seq of the last one)."""
        return len(self.recorded)

    @property
    def facts(self) -> list[Fact]:
        return [r.fact for r in self.recorded]

    @property
    def head_state(self) -> Any:
        """The as-corrected state after every fact (folded on first use, from the last fold it knows)."""
        known = self._head.folded
        if known is None or known[0] != self.position:
            known = (self.position, self._fold_head(known))
            self._head.folded = known
        return known[1]

    @property
    def head_is_folded(self) -> bool:
        """Whether ``head_state`` is at hand (no rule to apply to answer it)."""
        known = self._head.folded
        return known is not None and known[0] == self.position

    def know_head(self, position: int, state: Any) -> None:
        """A fold of this game's first ``position`` facts as corrected, made elsewhere: the head if current."""
        if position == self.position:
            self._head.folded = (position, state)

    def _fold_head(self, known: tuple[int, Any] | None) -> Any:
        upto, state = known if known is not None and known[0] < self.position else (0, None)
        later = self.recorded[upto:]
        if any(r.fact.type in CORRECTION_TYPES for r in later):
            return self.replay().head.state
        ruleset = self.ruleset
        if state is None:
            state = ruleset.initial_state(self.setup)
        for r in later:
            if r.fact.type not in ANNOTATION_TYPES:
                state, _ = ruleset.apply(state, r.fact)
        return state

    def replay(self, corrected: bool = True):
        return fold(self.ruleset, self.setup, self.facts, corrected)

    # -- commands ----------------------------------------------------------------------------

    def record(
        self,
        facts: list[Mapping[str, Any]],
        *,
        expected_position: int | None = None,
        command_id: str | None = None,
        recorder: str | None = None,
        recorded_at: list[str] | None = None,
        checked: bool = False,
    ) -> dict[str, Any]:
        """Check a batch of facts and record them all, or raise and record none.

        A command id seen before returns the original result and records nothing. ``checked``: each fact's
        ``data`` is fresh from :func:`service.hygiene.loads` (a notation line: the whole line was checked
        there, within the same limits), so it is neither walked again nor copied through JSON here.
        """
        if not facts:
            raise InvalidInput("a batch needs at least one fact", field="facts")
        if command_id is not None and command_id in self.commands:
            original = self.commands[command_id]
            asked = [self._read_fact(raw, 0, i) for i, raw in enumerate(facts)]
            if command_digest(asked) != command_digest(self.facts[original["first"] - 1 : original["last"]]):
                raise CommandIdReused(
                    f"command id {command_id!r} was already used for other facts (#{original['first']}..#{original['last']})",
                    field="command_id",
                    position=self.position,
                )
            return {**self._result(original["first"], original["last"]), "replayed": True}
        if expected_position is not None and expected_position != self.position:
            raise StalePosition(
                f"expected position {expected_position} but the game is at {self.position}; reload and retry",
                field="expected_position",
                position=self.position,
            )
        staged = self._stage(facts, checked)
        first = self.position + 1
        for i, (fact, flags, pos, after) in enumerate(staged):
            self._staged_head = after  # already folded by the check: the event body reuses it
            self._trigger_fact({
                "seq": fact.seq,
                "type": fact.type,
                "data": dict(fact.data),
                "actor": fact.actor,
                "visibility": fact.visibility,
                "round": pos.get("round"),
                "phase": pos.get("phase"),
                "recorder": recorder,
                "recorded_at": recorded_at[i] if recorded_at else now_iso(),
                "command_id": command_id,
                "flags": [v.as_dict() for v in flags],
            })
        return {**self._result(first, self.position), "replayed": False}

    def _trigger_fact(self, fields: dict[str, Any]) -> None:
        """``self._fact_recorded(**fields)`` without the library's generic plumbing around it.

        Calling the ``@event`` method matches its arguments to its signature, copies them twice and picks them
        out again before the event is made (a third of recording a fact outside the rules, docs/benchmarks.md §2).
        Here the same event is made from the same fields, linked and timestamped as :meth:`trigger_event` does,
        applied to the game as its ``mutate`` would (the method's body, then the version and time) and added to the
        pending events as the library's ``trigger_event`` does: the same object, stored the same
        (tests/unit/test_hash_chain.py compares the two byte for byte).
        """
        event_class = Game.FactRecorded
        timestamp = event_class.create_timestamp()
        version = self.version + 1
        # the time hashed as the text the chain makes of it (chain._text), without the encoder's call back for it
        hashed = {**fields, "timestamp": timestamp.isoformat()}
        chain = hash_chain.link(self.chain or hash_chain.GENESIS, self.id, version, FACT_TOPIC, hashed)
        # made as the mapper makes an event it loads (its fields set at once, in the order of the class's) rather
        # than through the frozen dataclass's __init__, which sets them one by one (decision 0052)
        new_event = object.__new__(event_class)
        object.__setattr__(new_event, "__dict__", {"originator_id": self.id, "originator_version": version,
                                                   "timestamp": timestamp, **fields, "chain": chain})
        # what the event's mutate does (its id and version are this game's next by construction): the method's body
        self._took_fact(fields["seq"], fields["type"], fields["data"], fields["actor"], fields["visibility"],
                        fields["round"], fields["phase"], fields["recorder"], fields["recorded_at"],
                        fields["command_id"], fields["flags"], chain)
        self.version = version
        self.modified_on = timestamp
        self._pending_events.append(new_event)

    def _result(self, first: int, last: int) -> dict[str, Any]:
        flagged = [
            {"seq": r.fact.seq, "violations": list(r.flags)} for r in self.recorded[first - 1 : last] if r.flags
        ]
        return {"first_seq": first, "last_seq": last, "position": self.position, "flagged": flagged}

    def _stage(self, facts: list[Mapping[str, Any]], checked: bool = False) -> list[tuple[Fact, list[Violation], dict, Any]]:
        """Read and check every fact of a batch against the state it would meet.

        Returns each fact with its violations, the position it was recorded at and the
        state after it.
        """
        ruleset = self.ruleset
        state = self.head_state
        known: dict[int, Fact] | None = None  # all facts by seq, built only for corrections
        staged = []
        for i, raw in enumerate(facts):
            seq = self.position + 1 + i
            fact = self._read_fact(raw, seq, i, checked)
            pos = ruleset.position(state)
            if fact.type in GENERIC_TYPES and known is None:
                known = {r.fact.seq: r.fact for r in self.recorded} | {f.seq: f for f, *_ in staged}
            if fact.type in CORRECTION_TYPES:
                violations = check_correction(known, fact)
                if not violations:
                    violations = self._check_replacement(known, fact)
            elif fact.type in ANNOTATION_TYPES:  # a comment or a note: checked here, never by the ruleset
                violations = check_annotation(known, fact, [p["seat"] for p in self.players])
            else:  # the check and the fold at once (one shape check); the state after is taken below unless refused
                try:
                    violations, after, _ = ruleset.checked_apply(state, fact)
                except Exception:  # noqa: BLE001 - a fact the check refuses may not be appliable: the refusal answers
                    violations = ruleset.check(state, fact)
                    if not any(v.shape or self.strict for v in violations):
                        raise
            refused = [v for v in violations if v.shape or self.strict]
            if refused:
                raise FactsRefused(
                    f"fact {i + 1} of the batch (would be #{seq}, {fact.type}) was refused: {refused[0].message}",
                    index=i,
                    seq=seq,
                    round=pos.get("round"),
                    phase=pos.get("phase"),
                    violations=[v.as_dict() for v in refused],
                )
            if fact.type in CORRECTION_TYPES:
                known[seq] = fact
                state = fold(ruleset, self.setup, list(known.values())).head.state
            elif fact.type in ANNOTATION_TYPES:
                known[seq] = fact
            else:
                if known is not None:
                    known[seq] = fact
                state = after
            staged.append((fact, violations, pos, state))
        return staged

    def _check_replacement(self, known: dict[int, Fact], fact: Fact) -> list[Violation]:
        """A replacement must itself be a legal fact where it stands (shape always, rules if strict)."""
        if fact.type != "FactReplaced":
            return []
        trial = dict(known)
        trial[fact.seq] = fact
        target = fact.data["seq"]
        replay = fold(self.ruleset, self.setup, trial.values())
        step = next((s for s in replay.steps if s.seq == target), None)
        if step is None:
            return []
        return [
            Violation(v.rule, f"the replacement of #{target} is not legal there: {v.message}", v.section, "data.replacement." + (v.field or "type"), v.shape)
            for v in step.violations
        ]

    @staticmethod
    def _read_fact(raw: Mapping[str, Any], seq: int, index: int, checked: bool = False) -> Fact:
        where = f"facts[{index}]"
        if type(raw) is not dict and not isinstance(raw, abc.Mapping):  # a dict first: typing's isinstance is slow
            raise InvalidInput(f"{where} must be an object", field=where, index=index)
        ftype = raw.get("type")
        if not isinstance(ftype, str) or not ftype:
            raise InvalidInput(f"{where}.type must be a fact type name", field=f"{where}.type", index=index)
        data = raw.get("data", {})
        if data is None:
            data = {}
        if type(data) is not dict and not isinstance(data, abc.Mapping):
            raise InvalidInput(f"{where}.data must be an object", field=f"{where}.data", index=index)
        actor = raw.get("actor")
        if actor is not None and (not isinstance(actor, int) or isinstance(actor, bool)):
            raise InvalidInput(f"{where}.actor must be a seat number or null", field=f"{where}.actor", index=index)
        visibility = raw.get("visibility", "public")
        if visibility not in ("public", "private", "hidden"):
            raise InvalidInput(f"{where}.visibility must be public, private or hidden", field=f"{where}.visibility", index=index)
        try:  # whatever the door: nothing that cannot be stored, projected and shown
            hygiene.check_text(ftype, f"{where}.type", 80)
            if not checked:  # a notation line's data was checked with its line (hygiene.loads), within these limits
                hygiene.check_tree(data, f"{where}.data")
        except InvalidInput as e:
            e.details["index"] = index
            raise
        if checked and type(data) is dict:  # plain JSON already (json.loads): no round trip to copy it
            return Fact(seq=seq, type=ftype, data=data, actor=actor, visibility=visibility)
        return Fact(seq=seq, type=ftype, data=json.loads(json.dumps(data)), actor=actor, visibility=visibility)

    @event(FactRecorded)
    def _fact_recorded(
        self,
        seq: int,
        type: str,
        data: dict,
        actor: int | None,
        visibility: str,
        round: int | None,
        phase: str | None,
        recorder: str | None,
        recorded_at: str,
        command_id: str | None,
        flags: list,
        chain: str | None = None,
    ) -> None:
        self._took_fact(seq, type, data, actor, visibility, round, phase, recorder, recorded_at, command_id, flags,
                        chain)

    def _took_fact(self, seq: int, type: str, data: dict, actor: int | None, visibility: str,  # noqa: A002
                   round: int | None, phase: str | None, recorder: str | None, recorded_at: str,  # noqa: A002
                   command_id: str | None, flags: list, chain: str | None) -> None:
        """A fact's event applied to the game: the body of ``_fact_recorded`` (a stored event loaded) and of
        ``_trigger_fact`` (a fact recorded now)."""
        self.chain = chain
        fact = Fact(seq=seq, type=type, data=dict(data), actor=actor, visibility=visibility)
        self.recorded.append(
            RecordedFact(fact, round, phase, recorder, recorded_at, command_id,
                         tuple([dict(f) for f in flags]) if flags else ())  # mostly none: no generator made
        )
        if command_id is not None:
            entry = self.commands.setdefault(command_id, {"first": seq, "last": seq})
            entry["last"] = seq
        staged = self.__dict__.pop("_staged_head", None)
        if staged is not None:
            self._head = _Head((self.position, staged))
        else:  # loaded or fast-forwarded: folded when asked for (head_state), not here
            self._head = self._head.carried()


FACT_TOPIC = get_topic(Game.FactRecorded)  # the topic a fact's event is stored (and hashed) under
