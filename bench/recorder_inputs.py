"""The table recorder: inputs per fact, per event phase and per fact type, and the server's time per input.

Each demo game (service/demo/*.jsonl) is recorded entirely through the recording page, in Debian's Chromium
driven by Playwright (headless, phone viewport 390×844, the page's strict CSP in force), by the same driver
as tests/browser/test_recorder_full_game.py (tests/browser/recorder_driver.py): for every fact it taps what a
person would tap and types what a person would type, one input per click and per key press. The game header
is created through the JSON API first (the demo games use the synthetic board, which the new-game form does
not offer); the header is not a fact and costs nothing here.

Server time: the app is served by werkzeug's threaded server on a local port over a scratch database on
--database-url (default: an embedded PostgreSQL in a temporary folder, as `make demo` runs). A WSGI wrapper
(in this script, not in the product) times every request from the call into the Flask app to the last byte
of its body; the recorder's requests are the fact appends (POST /api/games/<id>/facts), the panel fetches
(GET …/record/panel) and the previews (POST …/record/preview). "Per input" is each recorder request's server
time (a tap that records a fact makes an append and a panel fetch; taps inside a form make none).

    .venv/bin/python bench/recorder_inputs.py [--database-url URL] [--games solo-evening,...] [--headed]
"""
from __future__ import annotations

import logging
import shutil
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from common import bench_admin, log, median, parser, percentile, scratch_database, send_token, session_cookie, table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser.recorder_driver import Driver, create_game, event_phases, read_notation, standing  # noqa: E402

GOAL_PER_FACT = 1.5
GOAL_EVENT_PHASE = 12
GOAL_MS = 50
BASELINE_READS = 30  # per game
CHROMIUM_ARGS = [  # as tests/browser/conftest.py launches it
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


class Timed:
    """WSGI wrapper: the server time of each request, by kind."""

    def __init__(self, app) -> None:
        self.app, self.times = app, defaultdict(list)

    def __call__(self, environ, start_response):
        t0 = time.perf_counter()
        body = self.app(environ, start_response)
        try:
            data = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        ms = (time.perf_counter() - t0) * 1000
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD")
        kind = ("append" if method == "POST" and path.endswith("/facts") else
                "panel" if path.endswith("/record/panel") else
                "preview" if path.endswith("/record/preview") else
                # a table effect's form fetched on its tap; the driver's own reading of the forms is not an input
                "form" if "/record/form/" in path and not environ.get("HTTP_X_RECORDER_DRIVER") else
                "page" if path.endswith("/record") else
                "baseline" if method == "GET" and path.startswith("/api/games/") and path.count("/") == 3 else None)
        if kind:
            self.times[kind].append(ms)
        return [data]


def record_game(context, base: str, path: Path) -> dict:
    header, facts = read_notation(path)
    facts, left_out = standing(facts)
    game_id = create_game(base, header)
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/record")
    d = Driver(page, timeout_ms=60000)
    t0 = time.perf_counter()
    for seq, fact in enumerate(facts, start=1):
        d.record(seq, fact, facts[seq:seq + 3])
    wall = time.perf_counter() - t0
    page.close()
    return {"name": path.stem, "game_id": game_id, "facts": facts, "tally": d.tally, "wall_s": wall,
            "left_out": left_out, "grouped": d.grouped}


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--games", default="", help="comma separated demo game names (default: all)")
    p.add_argument("--headed", action="store_true")
    args = p.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from service.context import Archive
    from service.demo import HERE as DEMO_DIR
    from web import create_app

    wanted = [g for g in args.games.split(",") if g]
    paths = [pth for pth in sorted(DEMO_DIR.glob("*.jsonl")) if not wanted or pth.stem in wanted]
    with scratch_database(args.database_url, "recorder") as db:
        archive = Archive(db)
        app = create_app({"ARCHIVE": archive})
        timed = Timed(app.wsgi_app)
        app.wsgi_app = timed
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        session, token = bench_admin(db)  # recording needs signing in (decision 0024)
        send_token(base, token)
        results = []
        try:
            with sync_playwright() as pw:
                exe = shutil.which("chromium") or shutil.which("chromium-browser")
                browser = pw.chromium.launch(executable_path=exe, args=[] if args.headed else CHROMIUM_ARGS,
                                             headless=not args.headed)
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
                context.add_cookies([session_cookie(base, session)])
                for path in paths:
                    log(f"recording {path.name} ...")
                    r = record_game(context, base, path)
                    log(f"  {r['tally'].facts} facts, {r['tally'].inputs} inputs, {r['wall_s']:.0f} s")
                    results.append(r)
                browser.close()
            # the baseline, in the same run and server: a plain JSON read of one game (GET /api/games/<id>)
            import urllib.request
            for _ in range(BASELINE_READS):
                for r in results:
                    with urllib.request.urlopen(f"{base}/api/games/{r['game_id']}") as resp:
                        resp.read()
        finally:
            server.shutdown()
            archive.close()
    report(results, timed.times)


def report(results: list[dict], times: dict[str, list[float]]) -> None:
    out = []
    rows, all_in, all_facts, auto_all, grouped_all = [], 0, 0, 0, 0
    for r in results:
        t = r["tally"]
        auto = sum(1 for seq, *_, a in t.per_fact if a and seq not in r["grouped"])
        auto_all += auto
        grouped_all += len(r["grouped"])
        all_in += t.inputs
        all_facts += t.facts
        rows.append([r["name"], t.facts, t.inputs, round(t.inputs / t.facts, 2), auto, len(r["grouped"]),
                     r["left_out"]])
    rows.append(["**all**", all_facts, all_in, round(all_in / all_facts, 2), auto_all, grouped_all,
                 sum(r["left_out"] for r in results)])
    board = [n for r in results for _, t, n, _ in r["tally"].per_fact if t == "BoardPrepared"]
    rows.append(["all, without the setup's tile map (`BoardPrepared`)", all_facts - len(board),
                 all_in - sum(board), round((all_in - sum(board)) / (all_facts - len(board)), 2), auto_all,
                 grouped_all, ""])
    out.append(f"Inputs per fact (goal ≤ {GOAL_PER_FACT}):\n")
    out.append(table(["game", "facts", "inputs", "inputs/fact", "recorded for you (0 inputs)",
                      "recorded by the tap on the fact before (a one-tap group, 0 inputs)",
                      "left out (a voided mistake and its void)"], rows))

    # event phases: every game's, and the 4-player game's in full
    ev_rows = []
    for r in results:
        per = {seq: n for seq, _, n, _ in r["tally"].per_fact}
        phases = [sum(per.get(s, 0) for s in range(a, b + 1)) for a, b in event_phases(r["facts"])]
        if phases:
            ev_rows.append([r["name"], len(phases), min(phases), round(median(phases), 1), max(phases),
                            round(sum(phases) / len(phases), 1)])
    out.append(f"\nInputs per event phase, from the time token to the next round's first player token (goal ≤ "
               f"{GOAL_EVENT_PHASE} for a 4-player game):\n")
    out.append(table(["game", "event phases", "min", "median", "max", "mean"], ev_rows))
    for r in results:  # every event phase's cost, in game order
        per = {seq: n for seq, _, n, _ in r["tally"].per_fact}
        phases = [sum(per.get(s, 0) for s in range(a, b + 1)) for a, b in event_phases(r["facts"])]
        if phases:
            out.append(f"\n- event phases of {r['name']}, in order: " + ", ".join(str(p) for p in phases))
    for r in results:  # the dearest event phase of each game, fact by fact
        cost = {seq: (t, n) for seq, t, n, _ in r["tally"].per_fact}
        phases = event_phases(r["facts"])
        if phases:
            a, b = max(phases, key=lambda ab: sum(cost[s][1] for s in range(ab[0], ab[1] + 1)))
            out.append(f"\n- dearest event phase of {r['name']} (facts {a}–{b}): " + ", ".join(
                f"{cost[s][0]} {cost[s][1]}" for s in range(a, b + 1)))

    # rounds: the inputs of a whole round (player phase + event phase)
    round_rows = []
    for r in results:
        per = {seq: n for seq, _, n, _ in r["tally"].per_fact}
        bounds = [b for _, b in event_phases(r["facts"])]
        spans = list(zip(bounds, bounds[1:]))
        costs = [sum(per.get(s, 0) for s in range(a + 1, b + 1)) for a, b in spans]
        facts_in = [b - a for a, b in spans]
        if costs:
            round_rows.append([r["name"], len(costs), round(median(facts_in), 1), round(median(costs), 1), max(costs)])
    out.append("\nA whole round (from one first player token to the next):\n")
    out.append(table(["game", "full rounds", "facts (median)", "inputs (median)", "inputs (max)"], round_rows))

    by = defaultdict(lambda: [0, 0])
    for r in results:
        for _, t, n, _ in r["tally"].per_fact:
            by[t][0] += 1
            by[t][1] += n
    type_rows = [[t, f, n, round(n / f, 2), f"{100 * n / max(1, all_in):.0f} %"]
                 for t, (f, n) in sorted(by.items(), key=lambda kv: -kv[1][1])]
    out.append("\nWhere the inputs go (all games):\n")
    out.append(table(["fact type", "facts", "inputs", "inputs/fact", "share of inputs"], type_rows))

    t_rows = []
    base50 = percentile(times["baseline"], 50) if times.get("baseline") else None
    names = {"append": "append a fact (`POST /api/games/<id>/facts`)", "panel": "the next panel (`GET …/record/panel`)",
             "preview": "a preview after queued facts (`POST …/record/preview`)",
             "form": "a table effect's form, on its tap (`…/record/form/<i>`)", "page": "the recording page (`GET …/record`)",
             "baseline": "baseline: read one game as JSON (`GET /api/games/<id>`)"}
    for kind in ("append", "panel", "preview", "form", "page", "baseline"):
        v = times.get(kind, [])
        if v:
            t_rows.append([names[kind], len(v), round(percentile(v, 50), 1), round(percentile(v, 90), 1),
                           round(max(v), 1), f"{percentile(v, 50) / base50:.1f}×" if base50 else ""])
    every = [x for k in ("append", "panel", "preview", "form") for x in times.get(k, [])]
    if every:
        t_rows.append(["**every recorder request**", len(every), round(percentile(every, 50), 1),
                       round(percentile(every, 90), 1), round(max(every), 1),
                       f"{percentile(every, 50) / base50:.1f}×" if base50 else ""])
    out.append(f"\nServer time per recorder request, ms (goal p50 ≤ {GOAL_MS}):\n")
    out.append(table(["request", "n", "p50", "p90", "max", "p50 / baseline p50"], t_rows))
    inputs = sum(r["tally"].inputs for r in results)
    total = sum(every)
    out.append(f"\nServer time per input (all recorder requests' time / all inputs): {total / max(1, inputs):.1f} ms "
               f"({len(every)} requests for {inputs} inputs).")
    print("\n".join(out))


if __name__ == "__main__":
    main()
