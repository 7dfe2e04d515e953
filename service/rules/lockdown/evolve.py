"""Kept for callers of the old path: ``replace`` lives in the ruleset kit (service/rules/kit/replace.py)."""
from service.rules.kit.replace import replace

__all__ = ["replace"]
