"""A replay step in the browser: from the arrow key press to the new board painted, in Chromium.

A real served app (werkzeug's threaded server on a local port, the same app as the service) over
a scratch database holding the longest generated game of --seeds (400+ facts, as in section 5)
and the four-player demo game; Debian's Chromium driven by Playwright (headless, as the browser
tests run it), viewport 1280×900 (--viewport 390x844: a phone, the narrow drawing), the page's own
Content-Security-Policy in force.

Each measurement: a keydown listener (capture phase, installed through the DevTools protocol,
not a page script) notes ``performance.now()`` when the key arrives; a MutationObserver waits for
``#step-board[data-seq=<next step>]`` to be in the document, then two ``requestAnimationFrame``
callbacks (the frame holding the new board has been produced); the page reports the difference,
and the time to the new board being in the document (the fetch, if any, and the swap; the rest
is style, layout and paint of what changed in the SVG, the card and the sidebar).

- "next step prefetched": the reader presses → at a reading pace (each press after the previous
  board is painted and the page's prefetch of the neighbouring steps has finished), --presses
  presses in five runs spread over the game. replay.js has the panel already, so this is the
  swap, the layout and the paint.
- "a jump": the page is opened at the last step and left to settle, then a line of the story is
  clicked (the panel is fetched from the server on the click: network + server render + swap +
  paint; the measurement starts at the click), at --jumps steps spread over the game. A step's
  neighbours and the key moments either side are prefetched (also 250 ms after a page loads), so
  only jumps (a story line, a round, the scrubber) wait for the server. The Resource Timing API confirms
  whether the panel was fetched after the press or click in both modes (a jump whose step replay.js
  had prefetched, a neighbour or a key moment, takes the next step instead).

Each mode's ratio is its p50 against the same measurement at step 1 (median of 5).

Then where a press's time goes: on the long game, 30 → presses at a reading pace are traced
(Chromium's DevTools timeline events): replay.js's handler and swap, style, layout, paint and
the history update.

    .venv/bin/python bench/replay_browser.py [--database-url URL] [--seeds 30] [--presses 100] [--jumps 20]
"""
from __future__ import annotations

import logging
import shutil
import threading
import time

from common import MAX_ROUNDS, PLAYERS, load_note, log, median, parser, percentile, scratch_database, table

GOAL_MS = 50  # the goal: a step from key press to painted board
CHROMIUM_ARGS = [  # as tests/browser/conftest.py launches it
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

ARM = """([target, trigger]) => {
  window.__paint = new Promise(resolve => {
    let t0 = null;
    window.addEventListener(trigger, () => { t0 = performance.now(); }, {capture: true, once: true});
    const there = () => { const b = document.getElementById("step-board"); return b && b.dataset.seq === String(target); };
    const obs = new MutationObserver(() => {
      if (t0 === null || !there()) return;
      obs.disconnect();
      const dom = performance.now() - t0;
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const painted = performance.now() - t0;
        const fetched = performance.getEntriesByType("resource").some(e => e.name.includes("/step/" + target + "/panel") && e.startTime >= t0);
        resolve([dom, painted, fetched]);
      }));
    });
    obs.observe(document.body, {childList: true, subtree: true});
  });
}"""


# Where a press's main-thread time goes, from a Chromium trace (DevTools timeline events) of presses
# at a reading pace: replay.js's own work, then the browser's. Durations of these events may nest
# (a layout forced inside a script would count in both); replay.js forces none.
PARTS = [
    ("EventDispatch", "replay.js: the key's handler and the swap (parse the panel, patch the board, swap the card "
                      "and sidebar, `mark`)"),
    ("UpdateLayoutTree", "style"),
    ("Layout", "layout"),
    ("Paint", "paint (records the drawing; rasterized off the main thread)"),
    ("FrameLoader::updateForSameDocumentNavigation", "the address follows (`history`, after the paint)"),
]


class Page:
    """One browser page on the served app, counting its requests in flight."""

    def __init__(self, context, base: str):
        self.page, self.base, self.inflight = context.new_page(), base, 0
        self.page.on("request", lambda r: self._count(1))
        self.page.on("requestfinished", lambda r: self._count(-1))
        self.page.on("requestfailed", lambda r: self._count(-1))

    def _count(self, d: int) -> None:
        self.inflight += d

    def idle(self, timeout: float = 10.0) -> None:
        """Wait until no request is in flight (the prefetch of the neighbouring steps has landed)."""
        end = time.monotonic() + timeout
        self.page.wait_for_timeout(5)
        while self.inflight > 0 and time.monotonic() < end:
            self.page.wait_for_timeout(5)

    def open(self, path: str) -> list[int]:
        """Open a replay page and let it settle (replay.js prefetches the neighbouring steps 250 ms after it loads)."""
        self.page.goto(self.base + path, wait_until="load")
        self.page.wait_for_timeout(300)
        self.idle()
        return [int(s) for s in self.page.evaluate("() => document.querySelector('.replay').dataset.seqs").split(",")]

    def press(self, key: str, target: int, dom: list[float] | None = None, fetch: bool | None = False) -> float | None:
        """Press ``key``; ms from its keydown to two frames after #step-board shows ``target``
        (and, into ``dom``, to the new board being in the document). ``fetch``: whether the step's
        panel must have been fetched after the press (True) or already be in the page (False);
        None when the press did not measure that (then nothing is noted; None is returned)."""
        self.page.evaluate(ARM, [target, "keydown"])
        self.page.keyboard.press(key)
        return self._painted(dom, fetch)

    def _painted(self, dom: list[float] | None, fetch: bool | None) -> float | None:
        in_dom, painted, fetched = self.page.evaluate("() => window.__paint")
        self.idle()
        if fetch is not None and fetched != fetch:
            return None
        if dom is not None:
            dom.append(in_dom)
        return painted

    def jump(self, path: str, seqs: list[int], i: int, dom: list[float] | None = None) -> float:
        """Open ``path`` (far from step ``seqs[i]``), let it settle, then click that step's line in the
        story: ms from the click to its board painted, its panel fetched on the click. Should replay.js
        have prefetched it (a neighbour or a key moment either side of ``path``), the next step is taken."""
        for target in seqs[i:i + 5]:
            self.open(path)
            line = self.page.locator(f"#s{target} > a")
            line.scroll_into_view_if_needed()
            self.page.evaluate(ARM, [target, "click"])
            line.click()
            took = self._painted(dom, fetch=True)
            if took is not None:
                return took
        raise RuntimeError(f"steps {seqs[i:i + 5]} were all prefetched before the click")


def measure(page: Page, game_id, presses: int, jumps: int) -> list[list]:
    step = lambda seq: f"/games/{game_id}/step/{seq}"  # noqa: E731
    seqs = page.open(step(0))
    n = len(seqs) - 1
    rows = []

    # next step prefetched: step 1 (median of 5), then runs of presses from five points of the game
    page.press("ArrowRight", seqs[1], fetch=None)
    base1 = []
    for _ in range(5):
        page.press("ArrowLeft", seqs[0], fetch=None)
        base1.append(page.press("ArrowRight", seqs[1]))
    sweep, sweep_dom = [], []
    per_run = max(1, presses // 5)
    for k in range(5):
        start = min(k * n // 5, n - per_run)
        page.open(step(seqs[start]))
        page.press("ArrowRight", seqs[start + 1], fetch=None)
        page.press("ArrowLeft", seqs[start], fetch=None)
        for i in range(start, start + per_run):
            took = page.press("ArrowRight", seqs[i + 1], sweep_dom)
            assert took is not None, f"step {seqs[i + 1]} was not prefetched at a reading pace"
            sweep.append(took)
    rows.append(["next step prefetched (reading pace)", len(sweep), median(base1), percentile(sweep, 50),
                 percentile(sweep, 95), max(sweep), percentile(sweep_dom, 50), f"**{percentile(sweep, 50) / median(base1):.2f}×**"])
    log(f"prefetched: step 1 {median(base1):.1f} ms, p50 {percentile(sweep, 50):.1f} ms, max {max(sweep):.1f} ms")

    # a jump, its panel fetched on the click: from the last step to a line of the story
    cold1 = [page.jump(step(seqs[-1]), seqs, 1) for _ in range(5)]
    cold, cold_dom = [], []
    for j in range(jumps):
        i = 1 + j * (n - 8) // max(1, jumps - 1)
        cold.append(page.jump(step(seqs[-1]), seqs, i, cold_dom))
    rows.append(["a jump: a line of the story clicked (its panel fetched then)", len(cold), median(cold1), percentile(cold, 50),
                 percentile(cold, 95), max(cold), percentile(cold_dom, 50), f"**{percentile(cold, 50) / median(cold1):.2f}×**"])
    log(f"jump, fetched: step 1 {median(cold1):.1f} ms, p50 {percentile(cold, 50):.1f} ms, max {max(cold):.1f} ms")
    return rows


def parts(page: Page, game_id, presses: int = 30) -> tuple[list[float], int, int]:
    """Mean main-thread ms per press of each of PARTS over ``presses`` → presses at a reading pace from
    the middle of the game, traced; the page's and the board's elements."""
    seqs = page.open(f"/games/{game_id}/step/0")
    mid = len(seqs) // 2
    seqs = page.open(f"/games/{game_id}/step/{seqs[mid]}")
    page.press("ArrowRight", seqs[mid + 1], fetch=None)
    page.press("ArrowLeft", seqs[mid], fetch=None)
    cdp = page.page.context.new_cdp_session(page.page)
    events, done = [], []
    cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(True))
    cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline,blink",
                               "transferMode": "ReportEvents"})
    for i in range(mid, mid + presses):
        page.press("ArrowRight", seqs[i + 1], fetch=None)
    cdp.send("Tracing.end")
    while not done:
        page.page.wait_for_timeout(50)
    main = {e["tid"] for e in events if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    total = {name: 0.0 for name, _ in PARTS}
    for e in events:
        if e.get("ph") == "X" and e.get("name") in total and (not main or e.get("tid") in main):
            total[e["name"]] += e.get("dur", 0) / 1000
    elements, board = page.page.evaluate("() => [document.querySelectorAll('*').length, document.querySelectorAll('#step-board *').length]")
    return [total[name] / presses for name, _ in PARTS], elements, board


def main(argv=None) -> None:
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from common import generated, notation
    from service.context import Archive
    from service.demo import HERE as DEMO_DIR
    from service.notation import import_parsed, parse, read_file
    from web import create_app

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=30, help="seeds to generate; the longest game is stepped through")
    p.add_argument("--presses", type=int, default=100, help="measured → presses with the next step prefetched, per game")
    p.add_argument("--jumps", type=int, default=20, help="measured jumps (a story line clicked, fetched), per game")
    p.add_argument("--viewport", default="1280x900", help="WIDTHxHEIGHT of the page (390x844: a phone)")
    args = p.parse_args(argv)
    width, height = (int(v) for v in args.viewport.lower().split("x"))
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if not executable:
        raise SystemExit("replay_browser: Debian's chromium is needed (apt-get install chromium)")

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no access log on stderr
    header, facts = max((generated(s, PLAYERS, MAX_ROUNDS) for s in range(1, args.seeds + 1)), key=lambda g: len(g[1]))
    rows, split = [], None
    with scratch_database(args.database_url, "browser") as db:
        archive = Archive(db)
        server = None
        try:
            long_game, _ = import_parsed(archive.games, parse(notation(header, facts), "bench"))
            demo, _ = import_parsed(archive.games, read_file(DEMO_DIR / "friday-four-players.jsonl"))
            server = make_server("127.0.0.1", 0, create_app({"ARCHIVE": archive}), threaded=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            base = f"http://127.0.0.1:{server.server_port}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                try:
                    version = browser.version
                    for label, g, n in ((f"generated, {len(facts)} facts", long_game, len(facts)),
                                        (f"demo “{demo.title}”, {len(demo.facts)} facts", demo, len(demo.facts))):
                        context = browser.new_context(viewport={"width": width, "height": height})
                        try:
                            log(f"{label}")
                            page = Page(context, base)
                            for r in measure(page, g.id, args.presses, args.jumps):
                                rows.append([label, *r])
                            if g is long_game:
                                split = parts(page, g.id)
                        finally:
                            context.close()
                finally:
                    browser.close()
        finally:
            if server is not None:
                server.shutdown()
            archive.close()
    print(f"Key press (or click) → board painted (two animation frames after the new `#step-board`), Chromium {version} "
          f"headless, {width}×{height}, served over HTTP on this machine\n")
    print(table(["game", "step",  "measured", "step 1 ms (median of 5)", "p50 ms", "p95 ms", "max ms",
                 "p50 ms to the board in the DOM", "p50 / step 1"], rows))
    times, elements, board = split
    print(f"\nWhere a press's main-thread time goes ({len(facts)}-fact game, mean over 30 → presses at a reading pace "
          f"from its middle, Chromium trace; the page holds {elements:,} elements, {board:,} of them in the board):\n")
    print(table(["part", "trace event", "ms per press", "share"],
                [[label, f"`{name}`", t, f"{t / sum(times):.0%}"] for (name, label), t in zip(PARTS, times)]))
    print(f"\n{load_note()}")
    steps = [r for r in rows if r[1].startswith("next step")]
    jumps = [r for r in rows if r[1].startswith("a jump")]
    worst = max(r[4] for r in steps)
    print(f"\nGoal: a step ≤ {GOAL_MS} ms from key press to painted board — "
          f"{'met' if worst <= GOAL_MS else 'NOT met'} at p50 (→ at a reading pace: worst p50 {worst:.1f} ms, p95 up to "
          f"{max(r[5] for r in steps):.1f} ms). Jumps that wait for the server (a story line, a round, the scrubber): "
          f"worst p50 {max(r[4] for r in jumps):.1f} ms, {'within' if max(r[4] for r in jumps) <= GOAL_MS else 'over'} "
          f"the same {GOAL_MS} ms.")


if __name__ == "__main__":
    main()
