"""The door for league facts: players, clubs, leagues, seasons and game placements (decision 0020).

An application over the same event store as the games (``name = "Games"``: the same tables, the
same notification log), so the projection worker reads games and league facts in one order
and one backup holds both. Each command loads one aggregate, appends, saves: all or nothing.
"""
from __future__ import annotations

import copy
import threading
from typing import Any, Callable, Mapping, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, StoredEvent
from psycopg.sql import SQL

from service.errors import ArchiveError, GameNotFound, InvalidInput
from service.league import (REGISTRY_ID, Club, Placement, Registry, check_role, club_id_for, placement_id_for,
                            slugify)

T = TypeVar("T")
ATTEMPTS = 5


class LeagueNotFound(ArchiveError):
    status = 404


class LeagueConflict(ArchiveError):
    status = 409


class LeagueBook(Application[UUID]):
    name = "Games"  # the games' tables: one log, one tracking position, one backup

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lock = threading.Lock()  # writers in this process take turns; others meet optimistic concurrency

    # -- loading --

    def registry(self) -> Registry:
        try:
            return self.repository.get(REGISTRY_ID)
        except AggregateNotFoundError:
            return Registry(registry_id=REGISTRY_ID)

    def club(self, slug: str) -> Club:
        try:
            return self.repository.get(club_id_for(slug))
        except AggregateNotFoundError:
            raise LeagueNotFound(f"no club {slug!r}", field="club") from None

    def club_to_read(self, club_id: UUID) -> Club | None:
        """The club for a reader that never changes it (the rights gate, a roles page), None if there is none.

        The library's cache hands out a deep copy of the cached club so that a command's changes cannot reach
        it: for a club with a dozen seasons and forty recorders that copy was most of a league game's append
        (decision 0053). A reader gets a shallow copy of the cached club instead, made as it is now: its
        leagues, seasons and roles are new containers (each copied whole, while no other thread can run), so a
        fast-forward by another request that adds a season or a role does not change them under its reader.
        The league and season entries inside are the cached ones: read them, never change them."""
        try:
            club = self.repository.get(club_id, deepcopy_from_cache=False)
        except AggregateNotFoundError:
            return None
        reading = copy.copy(club)
        reading.__dict__.update(leagues=club.leagues.copy(), seasons=club.seasons.copy(), roles=club.roles.copy())
        return reading

    def placement(self, game_id: UUID) -> Placement:
        try:
            return self.repository.get(placement_id_for(game_id))
        except AggregateNotFoundError:
            return Placement(game_id=game_id)

    def placement_statement(self, game_id: UUID) -> tuple[Any, list[Any]]:
        """The select of a placement's events (the library's own), for a caller that sends it together with other
        statements on one connection (the write gate, decision 0052); :meth:`placement_of` reads its rows."""
        return self.recorder.select_events_statement + SQL(" ORDER BY originator_version ASC"), [
            placement_id_for(game_id)]

    def placement_of(self, game_id: UUID, rows: list[Mapping[str, Any]]) -> Placement:
        """The placement those rows (of :meth:`placement_statement`) hold, as :meth:`placement` would load it."""
        aggregate = None
        for row in rows:
            stored = StoredEvent(originator_id=row["originator_id"], originator_version=row["originator_version"],
                                 topic=row["topic"], state=bytes(row["state"]))
            aggregate = self.mapper.to_domain_event(stored).mutate(aggregate)
        return aggregate if aggregate is not None else Placement(game_id=game_id)

    def _retry(self, load: Callable[[], T], change: Callable[[T], Any]) -> Any:
        """Load, change, save; a writer elsewhere that got there first means load again and retry."""
        with self._lock:
            for _ in range(ATTEMPTS):
                aggregate = load()
                result = change(aggregate)
                try:
                    self.save(aggregate)
                except IntegrityError:
                    continue
                return result
        raise LeagueConflict("others kept changing the same records; nothing was stored, retry", field="body")

    # -- players --

    def register_player(self, name: str, player_id: UUID | None = None) -> UUID:
        return self._retry(self.registry, lambda r: r.register(name, player_id))

    def rename_player(self, player: str | UUID, name: str) -> UUID:
        def change(r: Registry) -> UUID:
            pid = self._player(r, player, "player")
            r.rename(pid, name)
            return pid
        return self._retry(self.registry, change)

    def add_alias(self, player: str | UUID, alias: str) -> UUID:
        def change(r: Registry) -> UUID:
            pid = self._player(r, player, "player", register=True)
            r.add_alias(pid, alias)
            return pid
        return self._retry(self.registry, change)

    def merge_players(self, duplicate: str | UUID, into: str | UUID, reason: str | None = None) -> UUID:
        """Merge ``duplicate`` into ``into``. A name nobody registered yet (a name seen only on
        game seats) is registered in the same save, so merging two seat spellings is one step."""
        def change(r: Registry) -> UUID:
            keep = self._player(r, into, "into", register=True)
            drop = self._player(r, duplicate, "duplicate", register=True)
            r.merge(drop, keep, reason)
            return keep
        return self._retry(self.registry, change)

    @staticmethod
    def _player(r: Registry, who: str | UUID, field: str, register: bool = False) -> UUID:
        found = r.find(who)
        if found is None:
            if register and isinstance(who, str):
                try:
                    UUID(who)
                except ValueError:
                    return r.register(who)
            raise InvalidInput(f"{field}: no player {str(who)!r}", field=field)
        return found

    # -- clubs, leagues, seasons --

    def found_club(self, name: str, slug: str | None = None) -> Club:
        club = Club.found(name, slug)
        try:
            self.save(club)
        except IntegrityError:
            raise LeagueConflict(f"a club {club.slug!r} already exists", field="slug") from None
        return club

    def open_league(self, club: str, name: str, slug: str | None = None,
                    points: Mapping[str, Any] | None = None, rate_solo: bool = False) -> UUID:
        return self._retry(lambda: self.club(club), lambda c: c.open_league(name, slug, points, rate_solo))

    def configure_league(self, club: str, league: str, points: Mapping[str, Any] | None = None,
                         rate_solo: bool | None = None) -> None:
        self._retry(lambda: self.club(club), lambda c: c.configure_league(league, points, rate_solo))

    def open_season(self, club: str, league: str, name: str, slug: str | None = None,
                    starts_on=None, ends_on=None) -> UUID:
        return self._retry(lambda: self.club(club), lambda c: c.open_season(league, name, slug, starts_on, ends_on))

    def set_members_only(self, club: str, league: str, members_only: bool) -> None:
        self._retry(lambda: self.club(club), lambda c: c.set_members_only(league, members_only))

    def revoke_role(self, club: str, player: str | UUID, role: str) -> None:
        pid = self._player(self.registry(), player, "player")
        self._retry(lambda: self.club(club), lambda c: c.revoke(pid, role))

    def grant_role(self, club: str, player: str | UUID, role: str, *, register: bool = False) -> None:
        """``register``: a name nobody registered is registered first (it then claims the games played under it,
        decision 0020), as the club roles page offers; the role and the club are checked before that."""
        registry = self.registry()
        if register and isinstance(player, str) and registry.find(player) is None:
            check_role(role)
            self.club(club)  # both checked first: a refused grant leaves no new player behind
            pid = self.register_player(player)
        else:
            pid = self._player(registry, player, "player")
        self._retry(lambda: self.club(club), lambda c: c.grant(pid, role))

    # -- games --

    def place_game(self, game_id: UUID, club: str | None, league: str | None, season: str | None,
                   reason: str | None = None, *, games=None) -> UUID | None:
        """Count ``game_id`` in a season (club, league and season slugs), or in none (all three None)."""
        self._game_exists(game_id, games)
        if club is None and league is None and season is None:
            club_id = season_id = None
        elif club and league and season:
            c = self.club(club)
            club_id, season_id = c.id, c.season(league, season)["season_id"]
        else:
            raise InvalidInput("name the club, league and season together (or none of them)", field="season")
        self._retry(lambda: self.placement(game_id), lambda p: p.place(club_id, season_id, reason))
        return season_id

    def hide_game(self, game_id: UUID, reason: str, *, games=None) -> bool:
        self._game_exists(game_id, games)
        return self._retry(lambda: self.placement(game_id), lambda p: p.hide(reason))

    def show_game(self, game_id: UUID, reason: str | None = None, *, games=None) -> bool:
        self._game_exists(game_id, games)
        return self._retry(lambda: self.placement(game_id), lambda p: p.show(reason))

    @staticmethod
    def _game_exists(game_id: UUID, games) -> None:
        if games is not None and not games.exists(game_id):
            raise GameNotFound(f"no game {game_id}", field="game_id")


def adopt_header_leagues(book: LeagueBook, names: list[str], club_name: str = "Archive") -> list[str]:
    """Give every league name found in games' headers a league (in club ``club_name``) with an
    open-ended season "All games", so the games recorded under it count somewhere.

    Idempotent: a league that exists already (by its slug) is kept. Returns what was opened.
    """
    slug = slugify(club_name)
    try:
        club = book.club(slug)
    except LeagueNotFound:
        club = book.found_club(club_name, slug)
    opened = []
    for name in sorted({n for n in names if n and n.strip()}, key=str.casefold):
        league_slug = slugify(name)
        if any(l["slug"] == league_slug for l in club.leagues.values()):
            continue
        book.open_league(slug, name, league_slug)
        book.open_season(slug, league_slug, "All games", "all")
        opened.append(name)
        club = book.club(slug)
    return opened
