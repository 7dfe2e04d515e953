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

  function mark(seq) {
    facts.querySelectorAll("li.current").forEach(li => { li.classList.remove("current"); li.removeAttribute("aria-current"); });
    const li = document.getElementById("s" + seq);
    if (li) {
      li.classList.add("current"); li.setAttribute("aria-current", "step");
      const box = facts.getBoundingClientRect(), r = li.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) facts.scrollTop += r.top - box.top - box.height / 3;
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

  function panel(seq) {
    if (!panels.has(seq)) {
      panels.set(seq, fetch(base + seq + "/panel" + query).then(r => {
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
      if (old) old.replaceWith(part);
    });
    watchDetails();
    if (open) { document.getElementById("step-details").open = true; }
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

  async function go(seq, push) {
    if (seq === undefined || Number.isNaN(seq) || seq === target) return;
    target = seq;
    if (push) history.pushState({seq: seq}, "", url(seq)); else history.replaceState({seq: seq}, "", url(seq));
    let html;
    try { html = await panel(seq); } catch (e) { stop(); return; }
    if (seq !== target) return;                   // the reader has moved on
    swap(html);
    mark(seq);
    [neighbour(1), neighbour(-1)].forEach(s => panel(s).catch(() => {}));
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
  scrub.addEventListener("change", () => history.pushState({seq: target}, "", url(target)));
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
})();
