"""Records a game's facts through the table recorder as a person would, counting every click and key press.

Shared by ``tests/browser/test_recorder_full_game.py`` (a whole game recorded through the UI equals the same
game imported from notation) and ``bench/recorder_inputs.py`` (inputs per fact, per event phase, per fact type).

For each fact the driver waits until the page is idle (nothing queued, the panel current), then:

- if the page already recorded it (a derived step: time, clean-up, first player token), it costs nothing;
- else it finds the form the recorder offers for that fact (type, actor, and every listed value available),
  makes it visible the way a person would (Back out of another open form, open "Table effects", tap the
  offer, or ✎ when the offer's preselected values are not the table's), taps the values that differ from
  what is preselected (typed text counts one key per character, plus the tap into the field), and taps
  Record unless the last tap already recorded it;
- a void of the latest fact is the Undo button (two taps), as the recorder takes a fact back.

Nothing is sent behind the page's back: a fact the recorder cannot express raises ``NotOffered``.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

IDLE = "#recorder[data-idle=yes]"
VISIBLE_FORM = "form.fact-form:not([hidden])"

# In the page: the forms that can record ``fact`` and what each needs (one entry per candidate form).
PLAN = """(fact) => {
  const same = (a, b) => JSON.stringify(norm(a)) === JSON.stringify(norm(b));
  function norm(v) {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === "object") return Object.keys(v).sort().reduce((o, k) => (o[k] = norm(v[k]), o), {});
    return v;
  }
  const out = [];
  document.querySelectorAll("#live form.fact-form").forEach((form) => {
    if (form.dataset.type !== fact.type) return;
    const actor = form.dataset.actor === "" ? null : Number(form.dataset.actor);
    if (actor !== fact.actor) return;
    const steps = []; let ok = true; let exact = true; let also = {};
    form.querySelectorAll("fieldset.field").forEach((fs) => {
      const name = fs.dataset.field, kind = fs.dataset.input;
      const has = Object.prototype.hasOwnProperty.call(fact.data, name);
      const want = fact.data[name];
      if (kind === "fixed") {
        const v = JSON.parse(fs.querySelector(".fixed").dataset.value);
        if (!has || !same(v, want)) exact = false;
        if (has && !same(v, want)) ok = false;
      } else if (kind === "choice") {
        const buttons = Array.from(fs.querySelectorAll("button.value"));
        const chosen = buttons.findIndex((b) => b.classList.contains("chosen"));
        if (!has) { if (fs.dataset.required === "yes") ok = false; else if (chosen >= 0) exact = false; return; }
        const i = buttons.findIndex((b) => same(JSON.parse(b.dataset.value), want));
        if (i < 0) { ok = false; return; }
        if (buttons[i].dataset.also) also = Object.assign(also, JSON.parse(buttons[i].dataset.also));
        if (i !== chosen) steps.push({ op: "choose", field: name, index: i, pre: chosen >= 0 });
      } else if (kind === "multi") {
        const buttons = Array.from(fs.querySelectorAll("button.value"));
        const wanted = has ? want : [];
        if (!Array.isArray(wanted)) { ok = false; return; }
        const idx = wanted.map((w) => buttons.findIndex((b) => same(JSON.parse(b.dataset.value), w)));
        if (idx.some((i) => i < 0)) { ok = false; return; }
        buttons.forEach((b, i) => {
          if (b.classList.contains("chosen") !== idx.includes(i)) steps.push({ op: "toggle", field: name, index: i });
        });
      } else if (kind === "tiles") {
        if (!has) return;
        Object.entries(want).forEach(([slot, tile]) => {
          const sel = fs.querySelector('select[data-slot="' + slot + '"]');
          if (!sel || !Array.from(sel.options).some((o) => o.value === tile)) ok = false;
          else if (sel.value !== tile) steps.push({ op: "select", field: name, slot: slot, value: tile });
        });
      } else {
        if (!has) { if (fs.dataset.required === "yes") ok = false; return; }
        const seen = Array.from(fs.querySelectorAll(".seen-value"));
        const i = seen.findIndex((b) => same(JSON.parse(b.dataset.value), want));
        if (i >= 0) steps.push({ op: "seen", field: name, index: i });
        else steps.push({ op: "type", field: name, text: typeof want === "string" ? want
          : Array.isArray(want) && want.every((x) => typeof x !== "object") ? want.join(",") : JSON.stringify(want),
          parse: fs.dataset.parse });
      }
    });
    // a value decided by the chosen one (an event card's printed corridors) needs no typing when it matches
    const kept = steps.filter((s) => !(s.op === "type" && s.field in also && same(also[s.field], fact.data[s.field])));
    Object.keys(fact.data).forEach((k) => { if (!form.querySelector('fieldset[data-field="' + k + '"]')) exact = false; });
    if (!ok) return;
    const offer = document.querySelector('#live button.offer[data-offer="' + form.dataset.offer + '"]');
    out.push({ offer: form.dataset.offer, steps: kept, exact: exact, open: !form.hidden,
               direct: !!(offer && offer.classList.contains("direct")),
               edit: !!document.querySelector('#live button.offer-edit[data-offer="' + form.dataset.offer + '"]'),
               effect: !!(offer && offer.closest("details.effects")), quick: form.dataset.quick === "yes",
               lazy: !!(offer && offer.dataset.lazy === "yes") });
  });
  out.sort((a, b) => (b.exact - a.exact) || (b.open - a.open) || (a.steps.length - b.steps.length));
  return out;
}"""


# In the page: the forms of the table effects that could be ``fact`` (same type and actor), which the panel does not
# draw (record.js fetches one when its button is tapped, decision 0034), fetched from the same address and put in
# the page for PLAN to read — the driver reading the buttons' names as a person would; they are taken out after.
PRELOAD = """async (fact) => {
  const box = document.getElementById("lazy-forms");
  const url = document.getElementById("recorder").dataset.panelUrl.split("?")[0].replace(/\\/panel$/, "/form/");
  const actor = fact.actor === null || fact.actor === undefined ? "" : String(fact.actor);
  const buttons = Array.from(document.querySelectorAll('#live button.offer[data-lazy="yes"]'))
    .filter((b) => b.dataset.type === fact.type && b.dataset.actor === actor
      && !box.querySelector('form.fact-form[data-offer="' + b.dataset.offer + '"]'));
  for (const b of buttons) {
    const r = await fetch(url + b.dataset.offer + "?type=" + encodeURIComponent(b.dataset.type) + "&actor=" + actor,
                          { headers: { "X-Recorder-Driver": "plan" } });
    if (!r.ok) throw new Error("form " + b.dataset.offer + ": " + r.status);
    box.insertAdjacentHTML("beforeend", await r.text());
    box.lastElementChild.dataset.preloaded = "yes";
  }
}"""
UNLOAD = """() => document.querySelectorAll('#lazy-forms form[data-preloaded="yes"]').forEach((f) => f.remove())"""


# In the page: the one-tap group of table effects whose facts are the next ones (the longest), or null.
GROUPS = """(facts) => {
  const norm = (v) => Array.isArray(v) ? v.map(norm) : (v && typeof v === "object")
    ? Object.keys(v).sort().reduce((o, k) => (o[k] = norm(v[k]), o), {}) : v;
  const key = (f) => JSON.stringify(norm({ type: f.type, actor: f.actor === undefined ? null : f.actor, data: f.data || {} }));
  let best = null;
  document.querySelectorAll("#live button.offer-group").forEach((b) => {
    const group = JSON.parse(b.dataset.facts);
    if (group.length > facts.length || !group.every((f, i) => key(f) === key(facts[i]))) return;
    if (!best || group.length > best.size) best = { group: b.dataset.group, size: group.length };
  });
  return best;
}"""


class NotOffered(Exception):
    """The recorder offers no way to record this fact where it stands."""


@dataclass
class Tally:
    """Inputs (clicks + key presses) per recorded fact."""

    per_fact: list[tuple[int, str, int, bool]] = field(default_factory=list)  # (seq, type, inputs, recorded for us)

    @property
    def inputs(self) -> int:
        return sum(n for _, _, n, _ in self.per_fact)

    @property
    def facts(self) -> int:
        return len(self.per_fact)

    def by_type(self) -> list[tuple[str, int, int]]:
        """(type, facts, inputs), most inputs first."""
        facts, inputs = Counter(), Counter()
        for _, t, n, _ in self.per_fact:
            facts[t] += 1
            inputs[t] += n
        return sorted(((t, facts[t], inputs[t]) for t in facts), key=lambda r: (-r[2], r[0]))


class Driver:
    def __init__(self, page, timeout_ms: int = 20000) -> None:
        self.page = page
        self.timeout = timeout_ms
        self.inputs = 0
        self.tally = Tally()
        self.grouped: set[int] = set()  # seqs recorded by the tap on a group of table effects with the fact before

    # -- inputs ----------------------------------------------------------------------------------
    def click(self, selector: str) -> None:
        self.page.click(selector, timeout=self.timeout)
        self.inputs += 1

    def type(self, selector: str, text: str) -> None:
        self.click(selector)  # the tap into the field
        self.page.keyboard.type(text)
        self.inputs += len(text)

    # -- the page --------------------------------------------------------------------------------
    def idle(self) -> None:
        self.page.wait_for_selector(IDLE, timeout=self.timeout)

    def position(self) -> int:
        return int(self.page.locator("#panel").get_attribute("data-position"))

    def wait_position(self, n: int) -> None:
        self.page.wait_for_function(
            "(n) => { const p = document.getElementById('panel'); const r = document.getElementById('recorder');"
            " return p && Number(p.dataset.position) >= n && r.dataset.idle === 'yes'; }", arg=n, timeout=self.timeout)

    # -- one fact --------------------------------------------------------------------------------
    def record(self, seq: int, fact: dict[str, Any], ahead: list[dict[str, Any]] = ()) -> int:
        """Record ``fact`` as the game's fact ``seq`` (1-based); returns the inputs it took. ``ahead``: the facts
        that follow it, so a one-tap group of table effects that records them too is tapped (they then cost 0)."""
        self.idle()
        before = self.inputs
        at = self.position()
        if at >= seq:  # the page recorded it for us (a derived step)
            self.tally.per_fact.append((seq, fact["type"], 0, True))
            return 0
        if at != seq - 1:
            raise AssertionError(f"fact #{seq}: the game is at position {at}")
        if fact["type"] == "FactVoided":
            self._undo(fact)
        elif not self._group(seq, fact, list(ahead)):
            self._record(fact)
        try:
            self.wait_position(seq)
        except Exception as e:
            raise AssertionError(f"fact #{seq} {fact['type']} {json.dumps(fact['data'])} was not recorded: "
                                 f"{self._trouble()}") from e
        n = self.inputs - before
        self.tally.per_fact.append((seq, fact["type"], n, False))
        return n

    def _trouble(self) -> str:
        """What the page says: a refusal in the form, the message, the queue."""
        return self.page.evaluate("""() => [...document.querySelectorAll('.form-error:not([hidden]), #message:not([hidden]), #queue:not([hidden])')].map(e => e.innerText).join(' | ') + ' | idle=' +
            document.getElementById('recorder').dataset.idle + ' position=' + document.getElementById('panel').dataset.position""")

    def _undo(self, fact: dict[str, Any]) -> None:
        target = self.page.locator("#undo").get_attribute("data-seq")
        if fact["data"].get("seqs") != [int(target or 0)]:
            raise NotOffered(f"FactVoided {fact['data']}: Undo voids #{target} only")
        if not self.page.locator("#undo").is_visible():
            self.click(f"{VISIBLE_FORM} .back")
        self.click("#undo")
        self.click("#undo")

    def _group(self, seq: int, fact: dict[str, Any], ahead: list[dict[str, Any]]) -> bool:
        """Tap the one-tap group of table effects that records ``fact`` and what follows it, if the page offers
        one: the longest such group; a group of one fact only where its offer would need more than one tap."""
        found = self.page.evaluate(GROUPS, [fact] + ahead)
        if not found:
            return False
        if found["size"] == 1:
            plans = self._plans(fact)
            if plans and plans[0]["direct"] and not plans[0]["steps"]:
                return False  # the offer's own button is one tap too
        if not self.page.locator("details.effects").evaluate("d => d.open"):
            self.click("details.effects > summary")
        self.click(f'#live button.offer-group[data-group="{found["group"]}"]')
        self.grouped.update(range(seq + 1, seq + found["size"]))
        return True

    def _plans(self, fact: dict[str, Any]) -> list[dict[str, Any]]:
        """The ways the page offers to record ``fact``, best first (the table effects' forms read, then put back
        as the panel had them: not drawn until tapped)."""
        wanted = {"type": fact["type"], "actor": fact.get("actor"), "data": fact["data"]}
        self.page.evaluate(PRELOAD, wanted)
        try:
            return self.page.evaluate(PLAN, wanted)
        finally:
            self.page.evaluate(UNLOAD)

    def _record(self, fact: dict[str, Any]) -> None:
        plans = self._plans(fact)
        if not plans:
            raise NotOffered(f"{fact['type']} (actor {fact.get('actor')}) {json.dumps(fact['data'])}: no form offers it")
        plan = plans[0]
        form = f'form.fact-form[data-offer="{plan["offer"]}"]'
        if not plan["open"]:
            button = self.page.locator(f'#live button.offer[data-offer="{plan["offer"]}"]')
            if plan["effect"] and not self.page.locator("details.effects").evaluate("d => d.open"):
                self.click("details.effects > summary")
            if not button.is_visible() and self.page.locator(VISIBLE_FORM).count():
                self.click(f"{VISIBLE_FORM} .back")  # another step's form is asked: Back to the list
            if plan["direct"] and not plan["steps"]:
                self.click(f'#live button.offer[data-offer="{plan["offer"]}"]')  # the button is the fact
                return
            if plan["direct"] and plan["edit"]:
                self.click(f'#live button.offer-edit[data-offer="{plan["offer"]}"]')
            else:
                self.click(f'#live button.offer[data-offer="{plan["offer"]}"]')
            if plan["lazy"]:  # its form is fetched, then opened
                self.page.wait_for_selector(f"{form}:not([hidden])", timeout=self.timeout)
        # free fields first, lists next, the single choices last: the tap that completes a quick form records it
        order = {"type": 0, "select": 0, "seen": 1, "toggle": 2, "choose": 3}
        # (a list already preselected is changed before one still empty: that last tap completes the form)
        at = self.position()
        for step in sorted(plan["steps"], key=lambda s: (order[s["op"]], not s.get("pre"))):
            fs = f'{form} fieldset[data-field="{step["field"]}"]'
            if step["op"] == "select":  # a tap opens the picker, a tap picks the tile
                self.page.select_option(f'{fs} select[data-slot="{step["slot"]}"]', step["value"], timeout=self.timeout)
                self.inputs += 2
            elif step["op"] == "type":
                self.type(f"{fs} input, {fs} textarea", step["text"])
            elif step["op"] == "seen":
                self.click(f"{fs} .seen-value >> nth={step['index']}")
            else:
                self._reveal(fs, step["index"])
                self.click(f"{fs} button.value >> nth={step['index']}")
            if self._sent(form, at):
                return
        if not self._sent(form, at):
            self.click(f"{form} .confirm")

    def _sent(self, form: str, at: int) -> bool:
        """Did the last tap record the fact (queued, stored, or the form swapped out by the next panel)?"""
        return self.page.evaluate(
            """([form, at]) => { const f = document.querySelector(form); const r = document.getElementById('recorder');
               return !f || f.dataset.sent === 'yes' || r.dataset.idle === 'no' || f.hidden ||
                 Number(document.getElementById('panel').dataset.position) > at; }""", [form, at])

    def _reveal(self, fs: str, index: int) -> None:
        """A long list's value hidden by an earlier search: clear the search (not needed otherwise)."""
        if self.page.locator(f"{fs} button.value >> nth={index}").is_hidden():
            self.page.fill(f"{fs} .filter", "")


def create_game(base: str, header: dict[str, Any]) -> str:
    """Create the game (header only) through the JSON API; returns its id."""
    import urllib.request

    body = {k: header[k] for k in ("ruleset", "mode", "strict", "players", "options", "league", "tags", "played_on",
                                   "title") if k in header}
    req = urllib.request.Request(f"{base}/api/games", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)["id"]


def read_notation(path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, facts) of a notation file, facts as {type, actor, data}, in order."""
    lines = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    return lines[0], [{"type": f["type"], "actor": f.get("actor"), "data": f.get("data") or {}} for f in lines[1:]]


def standing(facts: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The facts without the mistakes a file corrected (a voided fact and its void): a person recording with the
    recorder records what stands (and the recorder does not offer an illegal fact to void later). Returns the
    facts and how many were left out."""
    voided = {s for f in facts if f["type"] == "FactVoided" for s in f["data"].get("seqs", [])}
    kept = [f for i, f in enumerate(facts, start=1) if i not in voided and f["type"] != "FactVoided"]
    return kept, len(facts) - len(kept)


def event_phases(facts: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(first, last) 1-based seqs of each event phase: from the step after the round's last pass up to the next
    round's first player token (the round procedure the recorder guides), for rounds that reached it."""
    out, start = [], None
    for i, f in enumerate(facts, start=1):
        if f["type"] in ("CssTokenRevealed", "TimeAdvanced") and start is None:
            start = i
        elif f["type"] == "FirstPlayerPassed" and start is not None:
            out.append((start, i))
            start = None
    return out
