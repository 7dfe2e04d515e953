"""Known rulesets by name, and what pages ask of them all (every board, a component's printed name)."""
from typing import Any, Callable

from service.rules.base import Fact, Ruleset, Setup
from service.rules.kit import player
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown import generate as lockdown_generate

RULESETS = {LOCKDOWN.name: LOCKDOWN}
#: a ruleset's own seeded player, where it has a better one than the kit's uniform random player
SAMPLE_GAMES: dict[str, Callable[[int], tuple[Setup, list[Fact]]]] = {LOCKDOWN.name: lockdown_generate.sample_game}
#: the result's words of every ruleset (gettext-marked): death causes and escape routes
DEATH_CAUSES: dict[str, str] = {k: v for r in RULESETS.values() for k, v in r.result_words.get("death_cause", {}).items()}
ROUTES: dict[str, str] = {k: v for r in RULESETS.values() for k, v in r.result_words.get("route", {}).items()}
#: every board of every ruleset, sorted
BOARDS: tuple[str, ...] = tuple(sorted({b for r in RULESETS.values() for b in r.boards}))


def board_ruleset(board: str):
    """The ruleset that knows ``board``, or None."""
    return next((r for r in RULESETS.values() if board in r.boards), None)


def shown(kind: str, value: Any, default: str | None = None) -> str:
    """A component's printed name in the language in force, from the first ruleset that names it; ``default``
    (or the value itself) when none does."""
    from service import i18n

    for r in RULESETS.values():
        name = r.display_name(kind, value, i18n.current())
        if name:
            return name
    return default if default is not None else str(value)


def sample_game(ruleset: Ruleset, seed: int) -> tuple[Setup, list[Fact]]:
    """A short legal game of ``ruleset`` from seeded play (its own player, else the kit's)."""
    own = SAMPLE_GAMES.get(ruleset.name)
    return own(seed) if own is not None else player.sample_game(ruleset, seed)
