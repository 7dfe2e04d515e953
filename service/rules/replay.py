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

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

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

    @property
    def head(self) -> Step:
        return self.steps[-1]

    def at(self, seq: int) -> Step:
        """The step of fact ``seq``, or the latest step before it (a voided fact shows the state before it)."""
        best = self.steps[0]
        for step in self.steps:
            if step.seq <= seq:
                best = step
            else:
                break
        return best

    def index_of(self, seq: int) -> int:
        return self.steps.index(self.at(seq))


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
    state = ruleset.initial_state(setup)
    truth = state  # the all-seeing state, folded alongside a perspective
    seeing = as_ != "all"
    replay = Replay(ruleset, setup, [Step(0, None, state, note="setup")])
    effective = effective_facts(facts, corrected)
    notes: dict[int, list[str]] = {}
    for fact, _, _ in effective:
        if fact.type == "FactAnnotated" and isinstance(fact.data.get("note"), str):
            notes.setdefault(fact.data.get("seq"), []).append(fact.data["note"])
    for fact, corrected_by, note in effective:
        if fact.type in ANNOTATION_TYPES:  # a remark: the state does not change
            if fact.type == "Commented" or not corrected:  # a note shows on its fact in the corrected view
                replay.steps.append(Step(fact.seq, fact, state, (), (), corrected_by, note))
            continue
        if fact.type in CORRECTION_TYPES:  # as played: a marker, the state does not change
            if seeing:
                fact = _masked_correction(ruleset, setup, fact, as_)
            replay.steps.append(Step(fact.seq, fact, state, note=note))
            continue
        if seeing:
            if not any(v.shape for v in ruleset.check(truth, fact)):
                truth, _ = ruleset.apply(truth, fact)
            fact = ruleset.mask(setup, fact, as_)
        violations = tuple(ruleset.check(state, fact))
        if any(v.shape for v in violations):  # cannot be applied (only reachable through a replacement)
            replay.steps.append(Step(fact.seq, fact, state, (), violations, corrected_by, note,
                                     tuple(notes.get(fact.seq, ()))))
            continue
        state, consequences = ruleset.apply(state, fact)
        if seeing:
            for shown in ruleset.revealed(truth, state, as_):
                if not any(v.shape for v in ruleset.check(state, shown)):
                    state, more = ruleset.apply(state, shown)
                    consequences = list(consequences) + list(more)
        replay.steps.append(Step(fact.seq, fact, state, tuple(consequences), violations, corrected_by, note,
                                 tuple(notes.get(fact.seq, ()))))
    return replay
