"""How a Nemesis game becomes an openskill match (service/ratings.py), checked against openskill itself."""
from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from service.league import points_scheme, name_key, slugify
from service.errors import InvalidInput
from service.ratings import THE_GAME, is_rated, ordinal, points, rate_game

M = PlackettLuce()


def test_semi_coop_winners_share_first_place_the_rest_tie_below():
    got = rate_game("standard", [("a", "lost"), ("b", "won"), ("c", "won"), ("d", "lost")], {"a": (30.0, 5.0)})
    a, b, c, d = M.rating(mu=30, sigma=5), M.rating(), M.rating(), M.rating()
    want = M.rate([[a], [b], [c], [d]], ranks=[2, 1, 1, 2])
    for key, team in zip("abcd", want):
        assert got[key] == pytest.approx((team[0].mu, team[0].sigma))
    assert got["b"] == got["c"] and got["b"][0] > 25 > got["d"][0]


def test_nobody_won_is_a_draw_that_narrows_sigma():
    got = rate_game("standard", [("a", "lost"), ("b", "lost")], {})
    assert got["a"][0] == pytest.approx(25) and got["a"][1] < 25 / 3


def test_coop_is_one_team_against_the_game():
    got = rate_game("coop", [("a", "won"), ("b", "won")], {THE_GAME: (28.0, 4.0)})
    team, game = M.rate([[M.rating(), M.rating()], [M.rating(mu=28, sigma=4)]], ranks=[1, 2])
    assert got["a"] == pytest.approx((team[0].mu, team[0].sigma))
    assert got[THE_GAME] == pytest.approx((game[0].mu, game[0].sigma))
    lost = rate_game("coop", [("a", "lost"), ("b", "lost")], {})
    assert lost["a"][0] < 25 < lost[THE_GAME][0]


def test_only_decided_games_are_rated_and_solo_only_when_the_league_says_so():
    assert is_rated("standard", ["won", "lost"])
    assert not is_rated("standard", ["won", "undetermined"])
    assert not is_rated("standard", [None, None])  # unfinished
    assert not is_rated("solo", ["won"]) and is_rated("solo", ["won"], rate_solo=True)
    solo = rate_game("solo", [("ewa", "won")], {})
    assert solo["ewa"][0] > 25 > solo[THE_GAME][0]


def test_a_duplicate_on_two_seats_counts_once():
    assert set(rate_game("standard", [("a", "won"), ("a", "lost"), ("b", "lost")], {})) == {"a", "b"}


def test_points_and_schemes():
    assert points({"played": 1, "win": 3, "survived": 1, "objective": 2}, games=4, wins=1, survived=2, objectives=1) == 11
    assert points_scheme({"win": 5}) == {"played": 0, "win": 5, "survived": 1, "objective": 1}
    with pytest.raises(InvalidInput, match="points.draw"):
        points_scheme({"draw": 1})
    with pytest.raises(InvalidInput, match="points.win"):
        points_scheme({"win": True})
    assert ordinal(25, 25 / 3) == pytest.approx(0)


def test_names_and_slugs():
    assert name_key("  Ada   LOVELACE ") == "ada lovelace"
    assert slugify("Piątkowy Klub — Gdańsk!") == "piatkowy-klub-gdansk"


def _openskill(teams, ranks):
    got = M.rate([[M.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams], ranks=list(ranks))
    return [[(r.mu, r.sigma) for r in team] for team in got]


def test_plackett_luce_is_openskill_bit_for_bit_on_random_games():
    """service.ratings.plackett_luce replaces openskill's rate for speed: the same floats, not nearly."""
    import random

    from service.ratings import plackett_luce

    rng = random.Random(11)
    for _ in range(2000):
        shape = rng.choice(("seats", "seats", "coop"))
        if shape == "seats":  # semi-co-op: teams of one, winners rank 1, the rest 2
            n = rng.randint(2, 5)  # openskill refuses a match of one team
            teams = [[(rng.uniform(5, 45), rng.uniform(0.5, 25 / 3))] for _ in range(n)]
            ranks = [rng.choice((1, 2)) for _ in range(n)]
        else:  # co-op or solo: the players as one team against the game
            teams = [[(rng.uniform(5, 45), rng.uniform(0.5, 25 / 3)) for _ in range(rng.randint(1, 5))],
                     [(rng.uniform(5, 45), rng.uniform(0.5, 25 / 3))]]
            ranks = rng.choice(([1, 2], [2, 1]))
        assert plackett_luce(teams, ranks) == _openskill(teams, ranks), (teams, ranks)


def test_a_season_rated_game_by_game_equals_openskill_directly():
    """A small known season: rate_game's ratings, chained game after game, are openskill's own."""
    from service.ratings import DEFAULT

    season = [
        ("standard", [("a", "won"), ("b", "lost"), ("c", "lost")]),
        ("standard", [("a", "lost"), ("b", "won"), ("c", "won"), ("d", "lost")]),
        ("standard", [("b", "lost"), ("d", "lost")]),  # a draw
        ("coop", [("a", "won"), ("c", "won")]),
        ("coop", [("b", "lost"), ("d", "lost"), ("a", "lost")]),
        ("solo", [("d", "won")]),
        ("standard", [("c", "won"), ("d", "won"), ("a", "lost")]),
    ]
    mine, theirs = {}, {}
    for mode, seats in season:
        mine.update(rate_game(mode, seats, mine))
        players = [p for p, _ in seats]
        if mode == "standard":
            new = _openskill([[theirs.get(p, DEFAULT)] for p in players],
                             [1 if o == "won" else 2 for _, o in seats])
            theirs.update({p: t[0] for p, t in zip(players, new)})
        else:
            won = any(o == "won" for _, o in seats)
            team, game = _openskill([[theirs.get(p, DEFAULT) for p in players], [theirs.get(THE_GAME, DEFAULT)]],
                                    [1, 2] if won else [2, 1])
            theirs.update(dict(zip(players, team)))
            theirs[THE_GAME] = game[0]
    assert mine == theirs
