"""The demo club: a league whose season holds the demo games plus generated club nights.

Idempotent: games have ids derived from their seed, league facts are appended only when
missing. Generated games are legal random games (service/rules/lockdown/generate.py) with
names from a small club, spread over autumn 2026, so the standings and ratings have history.
"""
from __future__ import annotations

import random
from datetime import date, timedelta
from uuid import NAMESPACE_URL, uuid5

from service.league_book import LeagueBook, LeagueNotFound
from service.samples import generated

CLUB, LEAGUE, SEASON = "Demo club", "Demo league", "Autumn 2026"
CLUB_SLUG, LEAGUE_SLUG, SEASON_SLUG = "demo-club", "demo-league", "autumn-2026"
MEMBERS = ("Ada", "Bartek", "Chiara", "Dmitri", "Ewa", "Filip", "Greta", "Hugo")
GENERATED = 32  # club nights, generated and recorded on the first start only (about half a second each)
FIRST_NIGHT = date(2026, 9, 4)


def night_id(i: int):
    return uuid5(NAMESPACE_URL, f"nemesis-archive/demo/club-night-{5000 + i}")


def demo_game(i: int):
    """(header, facts) of club night ``i`` (0-based), deterministic."""
    rng = random.Random(2026 + i)
    seed = 5000 + i
    players = rng.choice((2, 3, 3, 4, 4, 5))
    mode = "coop" if i % 8 == 5 else "standard"
    header, facts = generated(seed=seed, players=players, mode=mode, max_rounds=20)
    names = rng.sample(MEMBERS, players)
    if "Ada" in names and i % 3 == 0:
        names[names.index("Ada")] = "Ada L."  # how some recorders wrote her: an alias links it
    header["players"] = [{"seat": p["seat"], "name": n} for p, n in zip(header["players"], names)]
    header["id"] = night_id(i)
    header["played_on"] = FIRST_NIGHT + timedelta(days=7 * (i // 2) + (i % 2))
    header["title"] = f"Club night {i + 1}"
    header["league"] = LEAGUE
    header["tags"] = ["demo", "generated"]
    return header, facts


def load_demo_league(games, book: LeagueBook, count: int = GENERATED) -> tuple[int, int]:
    """Record the generated games that are missing and the league facts; (games added, facts added)."""
    added = 0
    for i in range(count):
        if not games.exists(night_id(i)):  # generating a game takes a moment: only the missing ones
            games.import_game(*demo_game(i))
            added += 1
    appended = 0
    try:
        club = book.club(CLUB_SLUG)
    except LeagueNotFound:
        club = book.found_club(CLUB, CLUB_SLUG)
        appended += 1
    if not any(l["slug"] == LEAGUE_SLUG for l in club.leagues.values()):
        book.open_league(CLUB_SLUG, LEAGUE, LEAGUE_SLUG, points={"win": 3, "survived": 1, "objective": 1, "played": 0})
        appended += 1
    club = book.club(CLUB_SLUG)
    if not any(s["slug"] == SEASON_SLUG for s in club.seasons.values()):
        book.open_season(CLUB_SLUG, LEAGUE_SLUG, SEASON, SEASON_SLUG, "2026-09-01", "2026-12-31")
        appended += 1
    registry = book.registry()
    if registry.find("Ada") is None:
        book.register_player("Ada")
        book.add_alias("Ada", "Ada L.")
        appended += 2
    # one club night was entered twice by mistake: the copy is hidden from the standings, not deleted
    copy_id = uuid5(NAMESPACE_URL, "nemesis-archive/demo/club-night-duplicate")
    if not games.exists(copy_id):
        copy_header, copy_facts = demo_game(0)
        games.import_game({**copy_header, "id": copy_id, "title": "Club night 1 (entered twice)"}, copy_facts)
        added += 1
    if not book.placement(copy_id).hidden:
        book.hide_game(copy_id, "a duplicate of club night 1")
        appended += 1
    return added, appended
