"""An optional field sent as null means "not given": checking or applying such a fact never crashes.

(``Passed {"discarded": null}`` used to crash the check with a TypeError: a 500 at the API.)
"""
from __future__ import annotations

import pytest

from service.rules import Fact, get_ruleset
from service.rules.lockdown.facts import FACTS
from service.samples import generated

LOCKDOWN = get_ruleset("lockdown")


@pytest.mark.parametrize("seed", [1, 7, 21])
def test_every_optional_field_may_be_null(seed):
    header, facts = generated(seed=seed, max_rounds=2)
    from service.rules import Seat, Setup

    setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in header["players"]), mode=header["mode"],
                  options=header["options"])
    state = LOCKDOWN.initial_state(setup)
    tried = 0
    for seq, raw in enumerate(facts, start=1):
        spec = FACTS.get(raw["type"])
        for f in spec.fields if spec else ():
            if f.required:
                continue
            nulled = Fact(seq, raw["type"], {**raw["data"], f.name: None}, raw["actor"])
            violations = LOCKDOWN.check(state, nulled)  # must not raise
            if not any(v.shape for v in violations):
                LOCKDOWN.apply(state, nulled)  # must not raise either
            tried += 1
        state, _ = LOCKDOWN.apply(state, Fact(seq, raw["type"], raw["data"], raw["actor"]))
    assert tried > 10
