"""Folding a game's facts into the steps of a replay, as played or as corrected.

Corrections are facts too, so history is never edited:

- ``FactVoided``   ``{"seqs": [5, 6], "reason": "..."}``: those facts did not happen.
- ``FactReplaced`` ``{"seq": 5, "replacement": {"type", "actor", "data"}, "reason": "..."}``:
  fact 5 happened as the replacement says.

Remarks are facts too, beside the corrections and the same for every ruleset (decision 0017):

- ``Commented``     ``{"text": "..."}``: a free-text comment at this point of the game (actor: the seat
  it is about, or null). A step of its own in both views; the state does not change.
- ``FactAnnotated`` ``{"seq": 5, "note": "..."}``: a note on fact 5, given when it was recorded (in
  the same batch) or later. Not a step in the corrected view: its text joins fact 5's ``notes``.

"As played" applies every recorded fact in order and shows corrections as markers;
"as corrected" (the default) applies the replacements in place of what they replace,
skips voided facts, and leaves the correction facts out of the sequence.
"""
from __future__ import annotations

import gc
import threading
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Sequence

from service.rules.base import Consequence, Fact, Ruleset, Setup, Violation

CORRECTION_TYPES = ("FactVoided", "FactReplaced")
ANNOTATION_TYPES = ("Commented", "FactAnnotated")
GENERIC_TYPES = CORRECTION_TYPES + ANNOTATION_TYPES  # never seen by a ruleset's check or apply


@dataclass(frozen=True)
class Step:
    """One step of a replay: the fact, the state after it, and what the rules made of it."""

    seq: int
    fact: Fact | None
    state: Any
    consequences: tuple[Consequence, ...] = ()
    violations: tuple[Violation, ...] = ()
    corrected_by: int | None = None  # seq of the correction that replaced this fact
    note: str = ""
    notes: tuple[str, ...] = ()  # the recorders' notes on this fact (FactAnnotated), in order

    def __deepcopy__(self, memo):  # immutable: share it
        return self


def check_correction(facts: Mapping[int, Fact], fact: Fact) -> list[Violation]:
    """Shape and target checks of a correction fact against the facts recorded so far.

    A fact may be corrected again: the latest correction of a fact wins.
    """
    section = "docs/decisions/0004-corrections.md"

    def target(seq: Any, fld: str) -> list[Violation]:
        if not isinstance(seq, int) or isinstance(seq, bool):
            return [Violation("correction.target", f"{fld} must be a fact sequence number", section, fld, True)]
        if seq not in facts:
            return [Violation("correction.target", f"there is no fact #{seq} to correct", section, fld, True)]
        if facts[seq].type in CORRECTION_TYPES:
            return [
                Violation("correction.target", f"fact #{seq} is itself a correction; correct the original fact", section, fld, True)
            ]
        return []

    if fact.type == "FactVoided":
        seqs = fact.data.get("seqs")
        if not isinstance(seqs, list) or not seqs:
            return [Violation("correction.shape", "FactVoided needs a non-empty list 'seqs'", section, "data.seqs", True)]
        out: list[Violation] = []
        for i, s in enumerate(seqs):
            out += target(s, f"data.seqs[{i}]")
        if len(set(map(repr, seqs))) != len(seqs):
            out.append(Violation("correction.shape", "a fact is voided twice in one correction", section, "data.seqs", True))
        return out
    rep = fact.data.get("replacement")
    out = target(fact.data.get("seq"), "data.seq")
    if not isinstance(rep, Mapping) or not isinstance(rep.get("type"), str):
        out.append(Violation("correction.shape", "FactReplaced needs 'replacement' with a fact 'type'", section, "data.replacement", True))
    elif rep["type"] in CORRECTION_TYPES:
        out.append(Violation("correction.shape", "a replacement cannot itself be a correction", section, "data.replacement.type", True))
    elif not out:
        original = facts[fact.data["seq"]].type
        if (original in ANNOTATION_TYPES or rep["type"] in ANNOTATION_TYPES) and original != rep["type"]:
            out.append(Violation("correction.shape", f"#{fact.data['seq']} is a {original}: a {rep['type']} cannot replace it "
                                 "(a comment or a note is replaced by another one, a table fact by a table fact)",
                                 section, "data.replacement.type", True))
        elif rep["type"] in ANNOTATION_TYPES:
            trial = Fact(fact.data["seq"], rep["type"], rep.get("data") or {}, rep.get("actor"))
            out += [Violation(v.rule, v.message, v.section, "data.replacement." + (v.field or "data"), v.shape)
                    for v in check_annotation(facts, trial)]
    return out


def check_annotation(facts: Mapping[int, Fact], fact: Fact, seats: Iterable[int] | None = None) -> list[Violation]:
    """Shape checks of a ``Commented`` or ``FactAnnotated`` fact (lengths: service/hygiene.py)."""
    from service.hygiene import MAX_COMMENT, MAX_NOTE, text_problem

    section = "docs/decisions/0017-recorder-corrections-and-csrf.md"
    data = fact.data if isinstance(fact.data, Mapping) else {}
    name, limit = ("text", MAX_COMMENT) if fact.type == "Commented" else ("note", MAX_NOTE)
    known = {"text"} if fact.type == "Commented" else {"seq", "note"}
    out = [Violation("annotation.shape", f"{fact.type} has no field {k!r}; its fields are: {', '.join(sorted(known))}",
                     section, f"data.{k}", True) for k in data if k not in known]
    text = data.get(name)
    if not isinstance(text, str) or not text.strip():
        out.append(Violation("annotation.shape", f"{fact.type} needs {name!r}: a non-empty text", section, f"data.{name}", True))
    else:
        problem = text_problem(text, limit)
        if problem:
            out.append(Violation("annotation.shape", f"{fact.type}.{name} {problem}", section, f"data.{name}", True))
    if fact.type == "Commented":
        if fact.actor is not None and seats is not None and fact.actor not in set(seats):
            out.append(Violation("annotation.shape", f"a comment is about a seat of this game or the table (null), "
                                 f"not {fact.actor!r}", section, "actor", True))
        return out
    if fact.actor is not None:
        out.append(Violation("annotation.shape", "a note has no actor: leave it empty", section, "actor", True))
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        out.append(Violation("annotation.target", "FactAnnotated needs 'seq': the number of the fact it is about",
                             section, "data.seq", True))
    elif seq not in facts:
        out.append(Violation("annotation.target", f"there is no fact #{seq} to note", section, "data.seq", True))
    elif facts[seq].type in GENERIC_TYPES:
        out.append(Violation("annotation.target", f"fact #{seq} is a {facts[seq].type}; a note goes on a table fact",
                             section, "data.seq", True))
    return out


def correction_targets(fact: Fact) -> list[int]:
    if fact.type == "FactVoided":
        return list(fact.data.get("seqs", ()))
    if fact.type == "FactReplaced":
        return [fact.data["seq"]]
    return []


def replacement_fact(original: Fact, correction: Fact) -> Fact:
    rep = correction.data["replacement"]
    return Fact(
        seq=original.seq,
        type=rep["type"],
        data=dict(rep.get("data") or {}),
        actor=rep.get("actor"),
        visibility=rep.get("visibility", original.visibility),
    )


def effective_facts(facts: Iterable[Fact], corrected: bool = True) -> list[tuple[Fact, int | None, str]]:
    """The facts a replay applies, each with the seq of the correction that changed it and a note."""
    facts = list(facts)
    if not corrected:
        return [
            (f, None, f"correction: {f.type} of #{', #'.join(map(str, correction_targets(f)))}" if f.type in CORRECTION_TYPES else "")
            for f in facts
        ]
    last: dict[int, Fact] = {}  # the latest correction of each fact wins
    for f in facts:
        for s in correction_targets(f):
            last[s] = f
    out = []
    for f in facts:
        c = last.get(f.seq)
        if f.type in CORRECTION_TYPES or (c is not None and c.type == "FactVoided"):
            continue
        if c is not None:
            out.append((replacement_fact(f, c), c.seq, f"replaced by correction #{c.seq}: {c.data.get('reason', '')}".rstrip(": ")))
        else:
            out.append((f, None, ""))
    return out


@dataclass
class Replay:
    """A game folded step by step. ``steps[0]`` is the state before the first fact."""

    ruleset: Ruleset
    setup: Setup
    steps: list[Step] = field(default_factory=list)
    _seqs: list[int] | None = field(default=None, repr=False, compare=False)

    @property
    def head(self) -> Step:
        return self.steps[-1]

    @property
    def seqs(self) -> list[int]:
        """The steps' fact numbers, in order (strictly increasing: step 0 is 0)."""
        if self._seqs is None or len(self._seqs) != len(self.steps):
            self._seqs = [s.seq for s in self.steps]
        return self._seqs

    def at(self, seq: int) -> Step:
        """The step of fact ``seq``, or the latest step before it (a voided fact shows the state before it)."""
        return self.steps[self.index_of(seq)]

    def index_of(self, seq: int) -> int:
        return max(bisect_right(self.seqs, seq) - 1, 0)


def _masked_correction(ruleset: Ruleset, setup: Setup, fact: Fact, as_: str) -> Fact:
    """A ``FactReplaced`` marker whose replacement is masked like any fact the perspective sees."""
    rep = fact.data.get("replacement")
    if fact.type != "FactReplaced" or not isinstance(rep, Mapping):
        return fact
    shown = ruleset.mask(setup, Fact(fact.data.get("seq", 0), str(rep.get("type", "")), rep.get("data") or {},
                                     rep.get("actor"), rep.get("visibility", fact.visibility)), as_)
    return Fact(fact.seq, fact.type, {**fact.data, "replacement": {**rep, "data": dict(shown.data)}},
                fact.actor, fact.visibility)


def fold(ruleset: Ruleset, setup: Setup, facts: Iterable[Fact], corrected: bool = True, as_: str = "all") -> Replay:
    """Fold ``facts`` into a :class:`Replay`; violations are recorded, never raised.

    ``as_`` folds the game as one perspective saw it (``public``, ``seat2``; see
    ``ruleset.mask``): every fact is masked before it is applied, and once the game has ended
    the facts the victory check shows everybody (``ruleset.revealed``) are applied too, their
    consequences joining the step that ended the game.
    """
    return Folding.start(ruleset, setup, corrected, as_).extended(list(facts)).replay


@dataclass(frozen=True)
class Checkpoint:
    """Where a fold can be carried on from: the state after step ``index`` (fact ``seq``).

    ``truth`` is the all-seeing state folded alongside a perspective (None for ``all``).
    """

    index: int
    seq: int
    state: Any
    truth: Any = None


class Folding:
    """A fold that can be carried on (decision 0031): the replay of the first ``position`` facts,
    plus what folding the next ones needs.

    ``extended(facts)`` folds only the facts after ``position``; a correction among them that
    changes earlier effective facts (a void, a replacement, a voided or replaced note) refolds
    from the earliest step it touches, from the state before it. A Folding is never changed
    once made: ``extended`` returns a new one sharing the unchanged steps, so readers of the old
    one are never disturbed.
    """

    __slots__ = ("ruleset", "setup", "corrected", "as_", "position", "replay", "truths", "fresh_from")

    def __init__(self, ruleset: Ruleset, setup: Setup, corrected: bool, as_: str, position: int,
                 replay: Replay, truths: list, fresh_from: int = 0) -> None:
        self.ruleset, self.setup, self.corrected, self.as_ = ruleset, setup, corrected, as_
        self.position = position  # how many of the game's facts (corrections and remarks included) are folded
        self.replay = replay
        self.truths = truths  # per step: the all-seeing state folded alongside a perspective (None for ``all``)
        self.fresh_from = fresh_from  # the first step whose state this fold made (the ones before it came with it)

    @classmethod
    def start(cls, ruleset: Ruleset, setup: Setup, corrected: bool = True, as_: str = "all") -> "Folding":
        state = ruleset.initial_state(setup)
        return cls(ruleset, setup, corrected, as_, 0, Replay(ruleset, setup, [Step(0, None, state, note="setup")]),
                   [state if as_ != "all" else None])

    @property
    def seeing(self) -> bool:
        return self.as_ != "all"

    @property
    def truth(self) -> Any:
        """The all-seeing state at the head (the head state itself for ``all``)."""
        return self.truths[-1] if self.seeing else self.replay.head.state

    def checkpoint(self, index: int) -> Checkpoint:
        step = self.replay.steps[index]
        return Checkpoint(index, step.seq, step.state, self.truths[index])

    def extended(self, facts: Sequence[Fact]) -> "Folding":
        """The fold of ``facts``: the facts folded so far followed by new ones (only those are applied)."""
        if len(facts) < self.position:
            raise ValueError(f"a fold of {self.position} facts cannot be extended to {len(facts)}")
        new = list(facts[self.position:])
        if not new:
            return self
        steps, truths = list(self.replay.steps), list(self.truths)
        if self.corrected and any(f.type in CORRECTION_TYPES for f in new):
            earliest = min(earliest_touched(facts, self.position), new[0].seq)
            keep = bisect_left(self.replay.seqs, earliest)  # steps before the earliest fact touched stand
            fresh = keep
            del steps[keep:], truths[keep:]
            effective = effective_facts(facts, True)
            notes = _notes(effective)
            _fold_into(self.ruleset, self.setup, [e for e in effective if e[0].seq >= earliest], steps, truths,
                       notes, True, self.as_)
        else:
            fresh = len(steps)
            effective = effective_facts(new, self.corrected)
            _fold_into(self.ruleset, self.setup, effective, steps, truths, _notes(effective), self.corrected, self.as_)
            if any(f.type == "FactAnnotated" for f, _, _ in effective):
                _note_earlier(steps, effective, len(self.replay.steps))
        return Folding(self.ruleset, self.setup, self.corrected, self.as_, len(facts),
                       Replay(self.ruleset, self.setup, steps), truths, fresh)

    @classmethod
    def resumed(cls, ruleset: Ruleset, setup: Setup, facts: Sequence[Fact], at: Checkpoint | None, index: int,
                corrected: bool = True, as_: str = "all") -> Step:
        """Step ``index`` of the fold of ``facts``, folded from checkpoint ``at`` (None: from the setup).

        Only the facts after the checkpoint up to the step are applied (``step_seqs`` tells the steps
        without folding). The caller vouches that ``at`` is a step of this very fold of ``facts``, before
        ``index`` (see service/replay_cache.py).
        """
        if at is not None and not at.index < index:
            raise ValueError(f"checkpoint at step {at.index} is not before step {index}")
        effective = effective_facts(facts, corrected)
        start = cls.start(ruleset, setup, corrected, as_) if at is None else None
        steps = start.replay.steps if start else [Step(at.seq, None, at.state)]
        truths = start.truths if start else [at.truth]
        first = 0 if at is None else at.index
        if index == first:
            return steps[0]
        after = 0 if at is None else at.seq
        wanted = (e for e in effective if e[0].seq > after)
        shown = 0
        todo = []
        for e in wanted:  # the facts up to the step asked for (a note in the corrected view is no step)
            todo.append(e)
            if corrected is False or e[0].type != "FactAnnotated":
                shown += 1
                if first + shown == index:
                    break
        _fold_into(ruleset, setup, todo, steps, truths, _notes(effective), corrected, as_)
        return steps[-1]


def step_seqs(facts: Iterable[Fact], corrected: bool = True) -> list[int]:
    """The fact numbers of a replay's steps, without folding it (step 0, the setup, is 0)."""
    return [0] + [f.seq for f, _, _ in effective_facts(facts, corrected) if not corrected or f.type != "FactAnnotated"]


def _notes(effective: Iterable[tuple[Fact, int | None, str]]) -> dict[int, list[str]]:
    notes: dict[int, list[str]] = {}
    for fact, _, _ in effective:
        if fact.type == "FactAnnotated" and isinstance(fact.data.get("note"), str):
            notes.setdefault(fact.data.get("seq"), []).append(fact.data["note"])
    return notes


def earliest_touched(facts: Sequence[Fact], since: int) -> int | None:
    """The earliest fact whose step the corrections among ``facts[since:]`` can change (a target, or the
    fact a corrected note is on); None when there is no correction there."""
    earliest = None
    by_seq = None
    for f in facts[since:]:
        if f.type not in CORRECTION_TYPES:
            continue
        for target in correction_targets(f):
            if not isinstance(target, int) or isinstance(target, bool):
                return 1  # not a correction that could be stored; refold it all
            earliest = target if earliest is None else min(earliest, target)
            if by_seq is None:
                by_seq = {x.seq: x for x in facts}
            original = by_seq.get(target)
            for noted in (original, replacement_fact(original, f) if original is not None and f.type == "FactReplaced" else None):
                if noted is not None and noted.type == "FactAnnotated" and isinstance(noted.data.get("seq"), int):
                    earliest = min(earliest, noted.data["seq"])
    return None if earliest is None else max(earliest, 1)


def _note_earlier(steps: list[Step], effective: list[tuple[Fact, int | None, str]], old: int) -> None:
    """Notes among the new facts on facts folded before: they join those steps' notes, in order."""
    seqs = [s.seq for s in steps[:old]]
    for fact, _, _ in effective:
        if fact.type != "FactAnnotated" or not isinstance(fact.data.get("note"), str):
            continue
        i = bisect_left(seqs, fact.data.get("seq")) if isinstance(fact.data.get("seq"), int) else len(seqs)
        if i < len(seqs) and seqs[i] == fact.data["seq"]:
            step = steps[i]
            if step.fact is not None and step.fact.type not in GENERIC_TYPES:
                steps[i] = replace(step, notes=step.notes + (fact.data["note"],))


# The cyclic garbage collector is paused while a fold runs (decision 0046). A fold keeps every state it makes (one
# step per fact, about twenty new tracked objects each) and makes no cyclic garbage of its own, so the collections
# its allocations set off found nothing to free, and the full ones among them walked the whole heap again and again:
# about 40 % of a fold's CPU time. Reference counting still frees everything else at once; the collector runs again
# (with the fold's allocations counted) as soon as the last fold running in the process has finished. Folds on
# several threads share one pause: the first to start takes it (if the collector was on), the last to end gives it
# back; code that turns the collector off itself is respected (a pause taken while it was off does not turn it on).
_pause_lock = threading.Lock()
_pause = [0, False]  # folds running, whether the collector was on when the first of them began


def _pause_gc() -> None:
    with _pause_lock:
        if _pause[0] == 0:
            _pause[1] = gc.isenabled()
            gc.disable()
        _pause[0] += 1


def _resume_gc() -> None:
    with _pause_lock:
        _pause[0] -= 1
        if _pause[0] == 0 and _pause[1]:
            gc.enable()


@contextmanager
def collector_paused():
    """The pause a fold takes (above), for other work that keeps everything it allocates until it ends (an
    import recording a whole game): shared with the folds running on other threads."""
    _pause_gc()
    try:
        yield
    finally:
        _resume_gc()


def _fold_into(ruleset: Ruleset, setup: Setup, effective: Iterable[tuple[Fact, int | None, str]], steps: list[Step],
               truths: list, notes: Mapping[int, list[str]], corrected: bool, as_: str) -> None:
    """Apply ``effective`` facts after ``steps[-1]``, appending a step (and its truth) for each."""
    with collector_paused():
        _fold_steps(ruleset, setup, effective, steps, truths, notes, corrected, as_)


def _fold_steps(ruleset: Ruleset, setup: Setup, effective: Iterable[tuple[Fact, int | None, str]], steps: list[Step],
                truths: list, notes: Mapping[int, list[str]], corrected: bool, as_: str) -> None:
    """``_fold_into``'s work, the collector paused."""
    state = steps[-1].state
    truth = truths[-1]  # the all-seeing state, folded alongside a perspective
    seeing = as_ != "all"
    checked_apply = ruleset.checked_apply
    for fact, corrected_by, note in effective:
        if fact.type in _GENERIC:  # one set lookup answers a ruleset's fact (decision 0048)
            if fact.type in ANNOTATION_TYPES:  # a remark: the state does not change
                if fact.type == "Commented" or not corrected:  # a note shows on its fact in the corrected view
                    steps.append(Step(fact.seq, fact, state, (), (), corrected_by, note))
                    truths.append(truth)
                continue
            # a correction, as played: a marker, the state does not change
            if seeing:
                fact = _masked_correction(ruleset, setup, fact, as_)
            steps.append(Step(fact.seq, fact, state, note=note))
            truths.append(truth)
            continue
        if seeing:
            _, truth, _ = checked_apply(truth, fact)
            fact = ruleset.mask(setup, fact, as_)
        violations, after, consequences = checked_apply(state, fact)
        noted = notes.get(fact.seq)
        if violations:
            violations = tuple(violations)
            if any(v.shape for v in violations):  # cannot be applied (only reachable through a replacement)
                steps.append(_step(fact.seq, fact, state, (), violations, corrected_by, note, tuple(noted or ())))
                truths.append(truth)
                continue
        else:
            violations = ()
        state = after
        if seeing:
            for shown in ruleset.revealed(truth, state, as_):
                shape, after, more = checked_apply(state, shown)
                if not any(v.shape for v in shape):
                    state = after
                    consequences = list(consequences) + list(more)
        steps.append(_step(fact.seq, fact, state, tuple(consequences), violations, corrected_by, note,
                           tuple(noted) if noted else ()))
        truths.append(truth)


_GENERIC = frozenset(GENERIC_TYPES)
_new = object.__new__


def _step(seq: int, fact: Fact, state: Any, consequences: tuple[Consequence, ...], violations: tuple[Violation, ...],
          corrected_by: int | None, note: str, notes: tuple[str, ...]) -> Step:
    """``Step(...)`` with every field given, made without the frozen ``__init__``'s eight ``object.__setattr__``
    calls (a fold makes one per fact); the same object."""
    step = _new(Step)
    step.__dict__.update(seq=seq, fact=fact, state=state, consequences=consequences, violations=violations,
                         corrected_by=corrected_by, note=note, notes=notes)
    return step
