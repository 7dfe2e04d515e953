"""Charts as server-side SVG, drawn by pygal (decision 0025): no chart code of our own, no script.

A chart is served alone (``image/svg+xml``) and shown with ``<img>``: pygal puts its stylesheet in
a ``<style>`` inside the SVG, so each chart response carries a Content-Security-Policy that admits
exactly that stylesheet by its hash (``style-src 'sha256-…'``, nothing else). pygal's random chart id
is replaced by a fixed one, so the same chart gives the same bytes; the configuration it writes for its tooltip script (never loaded) and the hidden tooltip (the one inline
``style`` attribute it writes, there for its script, which we never load) is left out.

Charts are drawn 400 units wide with large type: an ``<img>`` scaled to a 390 px phone keeps the
text at about its drawn size; wider screens cap it (static/stats.css).
"""
from __future__ import annotations

import base64
import hashlib
import re
from typing import Sequence

import pygal
from flask import Response
from pygal.style import Style

WIDTH = 400
STYLE = Style(
    background="#ffffff", plot_background="#ffffff", foreground="#1b1f24", foreground_strong="#1b1f24",
    foreground_subtle="#5b6470", opacity=".9", opacity_hover="1", colors=("#8a1c1c", "#2f5d8a", "#4c7a3d", "#9a6a12"),
    font_family="DejaVu Sans, Arial, sans-serif", label_font_size=16, major_label_font_size=16,
    value_font_size=16, value_label_font_size=16, title_font_size=17, legend_font_size=16, tooltip_font_size=16,
)
_ID = re.compile(r"chart-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)


LABEL = 17  # characters of a bar's label: longer ones end in "…" (the table beside the chart has them whole)


def _config(**kw) -> dict:
    return {"style": STYLE, "js": [], "disable_xml_declaration": True, "width": WIDTH, "show_legend": False,
            "print_values": True, "margin": 6, "spacing": 6, "truncate_label": -1, **kw}


def _short(label: str) -> str:
    return label if len(label) <= LABEL else label[:LABEL - 1].rstrip() + "…"


def bars(title: str, labels: Sequence[str], values: Sequence[float], percent: bool = False) -> str:
    """Horizontal bars (one per label, top to bottom in the given order) with their values printed.

    ``title`` names the chart for readers of the file alone; the page shows its own heading."""
    height = 40 + 36 * max(1, len(labels))
    fmt = (lambda v: f"{v:.0f}%") if percent else (lambda v: f"{v:g}")
    top = max([*values, 1])
    ticks = [0, 50, 100] if percent else sorted({0, round(top / 2), round(top)})
    # room beyond the longest bar for its printed value
    chart = pygal.HorizontalBar(**_config(height=height, value_formatter=fmt, range=(0, 118 if percent else top * 1.2),
                                          y_labels=ticks, show_y_guides=True, print_values_position="top"))
    chart.x_labels = [_short(label) for label in reversed(labels)]  # pygal draws the first bar at the bottom
    chart.add(title, list(reversed(list(values))))
    return _clean(chart.render(is_unicode=True)).replace("<svg ", f'<svg aria-label="{_escape(title)}" ', 1)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


# Lines need as many colours as a club has players, told apart on white and by colour-blind readers: the
# Okabe-Ito palette (its yellow, unreadable on white, replaced by grey), then pygal's own.
LINE_STYLE = Style(**{**STYLE.to_dict(), "colors": ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                                                     "#000000", "#999999", *STYLE.colors)})


def lines(title: str, series: Sequence[tuple[str, Sequence[float]]], labels: Sequence[str]) -> str:
    """One line per series over the same x labels (a rating after each game); dots only while they are few."""
    legend_rows = (len(series) + 2) // 3 if len(series) > 1 else 0
    chart = pygal.Line(**_config(style=LINE_STYLE, title=title, height=300 + 30 * legend_rows, margin_bottom=6 + 22 * legend_rows,
                                 show_legend=len(series) > 1, legend_at_bottom=True, legend_at_bottom_columns=3,
                                 print_values=False, x_label_rotation=40, show_minor_x_labels=False,
                                 x_labels_major_count=6, value_formatter=lambda v: f"{v:.1f}",
                                 show_dots=len(labels) <= 12, dots_size=4, stroke_style={"width": 2.5}))
    chart.x_labels = list(labels)
    for name, values in series:
        chart.add(name, list(values))
    return _clean(chart.render(is_unicode=True))


def _clean(svg: str) -> str:
    svg = _ID.sub("chart", svg)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S)  # pygal's config for its tooltip script
    return svg.replace(' style="opacity: 0"', "")


def policy(svg: str) -> str:
    """The Content-Security-Policy of one chart: its own stylesheets by hash, nothing else."""
    digests = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                       for s in _STYLE.findall(svg))
    return f"default-src 'none'; style-src {digests or chr(39) + 'none' + chr(39)}; frame-ancestors 'self'"


def response(svg: str) -> Response:
    out = Response(svg, mimetype="image/svg+xml")
    out.headers["Content-Security-Policy"] = policy(svg)
    out.headers["Cache-Control"] = "no-cache"
    return out
