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

import math
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
        return ratings.get(player, DEFAULT)

    players = list(seen)
    if mode == "standard":
        new = plackett_luce([[rating(p)] for p in players], [1 if seen[p] == "won" else 2 for p in players])
        return {p: t[0] for p, t in zip(players, new)}
    team_won = any(o == "won" for o in seen.values())
    new_team, new_game = plackett_luce([[rating(p) for p in players], [rating(THE_GAME)]],
                                       [1, 2] if team_won else [2, 1])
    out = dict(zip(players, new_team))
    out[THE_GAME] = new_game[0]
    return out


DEFAULT = (MODEL.mu, MODEL.sigma)
_TAU_SQUARED = MODEL.tau * MODEL.tau
_BETA_SQUARED = MODEL.beta ** 2
_KAPPA = MODEL.kappa


def plackett_luce(teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """``MODEL.rate(teams, ranks=ranks)`` on (μ, σ) pairs, with openskill's arithmetic in openskill's order.

    openskill 6's ``rate`` deep-copies every rating object and validates its arguments on each
    call, which is most of its time; a season re-rated after a late game calls it thousands of
    times. This is the same computation (PlackettLuce with the model's defaults: τ added to σ,
    teams stably sorted by rank, no weights, no margin, no balance, σ not limited), and gives
    bit-identical results (tests/unit/test_ratings.py compares them with openskill's on random
    games). One quirk is kept: openskill's averaging of tied teams' μ change compares each
    player with itself (the same object) and so changes nothing; here it is not done at all.
    """
    k = len(teams)
    order = sorted(range(k), key=lambda i: ranks[i])  # stable, like openskill's _unwind
    sorted_teams = [[(mu, math.sqrt(sigma * sigma + _TAU_SQUARED)) for mu, sigma in teams[i]] for i in order]
    rank = [int(ranks[i]) for i in order]
    team_mu, team_ss = [], []
    for team in sorted_teams:
        if len(team) == 1:
            team_mu.append(0.0 + team[0][0])
            team_ss.append(0.0 + team[0][1] ** 2)
            continue
        # openskill sums a team's players in descending ordinal order (μ − 3σ), stably
        mu_summed = 0.0
        ss_summed = 0.0
        for mu, sigma in sorted(team, key=lambda p: p[0] - 3.0 * p[1], reverse=True):
            mu_summed += mu
            ss_summed += sigma ** 2
        team_mu.append(mu_summed)
        team_ss.append(ss_summed)
    collective = 0.0
    for ss in team_ss:
        collective += ss + _BETA_SQUARED
    c = math.sqrt(collective)
    sum_q = [0.0] * k
    seen = [False] * k
    for i in range(k):
        summed = math.exp(team_mu[i] / c)
        for q in range(k):
            if rank[i] >= rank[q]:
                if seen[q]:
                    sum_q[q] += summed
                else:
                    sum_q[q], seen[q] = summed, True
    a = [sum(1 for q in range(k) if rank[q] == rank[i]) for i in range(k)]
    out: list[list[tuple[float, float]]] = [[] for _ in range(k)]
    for i in range(k):
        omega = 0.0
        delta = 0.0
        e = math.exp(team_mu[i] / c)
        for q in range(k):
            t = e / sum_q[q]
            if rank[q] <= rank[i]:
                delta += t * (1 - t) / a[q]
                if q == i:
                    omega += (1 - t) / a[q]
                else:
                    omega -= t / a[q]
        tss = team_ss[i]
        omega *= tss / c
        delta *= tss / c ** 2
        delta *= math.sqrt(tss) / c  # gamma
        new = []
        for mu, sigma in sorted_teams[i]:  # openskill multiplies (or divides) by a weight of 1.0: exact
            share = sigma ** 2 / tss
            new.append((mu + share * omega, sigma * math.sqrt(max(1 - share * delta, _KAPPA))))
        out[order[i]] = new
    return out


def points(scheme: Mapping[str, int], *, games: int, wins: int, survived: int, objectives: int) -> int:
    """A standings row's points: per finished game played, won, survived, objective met."""
    return (scheme.get("played", 0) * games + scheme.get("win", 0) * wins
            + scheme.get("survived", 0) * survived + scheme.get("objective", 0) * objectives)
