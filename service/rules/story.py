"""A folded replay told as a story: one entry per step, grouped under round and phase headings.

The sentences, sub-lines and key moments come from the ruleset (``narrate``, ``details``,
``moments``); this module only walks the steps, marks corrections and groups the entries.
Pure: a :class:`~service.rules.replay.Replay` in, a :class:`Story` out.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from service.i18n import N_, _
from service.rules.base import Fact, Moment, Violation
from service.rules.replay import ANNOTATION_TYPES, CORRECTION_TYPES, Replay, correction_targets

PHASES = {"setup": N_("Setup"), "player": N_("Player phase"), "event": N_("Event phase"), "ended": N_("After the end")}


@dataclass(frozen=True)
class Entry:
    """One line of the log."""

    seq: int
    index: int
    round: int
    phase: str
    text: str
    details: tuple[str, ...] = ()
    moments: tuple[Moment, ...] = ()
    violations: tuple[Violation, ...] = ()
    kind: str = "fact"  # fact, correction (a correction fact, as played), comment, annotation (a note, as played), setup
    corrected: str = ""  # as corrected: "replaced by correction #9: reason"
    voided_by: int | None = None  # as played: the correction that voids or replaces this fact
    actor: int | None = None
    notes: tuple[str, ...] = ()  # the recorders' notes on this fact (decision 0017)

    @property
    def heading(self) -> str:
        return _(PHASES.get(self.phase, self.phase)) if self.round == 0 or self.phase == "ended" else \
            _("Round %(n)s") % {"n": self.round} + f" · {_(PHASES.get(self.phase, self.phase))}"


@dataclass(frozen=True)
class Story:
    entries: tuple[Entry, ...]
    moments: tuple[tuple[int, Moment], ...] = ()  # (seq, moment), in order
    rounds: tuple[tuple[int, int], ...] = ()  # (round, seq of its first step)
    ending: str = ""
    by_seq: dict = field(default_factory=dict)


def _correction_text(fact, narrate_replacement) -> str:
    reason = fact.data.get("reason")
    why = f" ({reason})" if reason else ""
    if fact.type == "FactVoided":
        seqs = ", ".join(f"#{s}" for s in correction_targets(fact))
        return _("Correction: %(seqs)s did not happen%(why)s.") % {"seqs": seqs, "why": why}
    return _("Correction: #%(seq)s is replaced by “%(text)s”%(why)s.") % {
        "seq": fact.data.get("seq"), "text": narrate_replacement(fact), "why": why}


def _remark_text(fact, names: dict) -> str:
    """A comment or (as played) a note, as a log line."""
    if fact.type == "Commented":
        about = f" ({names.get(fact.actor, f'seat {fact.actor}')})" if fact.actor is not None else ""
        return f"Comment{about}: {fact.data.get('text', '')}"
    return f"Note on #{fact.data.get('seq')}: {fact.data.get('note', '')}"


def tell(replay: Replay) -> Story:
    """The story of ``replay`` (either view, any perspective)."""
    rs = replay.ruleset
    steps = replay.steps
    voiding: dict[int, int] = {}
    for s in steps:
        if s.fact is not None and s.fact.type in CORRECTION_TYPES:
            for target in correction_targets(s.fact):
                voiding[target] = s.seq  # as played: the latest correction of a fact wins
    names = {p.seat: p.name for p in replay.setup.players}
    entries = [Entry(0, 0, 0, "setup", _("Before the first fact: the table sets up."), kind="setup")]
    moments: list[tuple[int, Moment]] = []
    rounds: list[tuple[int, int]] = []
    for i in range(1, len(steps)):
        before, step = steps[i - 1], steps[i]
        pos = rs.position(before.state)
        rnd, phase = pos.get("round") or 0, pos.get("phase") or ""
        if step.fact.type in ANNOTATION_TYPES:
            entries.append(Entry(step.seq, i, rnd, phase, _remark_text(step.fact, names),
                                 kind="comment" if step.fact.type == "Commented" else "annotation",
                                 corrected=step.note if step.corrected_by else "", voided_by=voiding.get(step.seq),
                                 actor=step.fact.actor))
            continue
        if step.fact.type in CORRECTION_TYPES:
            def replacement(fact, state=before.state):
                rep = fact.data.get("replacement") or {}
                return rs.narrate(state, Fact(fact.data.get("seq", 0), rep.get("type", "?"), rep.get("data") or {},
                                              rep.get("actor")), state).rstrip(".")
            entries.append(Entry(step.seq, i, rnd, phase, _correction_text(step.fact, replacement),
                                 kind="correction", actor=step.fact.actor))
            continue
        ms = tuple(rs.moments(before.state, step.fact, step.state, step.consequences))
        moments += [(step.seq, m) for m in ms]
        after = rs.position(step.state)
        if (after.get("round") or 0) > (rounds[-1][0] if rounds else 0):
            rounds.append((after["round"], step.seq))
        entries.append(Entry(
            step.seq, i, rnd, phase, rs.narrate(before.state, step.fact, step.state),
            tuple(rs.details(step.state, step.fact, step.consequences)), ms, step.violations,
            corrected=step.note if step.corrected_by else "", voided_by=voiding.get(step.seq), actor=step.fact.actor,
            notes=step.notes))
    return Story(tuple(entries), tuple(moments), tuple(rounds), rs.ending_story(steps[-1].state),
                 {e.seq: e for e in entries})
