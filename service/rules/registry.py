"""Known rulesets by name."""
from service.rules.lockdown import LOCKDOWN

RULESETS = {LOCKDOWN.name: LOCKDOWN}
