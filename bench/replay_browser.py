"""A replay step in the browser: from the arrow key press to the new board painted, in Chromium.

A real served app (werkzeug's threaded server on a local port, the same app as the service) over
a scratch database holding the longest generated game of --seeds (400+ facts, as in section 5)
and the four-player demo game; Debian's Chromium driven by Playwright (headless, as the browser
tests run it), viewport 1280×900, the page's own Content-Security-Policy in force.

Each measurement: a keydown listener (capture phase, installed through the DevTools protocol,
not a page script) notes ``performance.now()`` when the key arrives; a MutationObserver waits for
``#step-board[data-seq=<next step>]`` to be in the document, then two ``requestAnimationFrame``
callbacks (the frame holding the new board has been produced); the page reports the difference,
and the time to the new board being in the document (the fetch, if any, and the swap; the rest
is style, layout and paint of the ~100 KiB SVG + card).

- "next step prefetched": the reader presses → at a reading pace (each press after the previous
  board is painted and the page's prefetch of the neighbouring steps has finished), --presses
  presses in five runs spread over the game. replay.js has the panel already, so this is the
  swap, the layout and the paint.
- "not prefetched": the page is opened at the step before, then → (the panel is fetched from the
  server: network + server render + swap + paint), at --jumps steps spread over the game.

Each mode's ratio is its p50 against the same measurement at step 1 (median of 5).

Then where a swap's time goes: on the long game, 30 panels spread over it are fetched in the page
and swapped in as replay.js does, timing the HTML parse, the swap, the style + layout that
replay.js's mark() forces, and the frames up to the paint.

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

ARM = """(target) => {
  window.__paint = new Promise(resolve => {
    let t0 = null;
    window.addEventListener("keydown", () => { t0 = performance.now(); }, {capture: true, once: true});
    const there = () => { const b = document.getElementById("step-board"); return b && b.dataset.seq === String(target); };
    const obs = new MutationObserver(() => {
      if (t0 === null || !there()) return;
      obs.disconnect();
      const dom = performance.now() - t0;
      requestAnimationFrame(() => requestAnimationFrame(() => resolve([dom, performance.now() - t0])));
    });
    obs.observe(document.body, {childList: true, subtree: true});
  });
}"""


# The parts of one step's swap, timed in the page on a fetched panel: what replay.js's swap() does, then
# the layout that its mark() forces (getBoundingClientRect), then the frames up to the paint.
PARTS = """async (seqs) => {
  const base = document.querySelector(".replay").dataset.base;
  const out = [];
  for (const s of seqs) {
    const html = await (await fetch(base + s + "/panel")).text();
    const t0 = performance.now();
    const t = document.createElement("template"); t.innerHTML = html;
    const t1 = performance.now();
    [...t.content.children].filter(p => p.id).forEach(p => { const o = document.getElementById(p.id); if (o) o.replaceWith(p); });
    const t2 = performance.now();
    document.getElementById("facts").getBoundingClientRect();
    const t3 = performance.now();
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    out.push([t1 - t0, t2 - t1, t3 - t2, performance.now() - t3]);
  }
  return [out, document.querySelectorAll("*").length, document.querySelectorAll("#step-board *").length];
}"""
PART_NAMES = ["parse the panel HTML (`template.innerHTML`)", "swap the parts in (`replaceWith`)",
              "style + layout (forced by `mark()`)", "to the second animation frame (paint)"]


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
        self.page.goto(self.base + path, wait_until="load")
        self.idle()
        return [int(s) for s in self.page.evaluate("() => document.querySelector('.replay').dataset.seqs").split(",")]

    def press(self, key: str, target: int, dom: list[float] | None = None) -> float:
        """Press ``key``; ms from its keydown to two frames after #step-board shows ``target``
        (and, into ``dom``, to the new board being in the document)."""
        self.page.evaluate(ARM, target)
        self.page.keyboard.press(key)
        in_dom, painted = self.page.evaluate("() => window.__paint")
        if dom is not None:
            dom.append(in_dom)
        self.idle()
        return painted


def measure(page: Page, game_id, presses: int, jumps: int) -> list[list]:
    step = lambda seq: f"/games/{game_id}/step/{seq}"  # noqa: E731
    seqs = page.open(step(0))
    n = len(seqs) - 1
    rows = []

    # next step prefetched: step 1 (median of 5), then runs of presses from five points of the game
    page.press("ArrowRight", seqs[1])
    base1 = []
    for _ in range(5):
        page.press("ArrowLeft", seqs[0])
        base1.append(page.press("ArrowRight", seqs[1]))
    sweep, sweep_dom = [], []
    per_run = max(1, presses // 5)
    for k in range(5):
        start = min(k * n // 5, n - per_run)
        page.open(step(seqs[start]))
        page.press("ArrowRight", seqs[start + 1])   # fetched: warms this part of the game
        page.press("ArrowLeft", seqs[start])
        for i in range(start, start + per_run):
            sweep.append(page.press("ArrowRight", seqs[i + 1], sweep_dom))
    rows.append(["next step prefetched (reading pace)", len(sweep), median(base1), percentile(sweep, 50),
                 percentile(sweep, 95), max(sweep), percentile(sweep_dom, 50), f"**{percentile(sweep, 50) / median(base1):.2f}×**"])
    log(f"prefetched: step 1 {median(base1):.1f} ms, p50 {percentile(sweep, 50):.1f} ms, max {max(sweep):.1f} ms")

    # not prefetched: the page opened at the step before, then one press
    cold1 = []
    for _ in range(5):
        page.open(step(seqs[0]))
        cold1.append(page.press("ArrowRight", seqs[1]))
    cold, cold_dom = [], []
    for j in range(jumps):
        i = 1 + j * (n - 1) // max(1, jumps - 1)
        page.open(step(seqs[i - 1]))
        cold.append(page.press("ArrowRight", seqs[i], cold_dom))
    rows.append(["not prefetched (page opened at the step before)", len(cold), median(cold1), percentile(cold, 50),
                 percentile(cold, 95), max(cold), percentile(cold_dom, 50), f"**{percentile(cold, 50) / median(cold1):.2f}×**"])
    log(f"not prefetched: step 1 {median(cold1):.1f} ms, p50 {percentile(cold, 50):.1f} ms, max {max(cold):.1f} ms")
    return rows


def parts(page: Page, game_id, samples: int = 30) -> tuple[list[float], int, int]:
    """Median ms of each part of a swap over ``samples`` steps spread over the game; the page's and the board's elements."""
    seqs = page.open(f"/games/{game_id}/step/0")
    n = len(seqs) - 1
    times, elements, board = page.page.evaluate(PARTS, [seqs[1 + j * (n - 1) // (samples - 1)] for j in range(samples)])
    return [median([t[i] for t in times]) for i in range(len(PART_NAMES))], elements, board


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
    p.add_argument("--jumps", type=int, default=20, help="measured → presses without prefetch, per game")
    args = p.parse_args(argv)
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
                        context = browser.new_context(viewport={"width": 1280, "height": 900})
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
    print(f"Key press → board painted (two animation frames after the new `#step-board`), Chromium {version} "
          f"headless, 1280×900, served over HTTP on this machine\n")
    print(table(["game", "→ press", "measured", "step 1 ms (median of 5)", "p50 ms", "p95 ms", "max ms",
                 "p50 ms to the board in the DOM", "p50 / step 1"], rows))
    times, elements, board = split
    print(f"\nWhere a swap's time goes ({len(facts)}-fact game, median over 30 steps spread over it; the page "
          f"holds {elements:,} elements, {board:,} of them in the board):\n")
    print(table(["part", "p50 ms", "share"], [[n, t, f"{t / sum(times):.0%}"] for n, t in zip(PART_NAMES, times)]))
    print(f"\n{load_note()}")
    worst = max(r[4] for r in rows)
    print(f"\nGoal: a step ≤ {GOAL_MS} ms from key press to painted board — "
          f"{'met' if worst <= GOAL_MS else 'NOT met'} at p50 (worst p50 {worst:.1f} ms; p95 up to "
          f"{max(r[5] for r in rows):.1f} ms).")


if __name__ == "__main__":
    main()
