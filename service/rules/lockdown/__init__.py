"""Nemesis: Lockdown — the pure ruleset.

One module per idea: ``components`` (data files in ``data/``), ``board``, ``state``,
``facts`` (the vocabulary), ``checks`` (rules), ``apply`` (folding), ``inputs``
(what may come next), ``view`` (describe/position/score), ``generate`` (random play).
"""
from service.rules.lockdown.ruleset import LOCKDOWN, LockdownRuleset

__all__ = ["LOCKDOWN", "LockdownRuleset"]
