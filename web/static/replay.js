// Step through a replay without reloading. Arrow keys, buttons, the scrubber, the story and the key
// moments fetch the step's parts (board, step card, characters, details) and swap them by id; the
// URL follows, perspective and view included, so reloading or sharing it opens the same step.
// Keys: ← → Home End, space (play / pause), k / K (next / previous key moment), r + number (round).
(function () {
  "use strict";
  const root = document.querySelector(".replay");
  if (!root) return;
  const base = root.dataset.base;                 // ".../step/" prefix
  const query = root.dataset.query;               // "" or "?view=played&as=seat2"
  const seqs = root.dataset.seqs.split(",").map(Number);
  const moments = root.dataset.moments ? [...new Set(root.dataset.moments.split(",").map(Number))] : [];
  const rounds = root.dataset.rounds ? root.dataset.rounds.split(",").map(p => p.split(":").map(Number)) : [];
  const facts = document.getElementById("facts");
  const scrub = document.getElementById("scrub");
  const playBtn = document.getElementById("play");
  const speed = document.getElementById("speed");
  const roundSelect = document.getElementById("round");
  const lens = document.getElementById("lens");
  const panels = new Map();                       // seq -> parts HTML, so stepping back and forth is instant
  let target = current();                         // where the reader is heading (keys may outrun the network)
  let timer = null;

  // the timeline's round and moment marks sit at their share of the game (set here: the CSP admits no style attributes)
  document.querySelectorAll(".timeline [data-left]").forEach(el => { el.style.left = el.dataset.left + "%"; });

  function current() { return Number(document.getElementById("step-panel").dataset.seq); }
  function url(seq) { return base + seq + query; }
  function indexOf(seq) { return seqs.indexOf(seq); }
  function clamp(i) { return Math.min(Math.max(i, 0), seqs.length - 1); }
  function neighbour(delta) { return seqs[clamp(indexOf(target) + delta)]; }

  // Writes only (whether the log must scroll is learnt from an IntersectionObserver, below), so a step
  // costs one style + layout pass, the browser's own before the paint, instead of a forced one and another.
  function mark(seq) {
    facts.querySelectorAll("li.current").forEach(li => { li.classList.remove("current"); li.removeAttribute("aria-current"); });
    const li = document.getElementById("s" + seq);
    if (li) {
      li.classList.add("current"); li.setAttribute("aria-current", "step");
      seen.disconnect(); seen.observe(li);
    }
    const i = indexOf(seq);
    scrub.value = i;
    document.getElementById("prev").href = url(seqs[clamp(i - 1)]);
    document.getElementById("next").href = url(seqs[clamp(i + 1)]);
    if (lens) lens.action = base + seq;
    document.querySelectorAll(".views a").forEach(a => { a.pathname = base + seq; });
    const round = Number(document.getElementById("step-panel").dataset.round || 0);
    const opt = [...roundSelect.options].reverse().find(o => o.value !== "" && Number(o.value) <= seq);
    roundSelect.value = round === 0 ? "0" : (opt ? opt.value : "");
    document.title = document.title.replace(/step \d+/, "step " + i);
  }
  // scroll the log only when the current line is out of view; the observer reports after the browser's
  // own layout, so finding out costs no forced layout
  const seen = new IntersectionObserver(entries => {
    entries.forEach(en => {
      seen.unobserve(en.target);
      const box = en.rootBounds, r = en.boundingClientRect;
      if (!box || !en.target.classList.contains("current")) return;
      if (r.top < box.top || r.bottom > box.bottom) facts.scrollTop += r.top - box.top - box.height / 3;
    });
  }, {root: facts, threshold: 1});

  // --- one board drawing per step: the layout (wide / narrow) this screen wants --------------------
  // The server draws only that one for the panels (?fit=) and, once the cookie is set, for whole pages.
  const narrowScreen = window.matchMedia("(max-width: 640px)");
  function fit() { return narrowScreen.matches ? "narrow" : "wide"; }
  function remember() { document.cookie = "board_fit=" + fit() + "; path=/; max-age=31536000; SameSite=Lax"; }
  function refit() {                              // the screen changed sides of 640 px: redraw the board
    remember();
    const drawn = document.getElementById("board");
    if (!drawn || !drawn.dataset.fit || drawn.dataset.fit === fit()) return;
    panels.clear();
    const seq = target;
    panel(seq).then(html => { if (seq === target) swap(html); }).catch(() => {});
  }
  narrowScreen.addEventListener("change", refit);

  // where the reader may go next: the neighbouring steps, and the key moments either side (k / K)
  function prefetch() {
    [neighbour(1), neighbour(-1), nextMoment(1), nextMoment(-1)].forEach(s => { if (s !== undefined) panel(s).catch(() => {}); });
  }

  function panel(seq) {
    if (!panels.has(seq)) {
      if (panels.size >= 200) panels.delete(panels.keys().next().value);  // the oldest first
      panels.set(seq, fetch(base + seq + "/panel" + query + (query ? "&" : "?") + "fit=" + fit()).then(r => {
        if (!r.ok) { panels.delete(seq); throw new Error("step " + seq + ": " + r.status); }
        return r.text();
      }));
    }
    return panels.get(seq);
  }

  function swap(html) {
    const t = document.createElement("template");
    t.innerHTML = html;
    const open = document.getElementById("step-details")?.open;
    [...t.content.children].filter(part => part.id).forEach(part => {
      const old = document.getElementById(part.id);
      if (old && !(part.id === "step-board" && patchBoard(old, part))) old.replaceWith(part);
    });
    watchDetails();
    if (open) { document.getElementById("step-details").open = true; }
  }

  // Most of a board is the same from one step to the next: change only the drawing's top-level figures
  // that differ (isEqualNode), so the browser restyles and lays out those, not the whole picture.
  function patchBoard(live, fresh) {
    const figure = live.querySelector("#board"), next = fresh.querySelector("#board");
    const a = live.querySelector(".board-fit > svg"), b = fresh.querySelector(".board-fit > svg");
    if (!a || !b || figure.dataset.fit !== next.dataset.fit) return false;
    [...b.attributes].forEach(at => { if (a.getAttribute(at.name) !== at.value) a.setAttribute(at.name, at.value); });
    [...a.attributes].forEach(at => { if (!b.hasAttribute(at.name)) a.removeAttribute(at.name); });
    const olds = [...a.children], news = [...b.children];
    news.forEach((n, i) => { const o = olds[i]; if (!o) a.append(n); else if (!o.isEqualNode(n)) o.replaceWith(n); });
    olds.slice(news.length).forEach(o => o.remove());
    live.dataset.seq = fresh.dataset.seq;
    figure.querySelector("figcaption").replaceWith(next.querySelector("figcaption"));
    return true;
  }

  // the full state of a step is long: fetched only when the reader opens it
  function watchDetails() {
    const d = document.getElementById("step-details");
    if (!d || d.dataset.watched) return;
    d.dataset.watched = "1";
    const load = () => {
      if (!d.open || d.dataset.loaded) return;
      d.dataset.loaded = "1";
      fetch(d.dataset.src, {headers: {"X-Requested-With": "fetch"}}).then(r => r.ok ? r.text() : Promise.reject(r.status))
        .then(html => { const s = d.querySelector("summary"); d.innerHTML = ""; d.append(s); d.insertAdjacentHTML("beforeend", html); })
        .catch(() => { d.dataset.loaded = ""; });
    };
    d.addEventListener("toggle", load);
    load();
  }

  // The address follows the step once the board is painted: a history entry costs the browser a few
  // ms (more on a long page) that need not come between the key and the picture.
  function follow(seq, push) {
    requestAnimationFrame(() => setTimeout(() => {
      if (push) history.pushState({seq: seq}, "", url(seq)); else history.replaceState({seq: seq}, "", url(seq));
    }));
  }

  async function go(seq, push) {
    if (seq === undefined || Number.isNaN(seq) || seq === target) return;
    target = seq;
    follow(seq, push);
    let html;
    try { html = await panel(seq); } catch (e) { stop(); return; }
    if (seq !== target) return;                   // the reader has moved on
    swap(html);
    mark(seq);
    prefetch();
  }

  // --- autoplay ---------------------------------------------------------------------------------
  function delay() { return 1000 / Number(speed.value || 1); }
  function tick() {
    if (indexOf(target) >= seqs.length - 1) { stop(); return; }
    go(neighbour(1), false).then(() => { if (timer) timer = setTimeout(tick, delay()); });
  }
  function play() {
    if (timer) return;
    if (indexOf(target) >= seqs.length - 1) go(seqs[0], true);
    timer = setTimeout(tick, 150);
    playBtn.textContent = playBtn.dataset.pause || "❚❚ Pause"; playBtn.setAttribute("aria-pressed", "true"); root.classList.add("playing");
  }
  function stop() {
    clearTimeout(timer); timer = null;
    playBtn.textContent = playBtn.dataset.play || "▶ Play"; playBtn.setAttribute("aria-pressed", "false"); root.classList.remove("playing");
  }
  function toggle() { timer ? stop() : play(); }
  playBtn.addEventListener("click", toggle);
  speed.addEventListener("change", () => { if (timer) { clearTimeout(timer); timer = setTimeout(tick, delay()); } });

  function manual(seq) { stop(); go(seq, true); }

  // --- moments and rounds --------------------------------------------------------------------------
  function nextMoment(dir) {
    const here = target;
    const list = dir > 0 ? moments.filter(s => s > here) : moments.filter(s => s < here).reverse();
    return list.length ? list[0] : undefined;
  }
  function roundStart(n) {
    if (n === 0) return seqs[0];
    const hit = rounds.find(([r]) => r === n);
    return hit ? hit[1] : undefined;
  }
  const entry = document.getElementById("round-entry");
  let digits = null, digitsTimer = null;
  function roundKey(key) {
    if (key === "r") { digits = ""; showEntry(); return true; }
    if (digits === null) return false;
    if (/^[0-9]$/.test(key)) { digits += key; showEntry(); clearTimeout(digitsTimer); digitsTimer = setTimeout(commit, 900); return true; }
    if (key === "Enter") { commit(); return true; }
    if (key === "Escape") { digits = null; entry.hidden = true; return true; }
    return false;
  }
  function showEntry() {
    entry.hidden = false; entry.textContent = (entry.dataset.label || "Round") + " " + (digits || "…");
    clearTimeout(digitsTimer); digitsTimer = setTimeout(commit, digits ? 900 : 2500);
  }
  function commit() {
    clearTimeout(digitsTimer);
    const n = digits ? Number(digits) : NaN;
    digits = null; entry.hidden = true;
    if (!Number.isNaN(n)) manual(roundStart(n));
  }
  roundSelect.addEventListener("change", () => { if (roundSelect.value !== "") manual(Number(roundSelect.value)); });

  // --- keys, buttons, clicks, scrubber, swipe -------------------------------------------------------
  document.addEventListener("keydown", e => {
    if (e.target.closest("input:not([type=range]), textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (roundKey(e.key)) { e.preventDefault(); return; }
    const moves = {ArrowRight: () => neighbour(1), ArrowLeft: () => neighbour(-1),
                   Home: () => seqs[0], End: () => seqs[seqs.length - 1],
                   k: () => nextMoment(1), K: () => nextMoment(-1)};
    if (moves[e.key]) { e.preventDefault(); manual(moves[e.key]()); return; }
    if (e.key === " " && !e.target.closest("button, a")) { e.preventDefault(); toggle(); }
  });
  const buttons = {first: () => seqs[0], prev: () => neighbour(-1), next: () => neighbour(1), last: () => seqs[seqs.length - 1]};
  Object.keys(buttons).forEach(id => document.getElementById(id).addEventListener("click", e => {
    e.preventDefault(); manual(buttons[id]());
  }));
  document.addEventListener("click", e => {
    const a = e.target.closest("#facts li[data-seq] > a, #chapters li[data-seq] a, a.moment-mark");
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    manual(Number(a.closest("[data-seq]").dataset.seq));
  });
  scrub.addEventListener("input", () => { stop(); go(seqs[clamp(Number(scrub.value))], false); });
  scrub.addEventListener("change", () => follow(target, true));
  const help = document.getElementById("keys-help");
  help.addEventListener("click", () => {
    const k = document.getElementById("keys"); k.hidden = !k.hidden; help.setAttribute("aria-expanded", String(!k.hidden));
  });
  const allDetails = document.getElementById("all-details");
  if (allDetails) allDetails.addEventListener("click", () => {
    const on = facts.classList.toggle("all-details");
    allDetails.setAttribute("aria-pressed", String(on));
    allDetails.textContent = on ? (allDetails.dataset.on || "only the current step's consequences") : (allDetails.dataset.off || "show every consequence");
  });
  if (document.getElementById("as")) document.getElementById("as").addEventListener("change", () => lens.submit());

  const stage = document.getElementById("stage");
  let touch = null;
  stage.addEventListener("touchstart", e => {
    if (e.touches.length !== 1 || e.target.closest("input, select")) { touch = null; return; }
    touch = {x: e.touches[0].clientX, y: e.touches[0].clientY, t: Date.now()};
  }, {passive: true});
  stage.addEventListener("touchend", e => {
    if (!touch) return;
    const t = e.changedTouches[0], dx = t.clientX - touch.x, dy = t.clientY - touch.y;
    const quick = Date.now() - touch.t < 800;
    touch = null;
    if (quick && Math.abs(dx) > 50 && Math.abs(dx) > 1.5 * Math.abs(dy)) manual(neighbour(dx < 0 ? 1 : -1));
  });

  window.addEventListener("popstate", () => {
    const m = location.pathname.match(/\/step\/(\d+)$/);
    if (m) { stop(); go(Number(m[1]), false); }
  });
  history.replaceState({seq: current()}, "", location.href);
  watchDetails();
  mark(current());
  refit();
  // the neighbouring steps, fetched once the page has settled: the reader's first → or ← is then a swap
  setTimeout(prefetch, 250);
})();
