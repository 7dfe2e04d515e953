"""The board as SVG: a state in, one standalone SVG document out (like ``chess.svg.board``).

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1)
    >>> _ = g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    >>> svg = board(g.state, before=g.states[-2])
    >>> svg.startswith("<svg") and 'data-place="slot-04"' in svg
    True

No public source gives the geometry of either real board side (docs/rules-gaps.md): which
sector a room space is in, its printed number, the corridors. So the picture is an honest
*schematic*, the same for every side: one band per sector (S-01 at the top, as on the board),
its room spaces as cards in a grid, the elevator rooms stacked in a shaft column when every
sector has a row of its own, and bands for the spaces outside every sector and those whose
sector is not known; small bands share a row. Corridor numbers sit at
fixed places on a card's edge (1 top, 2 right, 3 bottom, 4 left), not where the board prints
them. Corridors are drawn as lines only where the board file declares them (solid) or where
recorded moves taught them (``learned``, dashed; decision 0005). The legend says all of this.

What changed since ``before`` (the state one step earlier) carries the class ``hl``; figures
that moved get an arrow from where they were. Every element has a ``<title>`` tooltip.
There are two layouts, wide (a screen) and ``narrow`` (a phone); ``styled=False`` leaves out the
``<style>`` for pages that link ``STYLE`` once (decision 0015). A layout and every fragment
that depends only on the board are computed once per board and layout; a draw is a diff of two
states and string joins (bench/board_draw.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape
from textwrap import wrap
from typing import Any, Callable, Iterable, Mapping

from service.rules.lockdown.board import AREA_PREFIX, CROSSROAD, TECHNICAL, Board, is_area
from service import i18n
from service.i18n import N_, _
from service.rules.lockdown.components import CHARACTERS, ROOMS, board as load_board
from service.rules.lockdown.names import local, shown
from service.rules.lockdown.state import DEAD, IN_BASE, LockdownState, who

# --- geometry (viewBox units; the picture scales to any width) -------------------------
WIDE, NARROW = 7, 4  # room cards per row: a screen, a phone (decision 0012)
M = 15  # outer margin
CW, CH = 146, 112  # room card
GAP = 10
BAND_HEAD = 28
PORT_R, NOISE_R = 9, 13
TOKEN_R = 15
ELEVATOR = "elevator"
SMALL_FONT = ' font-size="11"'

# --- constant fragments --------------------------------------------------------------
CHARACTER_FILL = {"red": "#e05a4f", "purple": "#a678e3", "green": "#4fbf7a", "white": "#eef1ee",
                  "blue": "#4d9be6", "orange": "#f0963c", None: "#b8c2bf"}
INTRUDER = {  # type -> (letter, fill)
    "larva": ("L", "#d8b27a"), "creeper": ("C", "#8bc34a"), "adult": ("A", "#c0392b"),
    "breeder": ("B", "#8e44ad"), "queen": ("Q", "#ff5a36"), "blank": ("?", "#777"),
}
ROOM_STRIPE = {"red": "#e05a4f", "white": "#eef1ee", "green": "#4fbf7a", "yellow": "#e8c547",
               "blue": "#4d9be6", "black": "#0b0f10"}
STATUS_TEXT = {"pod": N_("in a CSS pod"), "isolation": N_("locked in the Isolation Room"), "bunker": N_("in the Bunker"),
               "evacuated": N_("evacuated"), "dead": N_("dead")}
# the bands' titles and notes, drawn in the reader's language (the layout keeps the English ones)
BAND_WORDS = (N_("SECTOR NOT KNOWN"), N_("OUTSIDE THE SECTORS"), N_("MARS SURFACE"), N_("no space known"),
              N_("board file gives no sector"), N_("sector not known (docs/rules-gaps.md)"), N_("always dark"),
              N_("crossroads and areas; paths not known"))
# staggered so that the facing ports of neighbouring cards (2|4, 3|1) never overlap
PORT_XY = {1: (CW * 0.64, 0), 2: (CW, CH * 0.36), 3: (CW * 0.36, CH), 4: (0, CH * 0.64)}
DOOR_WH = {1: (34, 8), 3: (34, 8), 2: (8, 34), 4: (8, 34)}

STYLE = """
.nb-board{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:100%;height:auto;display:block}
.nb-board text{fill:#e6ece9}
.nb-board .bg{fill:#0d1214}
.nb-board .dim{fill:#8fa39b}
.nb-board .h1{font-size:22px;font-weight:700}
.nb-board .h2{font-size:17px;font-weight:600}
.nb-board .warn{fill:#ff7a5c;font-weight:700}
.nb-board .band{fill:#172024;stroke:#2a383e}
.nb-board .band-title{font-size:17px;font-weight:700;letter-spacing:.04em}
.nb-board .pw-on{fill:#ffd95a}.nb-board .pw-off{fill:#3a464b}
.nb-board .shaft{fill:#10171a;stroke:#3c4b52;stroke-dasharray:6 5}
.nb-board .card{fill:#243238;stroke:#4c5f66;stroke-width:1.5}
.nb-board .card.down{fill:#151d21;stroke:#33434a;stroke-dasharray:7 4}
.nb-board .card.special{fill:#2b2f3c;stroke:#5b6180}
.nb-board .card.tech{fill:#1b2226;stroke:#5b6b72;stroke-dasharray:5 4}
.nb-board .name{font-size:17px;font-weight:650}
.nb-board .slot{font-size:13px;fill:#8fa39b}
.nb-board .kind{font-size:38px;font-weight:800;fill:#34444a;text-anchor:middle}
.nb-board .port{fill:#0d1214;stroke:#5d7078;stroke-width:1.5}
.nb-board .port.tech{stroke:#9bb0b8;stroke-dasharray:3 2}
.nb-board .pn{font-size:11px;fill:#8fa39b;text-anchor:middle;dominant-baseline:central}
.nb-board .pn.lift{fill:#e6ece9;font-size:12px}
.nb-board .pn.count{fill:#e6ece9;font-size:13px}
.nb-board .noise{fill:#ffcc33;stroke:#1a1300;stroke-width:1.5}
.nb-board .noise+.pn,.nb-board .nn{fill:#1a1300;font-weight:800;font-size:13px}
.nb-board .door{fill:#b9c7d0;stroke:#10171a;stroke-width:1.5}
.nb-board .door.broken{fill:none;stroke:#e05a4f;stroke-dasharray:4 3;stroke-width:2}
.nb-board .cor{stroke:#6d8791;stroke-width:1.5;fill:none;opacity:.35}
.nb-board .cor.learned{stroke:#9fd3e6;stroke-width:2.5;stroke-dasharray:8 6;opacity:.9}
.nb-board .tok{stroke:#0d1214;stroke-width:2}
.nb-board .tl{font-size:15px;font-weight:800;text-anchor:middle;dominant-baseline:central;fill:#10171a}
.nb-board .tl.light{fill:#f4f7f5}
.nb-board .slime{fill:none;stroke:#9be15d;stroke-width:3;stroke-dasharray:4 3}
.nb-board .acting{fill:none;stroke:#ffffff;stroke-width:2}
.nb-board .pip{fill:#fff;stroke:#c0392b;stroke-width:1.5}
.nb-board .fire{fill:#ff7b29;stroke:#ffd166;stroke-width:1}
.nb-board .malf{fill:#ffd54a;stroke:#10171a;stroke-width:1}
.nb-board .items{fill:#10171a;stroke:#8fa39b}
.nb-board .small{font-size:13px}
.nb-board .egg{fill:#f3ead2;stroke:#8a7f62}
.nb-board .carcass{fill:#8a5a3c;stroke:#2b1a10}
.nb-board .corpse{fill:#59656a;stroke:#0d1214}
.nb-board .space{fill:#26353b;stroke:#3b4c53}
.nb-board .space.white{fill:#d9dfdc}.nb-board .space.white+text{fill:#10171a}
.nb-board .space.final{fill:#b3261e}
.nb-board .space-n{font-size:15px;font-weight:700;text-anchor:middle;dominant-baseline:central}
.nb-board .time{stroke:#fff;stroke-width:2.5}
.nb-board .sd{stroke:#10171a;stroke-width:1.5}
.nb-board .flag-red{fill:#e05a4f}.nb-board .flag-blue{fill:#4d9be6}
.nb-board .css{fill:#2f6f73;stroke:#9ad7d9}
.nb-board .chip{fill:#1e2a2f;stroke:#3b4c53}
.nb-board .chip.on{stroke:#5bc08a}
.nb-board .gone{fill:none;stroke:#c6d0cc;stroke-width:2;stroke-dasharray:4 3;opacity:.8}
.nb-board .arrow{stroke:#ffd54a;stroke-width:3.5;fill:none;opacity:.95}
.nb-board .arrow.intruder{stroke:#ff6b57}
.nb-board .hl>.card,.nb-board .hl.tok,.nb-board .hl>.tok,.nb-board .hl.noise,.nb-board .hl.door,.nb-board .hl.band,
.nb-board .hl>.chip,.nb-board .hl>.pw-on,.nb-board .hl>.pw-off,.nb-board .hl.time,.nb-board .hl>.sd,.nb-board .hl.fire,.nb-board .hl.malf,.nb-board .hl.egg,
.nb-board .hl>.space{stroke:#ffd54a;stroke-width:4;stroke-dasharray:none}
.nb-board .legend{font-size:14px}
"""

_STYLE_ELEMENT = f"<style>{STYLE}</style>"


@lru_cache(maxsize=None)
def _defs(ids: str) -> str:
    """Patterns and arrow heads; ``ids`` prefixes their ids so that two drawings can share a page."""
    return (
        '<defs>'
        f'<pattern id="{ids}-dark" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="12" height="12" fill="#111719"/><line x1="0" y1="0" x2="0" y2="12" stroke="#182125" stroke-width="4"/></pattern>'
        f'<marker id="{ids}-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
        '<path d="M0,0L10,5L0,10z" fill="#ffd54a"/></marker>'
        f'<marker id="{ids}-arrow-red" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
        '<path d="M0,0L10,5L0,10z" fill="#ff6b57"/></marker>'
        '</defs>'
    )


FLAME = "M0,-9C5,-4 7,0 5,5C3,9 -3,9 -5,5C-7,1 -3,-2 -2,-6C-1,-3 1,-2 0,-9z"
BOLT = "M2,-9L-5,1L-1,1L-3,9L5,-2L1,-2z"


def _e(text: Any) -> str:
    return escape(str(text), quote=True)


def _n(x: float) -> str:
    return f"{x:.5g}"


# --- layout (once per board) -------------------------------------------------------------


@dataclass(frozen=True)
class Band:
    key: str  # a sector id, "between", "unknown", "surface"
    title: str
    note: str
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Layout:
    board: str
    columns: int
    width: float
    ids: str  # prefix of the drawing's ids (patterns, markers, title)
    cards: Mapping[str, tuple[float, float]]  # place (or "technical", "area-n") -> card top-left
    bands: tuple[Band, ...]
    shaft: tuple[float, float, float, float] | None
    top: float  # where the bands start
    honesty: tuple[str, ...]  # what the legend says is schematic or unknown


def _fit(line: str, chars: int = 11, width: int = CW - 18) -> str:
    """Squeeze a line longer than ``chars`` into ``width`` (no font metrics on the server)."""
    return f' textLength="{width}" lengthAdjust="spacingAndGlyphs"' if len(line) > chars else ""


def _short(text: str) -> str:
    return text.split(" (")[0]


def _wrap(text: str, width: int = 13, lines: int = 2) -> list[str]:
    out: list[str] = []
    for word in text.split():
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 1] + "…"
    return out


TOP = 168  # header + time track + status chips


@lru_cache(maxsize=None)
def layout(board_id: str, columns: int = WIDE) -> Layout:
    """Where everything goes on ``board_id`` with ``columns`` room cards per row."""
    b = load_board(board_id)
    width = 2 * M + 2 * GAP + columns * CW + (columns - 1) * GAP
    elevators = {p.sector: p.id for p in b.places.values() if p.room and p.room.startswith("elevator_room") and p.sector}
    between = [p.id for p in b.places.values() if p.room and p.room.startswith("emergency_staircase")]
    groups: list[tuple[str, str, str, list[str]]] = []
    for sector in b.sectors:
        rest = [p.id for p in b.places.values() if p.sector == sector and p.id not in elevators.values()]
        groups.append((sector, f"SECTOR {sector}", "" if rest or sector in elevators else "no space known", rest))
    unknown = [p.id for p in b.places.values()
               if p.sector is None and p.id not in between and p.kind != CROSSROAD]
    if unknown:
        note = ("board file gives no sector" if b.synthetic else "sector not known (docs/rules-gaps.md)")
        groups.append(("unknown", "SECTOR NOT KNOWN", note, unknown))
    tech = [TECHNICAL] if (b.technical or not b.surface) else []
    if between or tech:
        groups.append(("between", "OUTSIDE THE SECTORS", "always dark", between + tech))
    if b.surface:
        groups.append(("surface", "MARS SURFACE", "crossroads and areas; paths not known",
                       list(b.crossroads) + list(b.area_keys())))
    # rows of bands: small consecutive bands share a row; a band alone in its row may wrap its cards
    count = {key: max(1, len(places) + (1 if key in elevators else 0)) for key, _, _, places in groups}
    rows_of: list[list[tuple[str, str, str, list[str]]]] = []
    for group in groups:
        row = rows_of[-1] if rows_of else None
        if row and sum(count[g[0]] for g in row) + count[group[0]] + len(row) <= columns:
            row.append(group)
        else:
            rows_of.append([group])
    # the elevator rooms stack in a shaft column when every sector band has a row of its own
    shafted = bool(elevators) and all(len(row) == 1 for row in rows_of if row[0][0] in b.sectors)
    cards: dict[str, tuple[float, float]] = {}
    bands = []
    y = TOP
    shaft_top = shaft_bottom = None
    for row in rows_of:
        inner = y + BAND_HEAD + GAP / 2
        if len(row) == 1:
            key, title, note, places = row[0]
            lead = elevators.get(key)
            in_shaft = shafted and key in b.sectors
            cols = columns - 1 if in_shaft else columns
            x0 = M + GAP + ((CW + GAP) if in_shaft else 0)
            if lead and in_shaft:
                cards[lead] = (M + GAP, inner)
                shaft_top = inner - 4 if shaft_top is None else shaft_top
                shaft_bottom = inner + CH + 4
            elif lead:
                places = [lead] + places
            for k, place in enumerate(places):
                cards[place] = (x0 + (k % cols) * (CW + GAP), inner + (k // cols) * (CH + GAP))
            rows = max(1, -(-len(places) // cols))
            h = BAND_HEAD + rows * (CH + GAP) + GAP
            bands.append(Band(key, title, note, M, y, width - 2 * M, h))
        else:
            h = BAND_HEAD + CH + 2 * GAP
            x = M
            for n, (key, title, note, places) in enumerate(row):
                places = ([elevators[key]] if key in elevators else []) + places
                for k, place in enumerate(places):
                    cards[place] = (x + GAP + k * (CW + GAP), inner)
                w = (width - M - x) if n == len(row) - 1 else max(1, len(places)) * (CW + GAP) + GAP
                bands.append(Band(key, title, note, x, y, w, h))
                x += w + GAP
        y += h + GAP
    shaft = (M + GAP - 4, shaft_top, CW + 8, shaft_bottom - shaft_top) if shafted and shaft_top is not None else None
    honesty = _honesty(b)
    return Layout(board_id, columns, width, f"nb{columns}", cards, tuple(bands), shaft, TOP, honesty)


def _honesty(b: Board) -> tuple[str, ...]:
    if b.synthetic:
        return ("SYNTHETIC TEST BOARD: its sectors and corridors (thin lines) are invented for tests; it is not the "
                "real board. Schematic: room spaces as cards in a grid per sector; corridor numbers sit at fixed card "
                "edges (1 top, 2 right, 3 bottom, 4 left), not where a board prints them.",)
    unknown = ("printed room numbers, the sectors of most spaces, buildings and the paths between crossroads"
               if b.surface else "printed room numbers, the sectors of the 16 room spaces and the corridors")
    return (f"Schematic, not the printed board: room spaces are cards in a grid in our own order; {unknown} are "
            "not known (docs/rules-gaps.md). A corridor number sits at a fixed card edge (1 top, 2 right, 3 bottom, "
            "4 left) and is drawn only once something lies in it. Dashed lines: corridors learned from recorded "
            "moves (decision 0005), not printed data.",)


# --- what changed ----------------------------------------------------------------------


@dataclass(frozen=True)
class Changes:
    rooms: frozenset[str] = frozenset()
    seats: frozenset[int] = frozenset()
    intruders: frozenset[str] = frozenset()
    noise_new: frozenset[str] = frozenset()
    noise_gone: frozenset[str] = frozenset()
    doors: frozenset[str] = frozenset()
    power: frozenset[str] = frozenset()
    time: bool = False
    tokens: bool = False  # self-destruct / alarm
    pods: bool = False
    gate: bool = False
    moves: tuple[tuple[str, str, str, str], ...] = ()  # (kind, id, from place, to place)
    gone_intruders: tuple[Any, ...] = ()


def changes(before: LockdownState | None, after: LockdownState) -> Changes:
    """What differs between two consecutive states (empty when ``before`` is None)."""
    if before is None or before is after:
        return Changes()
    rooms = frozenset(p for p, r in after.ship.rooms.items() if before.ship.rooms.get(p) != r)
    rooms |= frozenset(p for p in set(before.ship.objects) | set(after.ship.objects)
                       if before.ship.objects.get(p, ()) != after.ship.objects.get(p, ()))
    if before.colony.eggs != after.colony.eggs:
        rooms |= frozenset(p for p, r in after.ship.rooms.items() if r.tile == "nest")
    seats, moves = set(), []
    for s, c in after.crew.characters.items():
        was = before.crew.characters.get(s)
        if was != c:
            seats.add(s)
            if was and was.room and c.room and was.room != c.room:
                moves.append(("character", str(s), was.room, c.room))
    old = {i.id: i for i in before.colony.intruders}
    new = {i.id: i for i in after.colony.intruders}
    intruders = set()
    for iid, i in new.items():
        if old.get(iid) != i:
            intruders.add(iid)
            if iid in old and old[iid].room != i.room:
                moves.append(("intruder", iid, old[iid].room, i.room))
    doors = (before.ship.doors ^ after.ship.doors) | (before.ship.destroyed_doors ^ after.ship.destroyed_doors)
    return Changes(
        rooms=rooms, seats=frozenset(seats), intruders=frozenset(intruders),
        noise_new=after.ship.noise - before.ship.noise, noise_gone=before.ship.noise - after.ship.noise, doors=doors,
        power=frozenset(k for k, v in after.ship.power.items() if before.ship.power.get(k) != v)
        | (frozenset({ELEVATOR}) if before.ship.elevator != after.ship.elevator else frozenset()),
        time=before.clock.time != after.clock.time or before.ship.emergency_power != after.ship.emergency_power,
        tokens=before.systems.self_destruct != after.systems.self_destruct or before.systems.alarm != after.systems.alarm
        or before.systems.css_at != after.systems.css_at,
        pods=before.systems.pods != after.systems.pods, gate=before.systems.gate_open != after.systems.gate_open or before.systems.rover != after.systems.rover,
        moves=tuple(moves), gone_intruders=tuple(i for iid, i in old.items() if iid not in new),
    )


# --- drawing -----------------------------------------------------------------------------


def board(state: LockdownState, *, before: LockdownState | None = None,
          learned: Callable[[str], Iterable[Mapping[str, Any]]] | None = None, narrow: bool = False,
          styled: bool = True) -> str:
    """The board of ``state`` as an SVG document (a string).

    ``before``: the state one step earlier; what changed is highlighted (class ``hl``).
    ``learned``: looks up the corridors learned from recorded moves for a board id (rows with
    ``from_place``, ``to_place``, ``corridor``); asked only for boards without declared corridors.
    ``narrow``: fewer cards per row, for a phone (a taller picture with larger print).
    ``styled``: carry the drawing's ``<style>`` (a standalone document); False when a page links
    ``STYLE`` once as a stylesheet and swaps many drawings in (decision 0015).
    """
    b = state.board
    lay = layout(b.id, NARROW if narrow else WIDE)
    ch = changes(before, state)
    out: list[str] = [""]
    out.append(_header(state, lay.width))
    out.append(_time_track(state, ch, lay.width))
    out.append(_status(state, ch, lay.width))
    labels = []
    for band in lay.bands:
        rect, label = _band(state, band, ch, lay.ids)
        out.append(rect)
        labels.append(label)
    if lay.shaft:
        x, y, w, h = lay.shaft
        on = state.powered(ELEVATOR)
        at = (_("; the elevator is at %(place)s") % {"place": state.room_label(state.ship.elevator, name=local)}
              if state.ship.elevator else "")
        shaft = _("Elevator shaft: powered") if on else _("Elevator shaft: no power")
        out.append(f'<rect class="shaft" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="8">'
                   f'<title>{_e(shaft + at)}</title></rect>')
    out.extend(labels)
    out.append(_declared_corridors(b.id, lay.columns) if b.has_graph else "")
    marks = _marks(state, ch)
    here: dict[str, list[tuple[str, Any]]] = {}
    for c in state.crew.characters.values():
        if c.status == IN_BASE and c.room:
            here.setdefault(c.room, []).append(("c", c.seat))
    for i in state.colony.intruders:
        here.setdefault(i.room, []).append(("i", i))
    for place, (x, y) in lay.cards.items():
        if place == TECHNICAL or is_area(place):
            out.append(_special_space(state, place, x, y, ch))
        else:
            out.append(_card(state, lay.columns, place, x, y, ch, state.colony.eggs, marks.get(place, {}),
                             list(here.get(place, ()))))
    if not b.has_graph:
        out.append(_learned_corridors(state, lay, learned))  # few: drawn over the cards to be seen
    for kind, ident, src, dst in ch.moves:
        if src in lay.cards and dst in lay.cards:
            out.append(_arrow(lay, kind, ident, src, dst, state))
    legend, height = _legend(state, lay)
    out.append(legend)
    out.append("</svg>")
    w, ids = lay.width, lay.ids
    out[0] = (f'<svg xmlns="http://www.w3.org/2000/svg" class="nb-board" viewBox="0 0 {w} {_n(height)}" '
              f'role="img" aria-labelledby="{ids}-title"><title id="{ids}-title">{_e(_summary(state))}</title>'
              f'{_STYLE_ELEMENT if styled else ""}{_defs(ids)}<rect class="bg" width="{w}" height="{_n(height)}" rx="10"/>')
    return "".join(out)


def _hl(flag: bool) -> str:
    return " hl" if flag else ""


def _summary(state: LockdownState) -> str:
    b = state.board
    if state.end.ended:
        ending = _((state.end.ending or "ended").replace("_", " "))
        where = _("round %(n)s, game over (%(ending)s)") % {"n": state.clock.round, "ending": ending}
    else:
        where = _("setup") if state.clock.phase == "setup" else _("round %(n)s, %(phase)s phase") % {"n": state.clock.round, "phase": _(state.clock.phase)}
    return _("%(board)s: %(where)s, time %(space)s") % {"board": local(b), "where": where, "space": state.time_label}


def _header(state: LockdownState, W: float) -> str:
    b = state.board
    where = _summary(state).split(": ", 1)[1]
    out = [f'<text class="h1" x="{M}" y="{M + 20}">{_e(where[0].upper() + where[1:])}</text>']
    if W > 900:
        out.append(f'<text class="h2 dim" x="{W - M}" y="{M + 20}" text-anchor="end">Nemesis: Lockdown</text>')
    if b.synthetic:
        warning = _("SYNTHETIC TEST BOARD — invented sectors and corridors, not the real board")
        out.append(f'<text class="small warn" x="{M}" y="{M + 40}">{_e(warning)}</text>')
    else:
        schematic = _("schematic (see the legend)")
        out.append(f'<text class="small dim" x="{M}" y="{M + 40}">{_e(local(b))} · {_e(schematic)}</text>')
    return "".join(out)


TRACK_Y = 66


def _track_spaces(board_id: str, W: float) -> str:
    return _track_spaces_in(i18n.current(), board_id, W)


@lru_cache(maxsize=None)
def _track_spaces_in(lang: str, board_id: str, W: float) -> str:
    """The time track's printed spaces and power-threshold flags (the same in every state; tooltips in ``lang``,
    which the cache keys on)."""
    b = load_board(board_id)
    spaces = b.time_spaces
    y = TRACK_Y
    step = (W - 2 * M) / len(spaces)
    w = step - 6
    red = set(b.power_thresholds.get("red_drop_only_if_backup_power_inactive", ()))
    blue = set(b.power_thresholds.get("blue_drop_always", ()))
    white = set(range(1, b.isolation_opens_at + 1))
    out = []
    for i, space in enumerate(spaces):
        x = M + i * step + 3
        label = f"{space:02d}" if isinstance(space, int) else str(space)
        cls = "final" if i == len(spaces) - 1 else ("white" if space in white else "")
        tip = [_("Time space %(space)s") % {"space": label}]
        if space == b.isolation_opens_at:
            tip.append(_("the Isolation Room opens here"))
        if space in red:
            tip.append(_("red power threshold (drops only while backup power is inactive)"))
        if space in blue:
            tip.append(_("blue power threshold (power always drops)"))
        out.append(f'<g><title>{_e("; ".join(tip))}</title><rect class="space {cls}" x="{_n(x)}" y="{y}" '
                   f'width="{_n(w)}" height="34" rx="5"/><text class="space-n" x="{_n(x + w / 2)}" y="{y + 17}">'
                   f'{label}</text></g>')
        if space in red or space in blue:
            out.append(f'<path class="{"flag-red" if space in red else "flag-blue"}" '
                       f'd="M{_n(x - 3)},{y - 8}l4,6l-8,0z"/>')
    return "".join(out)


def _time_track(state: LockdownState, ch: Changes, W: float) -> str:
    b = state.board
    spaces = b.time_spaces
    y = TRACK_Y
    step = (W - 2 * M) / len(spaces)
    w = step - 6
    now = min(state.clock.time, len(spaces) - 1)
    out = ['<g class="track"><title>' + _e(_("Time track: the time token moves one space per round; red/blue flags "
                                              "are power thresholds, teal tokens below are CSS tokens")) + '</title>',
           _track_spaces(b.id, W)]
    for i, space in enumerate(spaces):
        if space in state.systems.css_at:
            x = M + i * step + 3
            label = b.time_label(i)
            out.append(f'<g class="{_hl(ch.tokens).strip()}"><title>{_e(_("CSS token under space %(space)s") % {"space": label})}</title>'
                       f'<rect class="css" x="{_n(x + w / 2 - 11)}" y="{y + 40}" width="22" height="12" rx="3"/></g>')
    tx = M + now * step + 3 + w / 2
    colour = "#4d9be6" if state.ship.emergency_power else "#e05a4f"
    side = _("blue side: backup power active") if state.ship.emergency_power else _("red side: backup power inactive")
    out.append(f'<circle class="time{_hl(ch.time)}" cx="{_n(tx)}" cy="{y + 17}" r="14" fill="{colour}" '
               f'fill-opacity=".9"><title>{_e(_("Time token on %(space)s (%(side)s)") % {"space": state.time_label, "side": side})}</title></circle>'
               f'<text class="space-n" x="{_n(tx)}" y="{y + 17}">{state.time_label}</text>')
    if state.systems.self_destruct:
        colour_sd, at = state.systems.self_destruct
        x = M + min(at, len(spaces) - 1) * step + 3 + w / 2
        fill = "#ffd23f" if colour_sd == "yellow" else "#ff3b30"
        tip = _("Self-destruct token (%(colour)s) on %(space)s") % {"colour": _(colour_sd), "space": b.time_label(at)}
        out.append(f'<g class="{_hl(ch.tokens).strip()}"><title>{_e(tip)}</title><path class="sd" d="M{_n(x)},{y - 14}l9,15l-18,0z" fill="{fill}"/></g>')
    if state.systems.alarm is not None:
        x = M + min(state.systems.alarm, len(spaces) - 1) * step + 3 + w / 2
        tip = _("Alarm procedure token on %(space)s") % {"space": b.time_label(state.systems.alarm)}
        out.append(f'<g class="{_hl(ch.tokens).strip()}"><title>{_e(tip)}</title><rect class="sd" x="{_n(x - 8)}" y="{y - 15}" width="16" height="13" rx="3" '
                   f'fill="#ff9f1c"/></g>')
    out.append("</g>")
    return "".join(out)


def _chip(x: float, y: float, w: float, text: str, tip: str, on: bool = False, hl: bool = False) -> str:
    return (f'<g class="{_hl(hl).strip()}"><title>{_e(tip)}</title><rect class="chip{" on" if on else ""}" '
            f'x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="28" rx="14"/>'
            f'<text class="small" x="{_n(x + w / 2)}" y="{_n(y + 18)}" text-anchor="middle">{_e(text)}</text></g>')


ROVER_WORDS = {"exit": N_("at the exit"), "bunker": N_("at the Bunker"), "away": N_("away from the base")}


def _status(state: LockdownState, ch: Changes, W: float) -> str:
    y = 124
    out = []
    x = M
    for letter in ("A", "B", "C"):
        seat = state.systems.pods.get(letter)
        tip = (_("CSS pod %(letter)s: %(who)s waits in it") % {"letter": letter, "who": who(state, seat)} if seat
               else _("CSS pod %(letter)s: empty") % {"letter": letter})
        out.append(_chip(x, y, 74, _("Pod %(letter)s") % {"letter": letter}, tip, on=bool(seat), hl=ch.pods))
        if seat:
            out.append(_character_token(state, seat, x + 66, y + 14, 10, hl=False))
        x += 82
    gate = _("Main gate open") if state.systems.gate_open else _("Main gate closed")
    out.append(_chip(x, y, 128, gate, gate
                     + (f" ({state.systems.gate_reason})" if state.systems.gate_reason else "")
                     + _("; rover: %(rover)s") % {"rover": _(ROVER_WORDS.get(state.systems.rover, str(state.systems.rover)))},
                     on=state.systems.gate_open, hl=ch.gate))
    x += 136
    if state.systems.launches and x + 128 < W - M - 198:
        out.append(_chip(x, y, 120, _("CSS launches %(n)s") % {"n": len(state.systems.launches)},
                         "CSS tokens revealed: " + ", ".join(map(str, state.systems.launches))))
        x += 128
    fires, malf = state.fires(), state.malfunctions()
    out.append(_chip(W - M - 190, y, 190, _("fire %(f)s/12 · malf. %(m)s/10") % {"f": fires, "m": malf},
                     _("Markers on the board: the base is destroyed by a 13th fire or an 11th malfunction marker")))
    return "".join(out)


def _band(state: LockdownState, band: Band, ch: Changes, ids: str) -> tuple[str, str]:
    """A band's background, and its title with the sector's power (drawn over the elevator shaft)."""
    sector = band.key if band.key.startswith("S-") else None
    on = state.powered(sector) if sector else None
    cls = " off" if on is False or band.key == "between" else ""
    hl = bool(sector and sector in ch.power)
    fill = f' fill="url(#{ids}-dark)"' if cls else ""
    out = [f'<rect class="band{cls}{_hl(hl)}"{fill} x="{_n(band.x)}" y="{_n(band.y)}" width="{_n(band.w)}" '
           f'height="{_n(band.h)}" rx="8"><title>{_e(_(band.title).capitalize() if not sector else _("Sector %(s)s") % {"s": sector})}'
           f'{": " + _e(_(band.note)) if band.note else ""}</title></rect>']
    shown_title = _("SECTOR %(s)s") % {"s": sector} if sector else _(band.title)
    title = sector if sector and band.w < 12 * len(shown_title) + 50 else shown_title
    label = [f'<text class="band-title" x="{_n(band.x + 12)}" y="{_n(band.y + 20)}">{_e(title)}</text>']
    if band.note == "no space known":
        no_space = _("no space known")
        label.append(f'<text class="small dim" x="{_n(band.x + band.w / 2)}" y="{_n(band.y + band.h / 2 + 14)}" '
                     f'text-anchor="middle">{_e(no_space)}</text>')
    note = _(band.note)
    if sector and sector in state.ship.power:
        token, is_on = state.ship.power[sector]
        note = full = (_("power on (power token %(t)s)") if is_on else _("power OFF — dark (power token %(t)s)")) % {"t": token}
        if band.w < 12 * len(title) + 7 * len(note) + 60:
            note = _("on") if is_on else _("dark")
        bx = band.x + band.w - 22
        label.append(f'<circle class="{"pw-on" if is_on else "pw-off"}" cx="{_n(bx)}" cy="{_n(band.y + 14)}" r="8">'
                     f'<title>{_e(sector)}: {_e(full)}</title></circle>')
    if note and band.w >= 12 * len(title) + 7 * len(note) + 60:
        label.append(f'<text class="small dim" x="{_n(band.x + band.w - 38)}" y="{_n(band.y + 19)}" '
                     f'text-anchor="end">{_e(note)}</text>')
    return "".join(out), "".join(label)


def _learned_corridors(state: LockdownState, lay: Layout, learned) -> str:
    b = state.board
    out = []
    if learned is not None:
        for row in learned(b.id) or ():
            a, z, n = row.get("from_place"), row.get("to_place"), row.get("corridor")
            if a in lay.cards and z in lay.cards and isinstance(n, int) and n in PORT_XY:
                moves = row.get("moves")
                tip = (_("Learned corridor: from %(a)s into %(z)s through its corridor %(n)s") % {"a": a, "z": z, "n": n}
                       + (_(" (%(n)s recorded moves)") % {"n": moves} if moves else "") + _("; not printed data"))
                out.append(_line(lay, a, None, z, n, "cor learned", tip))
                out.append(_port(b.id, lay.columns, z, n))
    return "".join(out)


def _declared_corridors(board_id: str, columns: int) -> str:
    return _declared_corridors_in(i18n.current(), board_id, columns)


@lru_cache(maxsize=None)
def _declared_corridors_in(language: str, board_id: str, columns: int) -> str:
    b, lay = load_board(board_id), layout(board_id, columns)
    word = _("Corridor %(n)s")
    return "".join(_line(lay, pa, na, pb, nb, "cor", f"{word % {'n': c.id}}: {pa} ({na}) – {pb} ({nb})")
                   for c in b.corridors.values() if len(c.ends) == 2 and all(p in lay.cards for p, _ in c.ends)
                   for (pa, na), (pb, nb) in [c.ends])


def _port_xy(lay: Layout, place: str, number: int | None) -> tuple[float, float]:
    x, y = lay.cards[place]
    dx, dy = PORT_XY.get(number, (CW / 2, CH / 2)) if number else (CW / 2, CH / 2)
    return x + dx, y + dy


def _line(lay: Layout, a: str, na: int | None, z: str, nz: int | None, cls: str, tip: str) -> str:
    x1, y1 = _port_xy(lay, a, na)
    x2, y2 = _port_xy(lay, z, nz)
    return (f'<path class="{cls}" d="M{_n(x1)},{_n(y1)}L{_n(x2)},{_n(y2)}">'
            f'<title>{_e(tip)}</title></path>')


def _arrow(lay: Layout, kind: str, ident: str, src: str, dst: str, state: LockdownState) -> str:
    (x1, y1), (x2, y2) = lay.cards[src], lay.cards[dst]
    x1, y1, x2, y2 = x1 + CW / 2, y1 + CH / 2, x2 + CW / 2, y2 + CH / 2
    mx, my = (x1 + x2) / 2 + (y2 - y1) * 0.15, (y1 + y2) / 2 - (x2 - x1) * 0.15
    name = who(state, int(ident)) if kind == "character" else _("intruder %(id)s") % {"id": ident}
    marker = f"{lay.ids}-arrow" + ("-red" if kind == "intruder" else "")
    return (f'<path class="arrow {kind} hl" marker-end="url(#{marker})" d="M{_n(x1)},{_n(y1)}Q{_n(mx)},{_n(my)} {_n(x2)},{_n(y2)}">'
            f'<title>{_e(_("%(who)s moved from %(src)s to %(dst)s") % {"who": name, "src": state.room_label(src, name=local), "dst": state.room_label(dst, name=local)})}</title></path>')


def _character_token(state: LockdownState, seat: int, x: float, y: float, r: float = TOKEN_R,
                     hl: bool = False) -> str:
    c = state.crew.characters[seat]
    card = CHARACTERS[c.character] if c.character and c.character in CHARACTERS else None
    colour = card.extra.get("colour") if card else None
    fill = CHARACTER_FILL.get(colour, CHARACTER_FILL[None])
    light = colour in ("purple", "blue", "red") or colour is None
    tip = [who(state, seat)]
    if c.light or c.serious:
        tip.append(_("%(light)s light, %(serious)s serious wound(s)") % {"light": c.light, "serious": len(c.serious)})
    if c.slime:
        tip.append(_("slimed"))
    if c.objects:
        tip.append(_("carries %(objects)s") % {"objects": ", ".join(o.split(":")[0] for o in c.objects)})
    if state.acting() == seat:
        tip.append(_("to act"))
    extra = ""
    if c.slime:
        extra += f'<circle class="slime" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r + 4)}"/>'
    if state.acting() == seat:
        extra += f'<circle class="acting" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r + 3)}"/>'
    return (f'<g class="figure character{_hl(hl)}" data-seat="{seat}"><title>{_e("; ".join(tip))}</title>{extra}'
            f'<circle class="tok" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}"/>'
            f'<text class="tl{" light" if light and colour != "white" else ""}" x="{_n(x)}" y="{_n(y)}"'
            f'{"" if r >= TOKEN_R else SMALL_FONT}>{seat}</text></g>')


def _intruder_token(state: LockdownState, i: Any, x: float, y: float, hl: bool) -> str:
    letter, fill = INTRUDER.get(i.kind, ("?", "#777"))
    r = TOKEN_R + 1
    pips = "".join(f'<circle class="pip" cx="{_n(x - r + 6 + k * 8)}" cy="{_n(y - r + 2)}" r="3.5"/>'
                   for k in range(min(i.injuries, 4)))
    tip = f"{shown('intruder', i.kind, i.kind.title())} ({i.id})"
    if i.injuries:
        tip += ", " + _("injuries: %(n)s") % {"n": i.injuries}
    return (f'<g class="figure intruder{_hl(hl)}" data-intruder="{_e(i.id)}" data-kind="{_e(i.kind)}">'
            f'<title>{_e(tip)}</title><path class="tok" fill="{fill}" '
            f'd="M{_n(x)},{_n(y - r)}L{_n(x + r)},{_n(y)}L{_n(x)},{_n(y + r)}L{_n(x - r)},{_n(y)}z"/>'
            f'<text class="tl light" x="{_n(x)}" y="{_n(y)}">{letter}</text>{pips}</g>')


def _object_token(kind: str, seat: str | None, x: float, y: float, hl: bool, count: int = 1) -> str:
    label = _({"egg": N_("Egg"), "carcass": N_("Carcass"), "corpse": N_("Corpse")}.get(kind, kind))
    if count > 1:
        tip = _("%(n)s eggs in the Nest") % {"n": count}
    elif seat:
        tip = _("%(label)s of seat %(seat)s on the floor") % {"label": label, "seat": seat}
    else:
        tip = _("%(label)s on the floor") % {"label": label}
    if kind == "egg":
        shape = f'<ellipse class="egg{_hl(hl)}" cx="{_n(x)}" cy="{_n(y)}" rx="9" ry="12"/>'
    elif kind == "carcass":
        shape = f'<rect class="carcass tok{_hl(hl)}" x="{_n(x - 11)}" y="{_n(y - 8)}" width="22" height="16" rx="6"/>'
    else:
        shape = (f'<rect class="corpse tok{_hl(hl)}" x="{_n(x - 12)}" y="{_n(y - 12)}" width="24" height="24" rx="4"/>'
                 f'<text class="tl light" x="{_n(x)}" y="{_n(y)}">{_e(seat or "✝")}</text>')
    more = f'<text class="small" x="{_n(x + 12)}" y="{_n(y + 5)}">×{count}</text>' if count > 1 else ""
    return f'<g class="object" data-object="{_e(kind)}"><title>{_e(tip)}</title>{shape}{more}</g>'


def _marks(state: LockdownState, ch: Changes) -> dict[str, dict[int, list[tuple[str, str]]]]:
    """Noise markers and doors per place and corridor number: ``{place: {n: [("noise"|"door", key)]}}``."""
    b = state.board
    out: dict[str, dict[int, list[tuple[str, str]]]] = {}
    for what, keys in (("noise", state.ship.noise | ch.noise_gone),
                       ("door", state.ship.doors | state.ship.destroyed_doors | ch.doors)):
        for key in keys:
            if key == TECHNICAL or is_area(key):
                continue  # drawn on their own spaces
            for place in b.rooms_of(key):
                n = b.number_at(key, place)
                if n in PORT_XY:
                    out.setdefault(place, {}).setdefault(n, []).append((what, key))
    return out


def _port(board_id: str, columns: int, place: str, n: int) -> str:
    return _port_in(i18n.current(), board_id, columns, place, n)


@lru_cache(maxsize=None)
def _port_in(lang: str, board_id: str, columns: int, place: str, n: int) -> str:
    """A corridor's port with its tooltip in ``lang`` (the cache keys on it)."""
    b, (x, y) = load_board(board_id), layout(board_id, columns).cards[place]
    px, py = x + PORT_XY[n][0], y + PORT_XY[n][1]
    tech = " tech" if b.technical.get(place) == n else ""
    other = None
    if b.has_graph:
        key = b.corridor_key(place, n)
        other = b.other_end(key, place) if key else None
    if other:  # a room printed on the board by its name; a slot by its space
        where = local(ROOMS[other]) if other in ROOMS else other
        tip = _("Corridor %(n)s to %(room)s") % {"n": n, "room": where}
    else:
        tip = _("Corridor %(n)s") % {"n": n}
    if tech:
        tip += " " + _("(technical corridor entrance)")
    return (f'<g class="port"><title>{_e(tip)}</title><circle class="port{tech}" cx="{_n(px)}" '
            f'cy="{_n(py)}" r="{PORT_R}"/><text class="pn" x="{_n(px)}" y="{_n(py)}">{n}</text></g>')


def _ports(state: LockdownState, columns: int, place: str, x: float, y: float, ch: Changes,
           marks: Mapping[int, list[tuple[str, str]]]) -> str:
    b = state.board
    out: list[str] = []
    if b.is_crossroad(place):
        return ""
    known = b.has_graph
    for n in (b.numbers_of(place) if known else sorted(marks)):
        here = marks.get(n)
        if not here:
            out.append(_port(b.id, columns, place, n))
            continue
        px, py = x + PORT_XY[n][0], y + PORT_XY[n][1]
        noise = None
        for what, key in here:
            if what == "noise":
                noise = key
                continue
            broken, closed = key in state.ship.destroyed_doors, key in state.ship.doors
            if broken or closed:
                dw, dh = DOOR_WH[n]
                tip = (_("Destroyed door in corridor %(n)s of %(room)s") if broken else
                       _("Closed door in corridor %(n)s of %(room)s")) % {"n": n, "room": state.room_label(place, name=local)}
                out.append(f'<rect class="door{" broken" if broken else ""}{_hl(key in ch.doors)}" '
                           f'x="{_n(px - dw / 2)}" y="{_n(py - dh / 2)}" width="{dw}" height="{dh}" rx="2">'
                           f'<title>{_e(tip)}</title></rect>')
        if noise is None:
            out.append(_port(b.id, columns, place, n))
        elif noise in state.ship.noise:
            tip = _("Noise marker in corridor %(n)s of %(room)s") % {"n": n, "room": state.room_label(place, name=local)} \
                + (f" ({noise})" if known else "")
            out.append(f'<g class="noise-marker" data-corridor="{_e(noise)}"><title>{_e(tip)}</title>'
                       f'<circle class="noise{_hl(noise in ch.noise_new)}" cx="{_n(px)}" cy="{_n(py)}" r="{NOISE_R}"/>'
                       f'<text class="pn nn" x="{_n(px)}" y="{_n(py)}">{n}</text></g>')
        else:
            out.append(f'<circle class="gone" cx="{_n(px)}" cy="{_n(py)}" r="{NOISE_R}">'
                       f'<title>{_e(_("Noise marker removed from corridor %(n)s") % {"n": n})}</title></circle>')
    return "".join(out)


def _card_face(board_id: str, columns: int, place: str, kind: str, tile_id: str | None, face_up: bool) -> str:
    """The unchanging part of a room card: frame, colour stripe, space label, name or face-down back."""
    return _card_face_in(i18n.current(), board_id, columns, place, kind, tile_id, face_up)


@lru_cache(maxsize=None)
def _card_face_in(lang: str, board_id: str, columns: int, place: str, kind: str, tile_id: str | None, face_up: bool) -> str:
    x, y = layout(board_id, columns).cards[place]
    tile = ROOMS[tile_id] if tile_id and tile_id in ROOMS else None
    if kind == CROSSROAD:
        name, cls = _("Crossroad %(n)s") % {"n": place.rsplit("-", 1)[-1]}, "card special"
    elif face_up and tile:
        name, cls = _short(local(tile)), "card special" if kind == "special" else "card"
    else:
        name, cls = "", "card down"
    out = [f'<rect class="{cls}" x="{_n(x)}" y="{_n(y)}" width="{CW}" height="{CH}" rx="8"/>']
    if tile and face_up and tile.colour in ROOM_STRIPE:
        out.append(f'<rect x="{_n(x + 1)}" y="{_n(y + 8)}" width="5" height="{CH - 16}" rx="2" '
                   f'fill="{ROOM_STRIPE[tile.colour]}"><title>{_e(_("%(colour)s room") % {"colour": _(tile.colour)})}</title></rect>')
    label = _("special room") if kind == "special" else place if kind == CROSSROAD else f"{place} · {kind}"
    out.append(f'<text class="slot" x="{_n(x + 10)}" y="{_n(y + 17)}">{_e(label)}</text>')
    if cls == "card down":
        face_down = _("face down")
        out.append(f'<text class="kind" x="{_n(x + CW / 2)}" y="{_n(y + 62)}">{_e(kind if kind in ("I", "II") else "?")}'
                   f'</text><text class="slot" x="{_n(x + CW / 2)}" y="{_n(y + 80)}" text-anchor="middle">{_e(face_down)}</text>')
    else:
        for k, line in enumerate(_wrap(name)):
            out.append(f'<text class="name" x="{_n(x + 10)}" y="{_n(y + 39 + 20 * k)}"{_fit(line)}>{_e(line)}</text>')
    return "".join(out)


def _card(state: LockdownState, columns: int, place: str, x: float, y: float, ch: Changes, eggs: int,
          marks: Mapping[int, list[tuple[str, str]]], here: list[tuple[str, Any]]) -> str:
    r = state.ship.rooms[place]
    face_up = r.explored or r.kind == "special"
    out = [_card_top(state.board.id, columns, place, r.kind, r.tile, face_up, r.items, r.fire, r.malfunction,
                     state.dark(place), place in ch.rooms, state.room_label(place, name=local))]
    if r.tile and r.tile.startswith("elevator_room"):
        out.append(_elevator(state, r.sector, x, y, ELEVATOR in ch.power))
    # figures, bottom row
    figures = here
    counted: dict[str, int] = {}
    for o in state.ship.objects.get(place, ()):
        counted[o] = counted.get(o, 0) + 1
    figures += [("o", (o, n)) for o, n in counted.items()]
    if r.tile == "nest" and face_up and eggs:
        figures.append(("o", ("egg", eggs)))
    figures += [("g", i) for i in ch.gone_intruders if i.room == place]
    step = min(33.0, (CW - 24) / (len(figures) - 1)) if len(figures) > 1 else 0
    fx, fy = x + 22, y + CH - 30
    for k, (what, it) in enumerate(figures):
        cx = fx + k * step
        if what == "c":
            out.append(_character_token(state, it, cx, fy, hl=it in ch.seats))
        elif what == "i":
            out.append(_intruder_token(state, it, cx, fy, hl=it.id in ch.intruders))
        elif what == "g":
            out.append(f'<path class="gone" d="M{_n(cx)},{_n(fy - 15)}L{_n(cx + 15)},{_n(fy)}L{_n(cx)},{_n(fy + 15)}'
                       f'L{_n(cx - 15)},{_n(fy)}z"><title>{_e(_("%(kind)s (%(id)s) left the board") % {"kind": shown("intruder", it.kind, it.kind.title()), "id": it.id})}</title></path>')
        else:
            kind, n = it
            base, _sep, seat = kind.partition(":")
            out.append(_object_token(base, seat or None, cx, fy, place in ch.rooms, n if base == "egg" else 1))
    out.append(_ports(state, columns, place, x, y, ch, marks) if marks else _quiet_ports(state.board.id, columns, place))
    out.append("</g>")
    return "".join(out)


def _elevator(state: LockdownState, sector: str | None, x: float, y: float, hl: bool) -> str:
    """An elevator room's corner: the elevator's power, and the elevator itself when it stands here."""
    on = state.powered(ELEVATOR)
    here = sector is not None and state.ship.elevator == sector
    tip = _("Elevator: powered") if on else _("Elevator: no power")
    if here:
        tip += "; " + _("the elevator is here")
    cx, cy = x + CW - 16, y + 16
    out = f'<g class="elevator{_hl(hl)}"><title>{_e(tip)}</title><circle class="{"pw-on" if on else "pw-off"}" ' \
          f'cx="{_n(cx)}" cy="{_n(cy)}" r="6"/>'
    if here:
        lx, ly = x + CW - 52, y + CH - 40  # bottom right, clear of the name and of the figures
        out += (f'<rect class="chip on" x="{_n(lx)}" y="{_n(ly)}" width="42" height="22" rx="5"/>'
                f'<text class="pn lift" x="{_n(lx + 21)}" y="{_n(ly + 11)}">lift</text>')
    return out + "</g>"


def _card_top(*args) -> str:
    """A card's opening, tooltip, face and markers, in the language in force (see :func:`_card_top_in`)."""
    return _card_top_in(i18n.current(), *args)


@lru_cache(maxsize=4096)
def _card_top_in(lang: str, board_id: str, columns: int, place: str, kind: str, tile: str | None, face_up: bool,
                 items: int | None, fire: bool, malfunction: bool, dark: bool, hl: bool, label: str) -> str:
    """A card's opening, tooltip, face and markers: a function of a few room fields (and the language of
    its face's words, which the cache must key on: one reader's Polish is not another's English), so cached."""
    x, y = layout(board_id, columns).cards[place]
    sector = load_board(board_id).places[place].sector
    tip = [label]
    if sector:
        tip.append(_("sector %(sector)s") % {"sector": sector})
    if items is not None and face_up:
        tip.append(_("%(n)s item(s) left to search") % {"n": items})
    if fire:
        tip.append(_("fire"))
    if malfunction:
        tip.append(_("malfunction"))
    if dark:
        tip.append(_("in darkness"))
    out = [f'<g class="room{_hl(hl)}" data-place="{place}" data-explored="{"true" if face_up else "false"}">'
           f'<title>{_e("; ".join(tip))}</title>', _card_face(board_id, columns, place, kind, tile, face_up)]
    mx = x + CW - 14
    if fire:
        out.append(f'<path class="fire" transform="translate({_n(mx)},{_n(y + 16)})" d="{FLAME}"><title>{_e(_("Fire"))}</title></path>')
        mx -= 20
    if malfunction:
        out.append(f'<path class="malf" transform="translate({_n(mx)},{_n(y + 16)})" d="{BOLT}"><title>{_e(_("Malfunction"))}</title></path>')
        mx -= 20
    if items is not None and face_up:
        out.append(f'<g><title>{_e(_("Item counter: %(n)s") % {"n": items})}</title><rect class="items" x="{_n(mx - 10)}" y="{_n(y + 6)}" '
                   f'width="20" height="20" rx="4"/><text class="pn count" x="{_n(mx)}" y="{_n(y + 16)}">{items}</text></g>')
    return "".join(out)


@lru_cache(maxsize=None)
def _quiet_ports(board_id: str, columns: int, place: str) -> str:
    """A card's corridor numbers when nothing lies in its corridors (none on a board without a graph)."""
    b = load_board(board_id)
    if not b.has_graph or b.is_crossroad(place):
        return ""
    return "".join(_port(board_id, columns, place, n) for n in b.numbers_of(place) if n in PORT_XY)


def _special_space(state: LockdownState, key: str, x: float, y: float, ch: Changes) -> str:
    b = state.board
    if key == TECHNICAL:
        title, lines = _("Technical corridors"), [_("One space for all"), _("technical entrances")]
        entrances = ", ".join(f"{p} ({n})" for p, n in b.technical.items()) or _("not known on this board")
        tip = _("Technical corridors: a noise marker here counts at every entrance; entrances: %(e)s") % {"e": entrances}
    else:
        number = key[len(AREA_PREFIX):]
        building = b.areas.get(int(number))
        title = _("Area %(n)s") % {"n": number}
        lines = [_("around %(building)s") % {"building": building} if building else _("the exterior")]
        tip = _("Area %(n)s (a special technical corridor, connected to every crossroad)") % {"n": number}
    out = [f'<g class="room{_hl(key in ch.noise_new or key in ch.noise_gone)}" data-place="{_e(key)}">'
           f'<title>{_e(tip)}</title><rect class="card tech" x="{_n(x)}" y="{_n(y)}" width="{CW}" height="{CH}" rx="8"/>'
           f'<text class="name" x="{_n(x + 10)}" y="{_n(y + 26)}"{_fit(title, 13)}>{_e(title)}</text>']
    for k, line in enumerate(lines):
        out.append(f'<text class="slot" x="{_n(x + 10)}" y="{_n(y + 48 + 16 * k)}">{_e(line)}</text>')
    if key in state.ship.noise:
        cx, cy = x + CW / 2, y + CH - 22
        out.append(f'<g class="noise-marker" data-corridor="{_e(key)}"><title>{_e(_("Noise marker in %(place)s") % {"place": title})}</title>'
                   f'<circle class="noise{_hl(key in ch.noise_new)}" cx="{_n(cx)}" cy="{_n(cy)}" r="{NOISE_R}"/>'
                   f'<text class="pn nn" x="{_n(cx)}" y="{_n(cy)}">!</text></g>')
    out.append("</g>")
    return "".join(out)


def _legend(state: LockdownState, lay: Layout) -> tuple[str, float]:
    """The legend under the bands, and the picture's height with it."""
    y = lay.bands[-1].y + lay.bands[-1].h + GAP + 20 if lay.bands else lay.top
    out = ['<g class="legend">']
    x = M
    names = {p.seat: p.name for p in state.setup.players}
    for seat in state.seats:
        c = state.crew.characters[seat]
        char = local(CHARACTERS[c.character]) if c.character and c.character in CHARACTERS else _("no character yet")
        where = "" if c.in_play or c.status == IN_BASE else " · " + _(STATUS_TEXT.get(c.status, c.status))
        if c.status == DEAD and c.cause:
            where = " · " + _("dead (%(cause)s)") % {"cause": _(c.cause)}
        text = f"{names.get(seat, '')} · {char}{where}"
        width = 40 + 7.6 * len(text)
        if x + width > lay.width - M:
            x, y = M, y + 30
        out.append(_character_token(state, seat, x + 13, y - 5, 12))
        out.append(f'<text x="{_n(x + 30)}" y="{_n(y)}">{_e(text)}</text>')
        x += width + 10
    y += 30
    keys = [("noise", _("noise marker")), ("door", _("closed door")), ("fire", _("fire")), ("malf", _("malfunction")),
            ("intr", _("L larva C creeper A adult B breeder Q queen")), ("egg", _("egg"))]
    x = M
    for k, text in keys:
        width = 34 + 7.4 * len(text)
        if x + width > lay.width - M:
            x, y = M, y + 26
        if k == "noise":
            out.append(f'<circle class="noise" cx="{_n(x + 9)}" cy="{_n(y - 5)}" r="9"/>')
        elif k == "door":
            out.append(f'<rect class="door" x="{_n(x)}" y="{_n(y - 9)}" width="20" height="8" rx="2"/>')
        elif k == "fire":
            out.append(f'<path class="fire" transform="translate({_n(x + 9)},{_n(y - 5)})" d="{FLAME}"/>')
        elif k == "malf":
            out.append(f'<path class="malf" transform="translate({_n(x + 9)},{_n(y - 5)})" d="{BOLT}"/>')
        elif k == "intr":
            out.append(f'<path class="tok" fill="#c0392b" d="M{_n(x + 9)},{_n(y - 15)}l10,10l-10,10l-10,-10z"/>')
        else:
            out.append(f'<ellipse class="egg" cx="{_n(x + 9)}" cy="{_n(y - 5)}" rx="7" ry="9"/>')
        out.append(f'<text x="{_n(x + 24)}" y="{_n(y)}">{_e(text)}</text>')
        x += width
    y += 6
    for line in _honesty_lines(state.board.id, lay.columns):
        y += 20
        out.append(f'<text class="dim" x="{M}" y="{_n(y)}">{line}</text>')
    out.append("</g>")
    return "".join(out), y + M


def _honesty_lines(board_id: str, columns: int) -> tuple[str, ...]:
    return _honesty_lines_in(i18n.current(), board_id, columns)


@lru_cache(maxsize=None)
def _honesty_lines_in(lang: str, board_id: str, columns: int) -> tuple[str, ...]:
    """The legend's lines on what is schematic or unknown, in ``lang`` (the cache keys on it)."""
    lay = layout(board_id, columns)
    texts = lay.honesty if lang == i18n.DEFAULT else _honesty_told(load_board(board_id))
    return tuple(_e(ln) for text in texts for ln in wrap(text, int((lay.width - 2 * M) / 7.4)))


def _honesty_told(b: Board) -> tuple[str, ...]:
    """:func:`_honesty` in the language in force."""
    if b.synthetic:
        return (_("SYNTHETIC TEST BOARD: its sectors and corridors (thin lines) are invented for tests; it is not the "
                  "real board. Schematic: room spaces as cards in a grid per sector; corridor numbers sit at fixed card "
                  "edges (1 top, 2 right, 3 bottom, 4 left), not where a board prints them."),)
    unknown = (_("printed room numbers, the sectors of most spaces, buildings and the paths between crossroads")
               if b.surface else _("printed room numbers, the sectors of the 16 room spaces and the corridors"))
    return (_("Schematic, not the printed board: room spaces are cards in a grid in our own order; %(unknown)s are "
              "not known (docs/rules-gaps.md). A corridor number sits at a fixed card edge (1 top, 2 right, 3 bottom, "
              "4 left) and is drawn only once something lies in it. Dashed lines: corridors learned from recorded "
              "moves (decision 0005), not printed data.") % {"unknown": unknown},)
