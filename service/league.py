"""Players, clubs, leagues, seasons and where each game counts: aggregates of facts (decision 0020).

They live in the same event store as the games (one log, one backup, one tracking position)
and carry the same hash chain, so ``nemesis-archive verify`` covers them too. Nothing is ever
edited: a rename, an alias, a merge, a game moved to another season or hidden from the
standings is one more appended event.

- ``Registry`` (one per archive): players as identities. A name or alias resolves to one
  player; a merge points a duplicate at the player it joins (both keep their history).
- ``Club`` (one per club, its id derived from its slug, so two clubs cannot share a slug):
  its leagues (each with its points scheme), the leagues' seasons, and members' roles
  (admin / recorder / member: facts now, rights later).
- ``Placement`` (one per game, its id derived from the game's): the season the game counts
  in (or explicitly none) and whether it is hidden from standings and lists.

Stored topics (pinned by tests/integration/test_leagues.py): ``service.league:Registry.*``,
``service.league:Club.*``, ``service.league:Placement.*``.
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date
from typing import Any, Mapping
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate, event
from eventsourcing.utils import get_topic

from service import chain as hash_chain
from service import hygiene
from service.errors import InvalidInput

NAMESPACE = uuid5(NAMESPACE_URL, "nemesis-archive/leagues")
REGISTRY_ID = uuid5(NAMESPACE, "registry")
ROLES = ("admin", "recorder", "member")


def check_role(role: str) -> None:
    if role not in ROLES:
        raise InvalidInput(f"role must be one of {', '.join(ROLES)}", field="role")


# points per finished game under a league's scheme (docs/decisions/0020-leagues.md)
DEFAULT_POINTS = {"played": 0, "win": 3, "survived": 1, "objective": 1}
MAX_POINTS = 100


def name_key(name: str) -> str:
    """How names are compared: case-insensitively, spaces collapsed (the games' rule, decision 0002)."""
    return " ".join(name.split()).casefold()


def slugify(name: str) -> str:
    """``"Friday Night Club"`` → ``"friday-night-club"`` (accents dropped; ``-`` for anything else)."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:60] or "x"


def club_id_for(slug: str) -> UUID:
    return uuid5(NAMESPACE, f"club:{slug}")


def placement_id_for(game_id: UUID) -> UUID:
    return uuid5(NAMESPACE, f"placement:{game_id}")


def clean_name(value: Any, field: str, limit: int = hygiene.MAX_NAME) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{field} must be a non-empty name", field=field)
    value = " ".join(value.split())
    hygiene.check_text(value, field, limit)
    return value


def points_scheme(value: Mapping[str, Any] | None, field: str = "points") -> dict[str, int]:
    """A league's points per finished game: ``played``, ``win``, ``survived``, ``objective`` (integers 0..100)."""
    scheme = dict(DEFAULT_POINTS)
    if value is None:
        return scheme
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{field} must be an object of points", field=field)
    for key, points in value.items():
        if key not in DEFAULT_POINTS:
            raise InvalidInput(f"{field}.{key} is not a points rule; known: {', '.join(DEFAULT_POINTS)}", field=f"{field}.{key}")
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= MAX_POINTS:
            raise InvalidInput(f"{field}.{key} must be a whole number from 0 to {MAX_POINTS}", field=f"{field}.{key}")
        scheme[key] = points
    return scheme


class Chained(Aggregate):
    """Every event linked to the one before by a hash, exactly as a game's (service/chain.py)."""

    chain: str | None = None

    @classmethod
    def _create(cls, event_class, *, id=None, **kwargs):  # noqa: A002 - the library's name
        kwargs["timestamp"] = kwargs.get("timestamp") or event_class.create_timestamp()
        agg_id = id if id is not None else cls.create_id(**{k: kwargs[k] for k in cls._id_fields})
        fields = {**kwargs, "originator_topic": get_topic(cls)}
        kwargs["chain"] = hash_chain.link(hash_chain.GENESIS, agg_id, cls.INITIAL_VERSION, get_topic(event_class), fields)
        return super()._create(event_class, id=id, **kwargs)

    def trigger_event(self, event_class, **kwargs) -> None:
        kwargs["timestamp"] = kwargs.get("timestamp") or event_class.create_timestamp()
        kwargs["chain"] = hash_chain.link(self.chain or hash_chain.GENESIS, self.id, self.version + 1, get_topic(event_class), kwargs)
        super().trigger_event(event_class, **kwargs)

    _id_fields: tuple[str, ...] = ()


# -- players ------------------------------------------------------------------------------------


class Registry(Chained):
    """Every player of the archive: names, aliases and merges as facts."""

    _id_fields = ("registry_id",)

    class Opened(Aggregate.Created):
        registry_id: UUID
        chain: str | None

    class PlayerRegistered(Aggregate.Event):
        player_id: UUID
        name: str
        chain: str | None

    class PlayerRenamed(Aggregate.Event):
        player_id: UUID
        name: str
        chain: str | None

    class AliasAdded(Aggregate.Event):
        player_id: UUID
        alias: str
        chain: str | None

    class PlayersMerged(Aggregate.Event):
        duplicate_id: UUID
        into_id: UUID
        reason: str | None
        chain: str | None

    @staticmethod
    def create_id(registry_id: UUID) -> UUID:
        return registry_id

    @event(Opened)
    def __init__(self, registry_id: UUID, chain: str | None = None) -> None:
        self.chain = chain
        self.players: dict[UUID, dict[str, Any]] = {}
        self.keys: dict[str, UUID] = {}  # name or alias key → the player who holds it

    # -- reading --

    def root(self, player_id: UUID) -> UUID:
        seen = set()
        while self.players[player_id]["merged_into"] is not None and player_id not in seen:
            seen.add(player_id)
            player_id = self.players[player_id]["merged_into"]
        return player_id

    def find(self, name_or_id: str | UUID) -> UUID | None:
        """A player by id, name or alias (merged players resolve to who they joined)."""
        if isinstance(name_or_id, UUID):
            return self.root(name_or_id) if name_or_id in self.players else None
        try:
            pid = UUID(str(name_or_id))
            if pid in self.players:
                return self.root(pid)
        except ValueError:
            pass
        found = self.keys.get(name_key(str(name_or_id)))
        return self.root(found) if found else None

    def _claim(self, key: str, player_id: UUID, field: str) -> None:
        holder = self.keys.get(key)
        if holder is not None and self.root(holder) != self.root(player_id):
            raise InvalidInput(
                f"{field}: the name {key!r} already belongs to {self.players[self.root(holder)]['name']!r}"
                " (merge the two players if they are one person)", field=field,
            )

    # -- commands --

    def register(self, name: str, player_id: UUID | None = None) -> UUID:
        name = clean_name(name, "name")
        player_id = player_id or uuid4()
        if player_id in self.players:
            raise InvalidInput(f"player {player_id} is already registered", field="player_id")
        if name_key(name) in self.keys:
            self._claim(name_key(name), player_id, "name")
        self._registered(player_id=player_id, name=name)
        return player_id

    def rename(self, player_id: UUID, name: str) -> None:
        pid = self._live(player_id)
        name = clean_name(name, "name")
        self._claim(name_key(name), pid, "name")
        self._renamed(player_id=pid, name=name)

    def add_alias(self, player_id: UUID, alias: str) -> None:
        pid = self._live(player_id)
        alias = clean_name(alias, "alias")
        self._claim(name_key(alias), pid, "alias")
        if self.keys.get(name_key(alias)) is None:
            self._alias_added(player_id=pid, alias=alias)

    def merge(self, duplicate_id: UUID, into_id: UUID, reason: str | None = None) -> None:
        duplicate, into = self._live(duplicate_id, "duplicate"), self._live(into_id, "into")
        if duplicate == into:
            raise InvalidInput("a player cannot be merged into themselves", field="duplicate")
        if reason is not None:
            hygiene.check_text(reason, "reason", hygiene.MAX_TITLE)
        self._merged(duplicate_id=duplicate, into_id=into, reason=reason)

    def _live(self, player_id: UUID, field: str = "player") -> UUID:
        if player_id not in self.players:
            raise InvalidInput(f"{field}: no player {player_id}", field=field)
        if self.players[player_id]["merged_into"] is not None:
            into = self.root(player_id)
            raise InvalidInput(f"{field}: {self.players[player_id]['name']!r} was merged into "
                               f"{self.players[into]['name']!r} ({into})", field=field)
        return player_id

    # -- events --

    @event(PlayerRegistered)
    def _registered(self, player_id: UUID, name: str, chain: str | None = None) -> None:
        self.chain = chain
        self.players[player_id] = {"name": name, "aliases": [], "merged_into": None}
        self.keys.setdefault(name_key(name), player_id)

    @event(PlayerRenamed)
    def _renamed(self, player_id: UUID, name: str, chain: str | None = None) -> None:
        self.chain = chain
        # the old name stays an alias: the games that were recorded under it still link
        self.players[player_id]["aliases"].append(self.players[player_id]["name"])
        self.players[player_id]["name"] = name
        self.keys.setdefault(name_key(name), player_id)

    @event(AliasAdded)
    def _alias_added(self, player_id: UUID, alias: str, chain: str | None = None) -> None:
        self.chain = chain
        self.players[player_id]["aliases"].append(alias)
        self.keys.setdefault(name_key(alias), player_id)

    @event(PlayersMerged)
    def _merged(self, duplicate_id: UUID, into_id: UUID, reason: str | None, chain: str | None = None) -> None:
        self.chain = chain
        self.players[duplicate_id]["merged_into"] = into_id


# -- clubs, leagues, seasons ------------------------------------------------------------------------


class Club(Chained):
    """A club, its leagues (each with a points scheme) and their seasons, and its members' roles."""

    _id_fields = ("slug",)

    class Founded(Aggregate.Created):
        slug: str
        name: str
        chain: str | None

    class LeagueOpened(Aggregate.Event):
        league_id: UUID
        slug: str
        name: str
        points: dict
        rate_solo: bool
        chain: str | None

    class LeagueConfigured(Aggregate.Event):
        league_id: UUID
        points: dict
        rate_solo: bool
        chain: str | None

    class SeasonOpened(Aggregate.Event):
        season_id: UUID
        league_id: UUID
        slug: str
        name: str
        starts_on: str | None
        ends_on: str | None
        chain: str | None

    class LeagueVisibilitySet(Aggregate.Event):
        league_id: UUID
        members_only: bool
        chain: str | None

    class RoleGranted(Aggregate.Event):
        player_id: UUID
        role: str
        chain: str | None

    class RoleRevoked(Aggregate.Event):
        player_id: UUID
        role: str
        chain: str | None

    @staticmethod
    def create_id(slug: str) -> UUID:
        return club_id_for(slug)

    @event(Founded)
    def __init__(self, slug: str, name: str, chain: str | None = None) -> None:
        self.chain = chain
        self.slug = slug
        self.name = name
        self.leagues: dict[UUID, dict[str, Any]] = {}
        self.seasons: dict[UUID, dict[str, Any]] = {}
        self.roles: set[tuple[UUID, str]] = set()

    @classmethod
    def found(cls, name: str, slug: str | None = None) -> "Club":
        name = clean_name(name, "name", hygiene.MAX_LEAGUE)
        return cls(slug=_slug(slug, name), name=name)

    def league(self, slug: str) -> dict[str, Any]:
        for lid, league in self.leagues.items():
            if league["slug"] == slug:
                return {"league_id": lid, **league}
        raise InvalidInput(f"club {self.slug!r} has no league {slug!r}; its leagues: "
                           f"{', '.join(l['slug'] for l in self.leagues.values()) or 'none yet'}", field="league")

    def season(self, league_slug: str, slug: str) -> dict[str, Any]:
        league = self.league(league_slug)
        for sid, season in self.seasons.items():
            if season["league_id"] == league["league_id"] and season["slug"] == slug:
                return {"season_id": sid, **season}
        raise InvalidInput(f"league {league_slug!r} has no season {slug!r}", field="season")

    def open_league(self, name: str, slug: str | None = None, points: Mapping[str, Any] | None = None,
                    rate_solo: bool = False) -> UUID:
        name = clean_name(name, "name", hygiene.MAX_LEAGUE)
        slug = _slug(slug, name)
        if any(l["slug"] == slug for l in self.leagues.values()):
            raise InvalidInput(f"club {self.slug!r} already has a league {slug!r}", field="slug")
        league_id = uuid5(self.id, f"league:{slug}")
        self._league_opened(league_id=league_id, slug=slug, name=name, points=points_scheme(points),
                            rate_solo=_flag(rate_solo, "rate_solo"))
        return league_id

    def configure_league(self, league_slug: str, points: Mapping[str, Any] | None = None,
                         rate_solo: bool | None = None) -> None:
        league = self.league(league_slug)
        scheme = points_scheme({**league["points"], **(points or {})})
        solo = league["rate_solo"] if rate_solo is None else _flag(rate_solo, "rate_solo")
        if scheme != league["points"] or solo != league["rate_solo"]:
            self._league_configured(league_id=league["league_id"], points=scheme, rate_solo=solo)

    def open_season(self, league_slug: str, name: str, slug: str | None = None,
                    starts_on: str | date | None = None, ends_on: str | date | None = None) -> UUID:
        league = self.league(league_slug)
        name = clean_name(name, "name", hygiene.MAX_LEAGUE)
        slug = _slug(slug, name)
        if any(s["league_id"] == league["league_id"] and s["slug"] == slug for s in self.seasons.values()):
            raise InvalidInput(f"league {league_slug!r} already has a season {slug!r}", field="slug")
        start, end = _date(starts_on, "starts_on"), _date(ends_on, "ends_on")
        if start and end and end < start:
            raise InvalidInput(f"ends_on ({end}) is before starts_on ({start})", field="ends_on")
        season_id = uuid5(self.id, f"season:{league['slug']}/{slug}")
        self._season_opened(season_id=season_id, league_id=league["league_id"], slug=slug, name=name,
                            starts_on=start, ends_on=end)
        return season_id

    def set_members_only(self, league_slug: str, members_only: bool) -> None:
        """A members-only league's games and tables are seen by the club's members, recorders and admins only
        (decision 0024); a public one by everybody."""
        league = self.league(league_slug)
        flag = _flag(members_only, "members_only")
        if bool(league.get("members_only")) != flag:
            self._league_visibility_set(league_id=league["league_id"], members_only=flag)

    def roles_of(self, player_id: UUID | None) -> frozenset[str]:
        return frozenset(role for pid, role in self.roles if player_id is not None and pid == player_id)

    def grant(self, player_id: UUID, role: str) -> None:
        check_role(role)
        if (player_id, role) not in self.roles:
            self._role_granted(player_id=player_id, role=role)

    def revoke(self, player_id: UUID, role: str) -> None:
        if (player_id, role) in self.roles:
            self._role_revoked(player_id=player_id, role=role)

    @event(LeagueOpened)
    def _league_opened(self, league_id, slug, name, points, rate_solo, chain=None) -> None:
        self.chain = chain
        self.leagues[league_id] = {"slug": slug, "name": name, "points": dict(points), "rate_solo": rate_solo}

    @event(LeagueConfigured)
    def _league_configured(self, league_id, points, rate_solo, chain=None) -> None:
        self.chain = chain
        self.leagues[league_id].update(points=dict(points), rate_solo=rate_solo)

    @event(SeasonOpened)
    def _season_opened(self, season_id, league_id, slug, name, starts_on, ends_on, chain=None) -> None:
        self.chain = chain
        self.seasons[season_id] = {"league_id": league_id, "slug": slug, "name": name,
                                   "starts_on": starts_on, "ends_on": ends_on}

    @event(LeagueVisibilitySet)
    def _league_visibility_set(self, league_id, members_only, chain=None) -> None:
        self.chain = chain
        self.leagues[league_id]["members_only"] = members_only

    @event(RoleGranted)
    def _role_granted(self, player_id, role, chain=None) -> None:
        self.chain = chain
        self.roles.add((player_id, role))

    @event(RoleRevoked)
    def _role_revoked(self, player_id, role, chain=None) -> None:
        self.chain = chain
        self.roles.discard((player_id, role))


# -- where a game counts ---------------------------------------------------------------------------


class Placement(Chained):
    """A game's season (or explicitly none) and whether it is hidden: each change a new fact."""

    _id_fields = ("game_id",)

    class Started(Aggregate.Created):
        game_id: UUID
        chain: str | None

    class GamePlaced(Aggregate.Event):
        game_id: UUID
        club_id: UUID | None
        season_id: UUID | None  # None: counts in no season (taken out of its league)
        reason: str | None
        chain: str | None

    class GameHidden(Aggregate.Event):
        game_id: UUID
        reason: str
        chain: str | None

    class GameShown(Aggregate.Event):
        game_id: UUID
        reason: str | None
        chain: str | None

    @staticmethod
    def create_id(game_id: UUID) -> UUID:
        return placement_id_for(game_id)

    @event(Started)
    def __init__(self, game_id: UUID, chain: str | None = None) -> None:
        self.chain = chain
        self.game_id = game_id
        self.club_id: UUID | None = None
        self.season_id: UUID | None = None
        self.placed = False
        self.hidden = False

    def place(self, club_id: UUID | None, season_id: UUID | None, reason: str | None = None) -> bool:
        _reason(reason, "reason")
        if self.placed and self.season_id == season_id:
            return False
        self._placed(game_id=self.game_id, club_id=club_id, season_id=season_id, reason=reason)
        return True

    def hide(self, reason: str) -> bool:
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidInput("say why the game is hidden (a test game, a duplicate of …)", field="reason")
        _reason(reason, "reason")
        if self.hidden:
            return False
        self._hidden(game_id=self.game_id, reason=reason.strip())
        return True

    def show(self, reason: str | None = None) -> bool:
        _reason(reason, "reason")
        if not self.hidden:
            return False
        self._shown(game_id=self.game_id, reason=reason)
        return True

    @event(GamePlaced)
    def _placed(self, game_id, club_id, season_id, reason, chain=None) -> None:
        self.chain = chain
        self.club_id = club_id  # the rights gate goes straight to this club (decision 0052)
        self.season_id = season_id
        self.placed = True

    @event(GameHidden)
    def _hidden(self, game_id, reason, chain=None) -> None:
        self.chain = chain
        self.hidden = True

    @event(GameShown)
    def _shown(self, game_id, reason, chain=None) -> None:
        self.chain = chain
        self.hidden = False


LEAGUE_AGGREGATES = (Registry, Club, Placement)


def _slug(slug: str | None, name: str) -> str:
    if slug is None:
        return slugify(name)
    if not isinstance(slug, str) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) or len(slug) > 60:
        raise InvalidInput(f"slug {slug!r} must be lower-case letters and digits joined by '-', at most 60", field="slug")
    return slug


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{field} must be true or false", field=field)
    return value


def _date(value: str | date | None, field: str) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, date):
        return value.isoformat()
    try:
        return date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise InvalidInput(f"{field} must be a date like 2026-03-01, not {value!r}", field=field) from None


def _reason(reason: str | None, field: str) -> None:
    if reason is not None:
        if not isinstance(reason, str):
            raise InvalidInput(f"{field} must be text", field=field)
        hygiene.check_text(reason, field, hygiene.MAX_TITLE)
