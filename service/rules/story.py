"""A folded replay told as a story: one entry per step, grouped under round and phase headings.

The sentences, sub-lines and key moments come from the ruleset (``narrate``, ``details``,
``moments``); this module only walks the steps, marks corrections and groups the entries.
Pure: a :class:`~service.rules.replay.Replay` in, a :class:`Story` out.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from service.i18n import N_, _
from service.rules.base import Fact, Moment, Violation
from service.rules.replay import CORRECTION_TYPES, Replay, correction_targets

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
    kind: str = "fact"  # fact, correction (a correction fact, as played), setup
    corrected: str = ""  # as corrected: "replaced by correction #9: reason"
    voided_by: int | None = None  # as played: the correction that voids or replaces this fact
    actor: int | None = None

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


def tell(replay: Replay) -> Story:
    """The story of ``replay`` (either view, any perspective)."""
    rs = replay.ruleset
    steps = replay.steps
    voiding: dict[int, int] = {}
    for s in steps:
        if s.fact is not None and s.fact.type in CORRECTION_TYPES:
            for target in correction_targets(s.fact):
                voiding[target] = s.seq  # as played: the latest correction of a fact wins
    entries = [Entry(0, 0, 0, "setup", _("Before the first fact: the table sets up."), kind="setup")]
    moments: list[tuple[int, Moment]] = []
    rounds: list[tuple[int, int]] = []
    for i in range(1, len(steps)):
        before, step = steps[i - 1], steps[i]
        pos = rs.position(before.state)
        rnd, phase = pos.get("round") or 0, pos.get("phase") or ""
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
            corrected=step.note if step.corrected_by else "", voided_by=voiding.get(step.seq), actor=step.fact.actor))
    return Story(tuple(entries), tuple(moments), tuple(rounds), rs.ending_story(steps[-1].state),
                 {e.seq: e for e in entries})
