"""League ratings with openskill's Weng-Lin Plackett-Luce model, and the points of a standings row.

Pure functions: no SQL, no framework. How a Nemesis game becomes a rating match
(docs/decisions/0020-leagues.md):

- semi-co-op (``standard``): every player is a team of one; the winners share first place, the
  rest are tied below them (everyone tied when nobody won);
- full co-op (``coop``): the players are one team against "the game", a pseudo-player with its
  own rating per season; the team is first if anyone won;
- solo: the player against "the game", only when the league says so (``rate_solo``);
- a game moves ratings only when every verdict is decided (won or lost) — undetermined,
  abandoned or unfinished games never do.

    >>> new = rate_game("standard", [("a", "won"), ("b", "lost")], {})
    >>> new["a"][0] > 25 > new["b"][0]
    True
"""
from __future__ import annotations

from typing import Hashable, Iterable, Mapping, Sequence
from uuid import uuid5

from openskill.models import PlackettLuce

from service.league import NAMESPACE

MODEL = PlackettLuce()
THE_GAME = uuid5(NAMESPACE, "the game")  # the opponent of co-op teams and solo players
THE_GAME_NAME = "The game"
DECIDED = ("won", "lost")


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown in tables: μ − 3σ (openskill's ``ordinal``)."""
    return mu - 3 * sigma


def is_rated(mode: str, outcomes: Iterable[str | None], rate_solo: bool = False) -> bool:
    outcomes = list(outcomes)
    if not outcomes or any(o not in DECIDED for o in outcomes):
        return False
    if mode == "solo" and not rate_solo:
        return False
    return mode in ("standard", "coop", "solo")


def rate_game(
    mode: str,
    seats: Sequence[tuple[Hashable, str]],
    ratings: Mapping[Hashable, tuple[float, float]],
) -> dict[Hashable, tuple[float, float]]:
    """New (μ, σ) of everyone the game rates, from ``seats`` = [(player, outcome)] and the
    ratings before it (a player not in ``ratings`` starts at the model's defaults).

    A player on two seats of one game (a duplicate not merged yet) counts once, on the first.
    """
    seen: dict[Hashable, str] = {}
    for player, outcome in seats:
        seen.setdefault(player, outcome)

    def rating(player):
        mu, sigma = ratings.get(player, (MODEL.mu, MODEL.sigma))
        return MODEL.rating(mu=mu, sigma=sigma, name=str(player))

    if mode == "standard":
        players = list(seen)
        teams = [[rating(p)] for p in players]
        ranks = [1 if seen[p] == "won" else 2 for p in players]
        new = MODEL.rate(teams, ranks=ranks)
        return {p: (t[0].mu, t[0].sigma) for p, t in zip(players, new)}
    players = list(seen)
    team_won = any(o == "won" for o in seen.values())
    new_team, new_game = MODEL.rate(
        [[rating(p) for p in players], [rating(THE_GAME)]], ranks=[1, 2] if team_won else [2, 1]
    )
    out = {p: (r.mu, r.sigma) for p, r in zip(players, new_team)}
    out[THE_GAME] = (new_game[0].mu, new_game[0].sigma)
    return out


def points(scheme: Mapping[str, int], *, games: int, wins: int, survived: int, objectives: int) -> int:
    """A standings row's points: per finished game played, won, survived, objective met."""
    return (scheme.get("played", 0) * games + scheme.get("win", 0) * wins
            + scheme.get("survived", 0) * survived + scheme.get("objective", 0) * objectives)
