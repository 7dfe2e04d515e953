// Step through a replay without reloading: arrow keys and buttons fetch the step panel,
// and the URL follows (reloading or sharing it opens the same step).
(function () {
  const root = document.querySelector(".replay");
  if (!root) return;
  const base = root.dataset.base;           // ".../step/" prefix
  const query = root.dataset.query;         // "" or "?view=played"
  const seqs = root.dataset.seqs.split(",").map(Number);
  const holder = document.getElementById("panel-holder");
  const facts = document.getElementById("facts");
  const panels = new Map();                 // seq -> panel HTML, so stepping back and forth is instant
  let target = current();                   // where the reader is heading (keys may outrun the network)

  function current() { return Number(document.getElementById("step-panel").dataset.seq); }
  function url(seq) { return base + seq + query; }

  function mark(seq) {
    facts.querySelectorAll("li.current").forEach(li => { li.classList.remove("current"); li.removeAttribute("aria-current"); });
    const li = facts.querySelector('li[data-seq="' + seq + '"]');
    if (li) { li.classList.add("current"); li.setAttribute("aria-current", "step"); li.scrollIntoView({block: "nearest"}); }
    const i = seqs.indexOf(seq);
    document.getElementById("prev").href = url(seqs[Math.max(i - 1, 0)]);
    document.getElementById("next").href = url(seqs[Math.min(i + 1, seqs.length - 1)]);
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

  async function go(seq, push) {
    if (seq === undefined || seq === target) return;
    target = seq;
    if (push) history.pushState({seq: seq}, "", url(seq));
    const html = await panel(seq);
    if (seq !== target) return;             // the reader has moved on
    holder.innerHTML = html;
    mark(seq);
    [neighbour(1), neighbour(-1)].forEach(s => panel(s).catch(() => {}));
  }

  function neighbour(delta) {
    const i = seqs.indexOf(target);
    return seqs[Math.min(Math.max(i + delta, 0), seqs.length - 1)];
  }

  document.addEventListener("keydown", e => {
    if (e.target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = {ArrowRight: () => neighbour(1), ArrowLeft: () => neighbour(-1),
                   Home: () => seqs[0], End: () => seqs[seqs.length - 1]};
    if (moves[e.key]) { e.preventDefault(); go(moves[e.key](), true); }
  });
  const buttons = {first: () => seqs[0], prev: () => neighbour(-1), next: () => neighbour(1), last: () => seqs[seqs.length - 1]};
  Object.keys(buttons).forEach(id => document.getElementById(id).addEventListener("click", e => {
    e.preventDefault(); go(buttons[id](), true);
  }));
  facts.addEventListener("click", e => {
    const li = e.target.closest("li[data-seq]");
    if (li && e.target.closest("a")) { e.preventDefault(); go(Number(li.dataset.seq), true); }
  });
  window.addEventListener("popstate", e => {
    const m = location.pathname.match(/\/step\/(\d+)$/);
    if (m) go(Number(m[1]), false);
  });
  history.replaceState({seq: current()}, "", location.href);
})();
