// The table recorder: pick what happened, send it to the JSON API, never lose it.
//
// Every fact becomes a queue entry {command_id, expected_position, fact} kept in localStorage before it is
// sent, so a dropped network or a reload loses nothing. Entries go out one at a time, in order; a retry
// reuses the command id, so the server stores each at most once. A 409 (another device recorded first)
// pauses the queue for review; a 422 (a rule refused the fact) drops it and shows the rule's message.
(function () {
  "use strict";
  const root = document.getElementById("recorder");
  if (!root) return;
  const GAME = root.dataset.game;
  const FACTS_URL = root.dataset.factsUrl;
  const PANEL_URL = root.dataset.panelUrl;
  const STORE = "nemesis-recorder-queue:" + GAME;
  const KEYS = "123456789abcdefghijklmnopqrstuvwxyz";
  const RETRY_MS = 4000;
  const live = document.getElementById("live");
  const net = document.getElementById("net");
  const queueBox = document.getElementById("queue");
  const message = document.getElementById("message");
  // the page's language: record.html puts the translated texts in data-i18n (decision 0019)
  const TEXTS = JSON.parse(root.dataset.i18n || "{}");
  function t(text, n) { return (TEXTS[text] || text).replace("{n}", n); }
  // the rules' refusals in the page's language, by violation code (the API answers in English; decision 0023)
  const RULES = JSON.parse(root.dataset.rules || "{}");
  const TITLES = JSON.parse(root.dataset.titles || "{}");  // fact type -> its title in the page's language
  // queued lines read as the notation in English, by their titles elsewhere (decision 0023)
  const NOTATION = (document.documentElement.lang || "en") === "en";
  let sending = false;
  let undoArmed = 0;
  let noAutoAt = -1;     // the position where the recorder took back (or the rules refused) a fact: ask, don't auto-record
  let lastAutoAt = -1;   // the position a derived fact was last recorded for us (once per position)
  let refreshes = 0;     // only the latest panel fetched is shown
  let previewed = 0;     // queue length last previewed after a failed send

  // -- the queue ------------------------------------------------------------------------------
  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function save(q) { localStorage.setItem(STORE, JSON.stringify(q)); showQueue(q); }

  function commandId() {
    // crypto.randomUUID needs a secure context; a club's LAN address (http://192.168…) is not one
    if (window.crypto && crypto.randomUUID) { try { return crypto.randomUUID(); } catch (e) { /* fall through */ } }
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  let stored = 0;  // the game's position after our last stored fact (the panel may not show it yet)
  function position() { return Math.max(stored, Number(document.getElementById("panel").dataset.position)); }

  // queued facts each add one to the position: the next one expects the game after them
  // (a fact sent with a note adds two: the note is a FactAnnotated in the same command)
  // (a group of table effects adds one per fact: its facts go in one command, decision 0022)
  function queuedFacts(q) { return q.reduce((n, e) => n + 1 + (e.more ? e.more.length : 0) + (e.note ? 1 : 0), 0); }

  function enqueue(fact, extra) {
    const q = load();
    const expected = position() + queuedFacts(q);
    q.push(Object.assign({ command_id: commandId(), expected_position: expected, fact: fact, state: "waiting", queued_at: Date.now() },
      extra || {}));
    root.dataset.idle = "no";
    save(q);
    const busy = sending;
    pump();
    if (busy) refresh();  // a fact is still in flight: show the offers after the queued ones (server preview)
  }

  function describe(fact) {
    const data = Object.entries(fact.data || {}).map(([k, v]) => k + " " + (typeof v === "object" ? JSON.stringify(v) : v)).join(" · ");
    return ((!NOTATION && TITLES[fact.type]) || fact.type) + (fact.actor != null ? " (" + t("seat {n}", fact.actor) + ")" : "") + (data ? " — " + data : "");
  }

  function showQueue(q) {
    q = q || load();
    queueBox.hidden = q.length === 0;
    queueBox.textContent = "";
    if (!q.length) return;
    const review = q.some((e) => e.state === "review");
    const head = document.createElement("p");
    head.textContent = review
      ? t("Another device recorded meanwhile (marked ★ below). Your queued facts wait for review:")
      : t("{n} fact(s) waiting to be sent — kept on this device until the server has them.", q.length);
    queueBox.appendChild(head);
    const ol = document.createElement("ol");
    q.forEach((e) => {
      const li = document.createElement("li");
      li.textContent = describe(e.fact);
      ol.appendChild(li);
    });
    queueBox.appendChild(ol);
    queueBox.classList.toggle("review", review);
    const u = document.getElementById("undo");
    if (u) u.disabled = false;  // a queued fact can be taken back
    const noteBtn = document.getElementById("note");
    if (noteBtn) noteBtn.disabled = false;  // ... and given a note
    if (review) {
      const send = button(t("Send mine after theirs"), "big primary", () => {
        const n = load(); const p = position();
        let at = p;
        n.forEach((e) => { e.state = "waiting"; e.expected_position = at; at += 1 + (e.note ? 1 : 0); });
        save(n); pump();
      });
      send.id = "queue-send";
      const drop = button(t("Discard mine"), "big", () => { save([]); refresh(); });
      drop.id = "queue-discard";
      queueBox.append(send, drop);
    }
  }

  function button(text, cls, onClick) {
    const b = document.createElement("button");
    b.type = "button"; b.className = cls; b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  function setNet(state, text) { net.dataset.state = state; net.textContent = text; }

  async function pump() {
    if (sending) return;
    sending = true;
    try {
      for (;;) {
        const q = load();
        if (!q.length || q[0].state === "review") break;
        const entry = q[0];
        let response;
        try {
          response = await fetch(FACTS_URL, {
            method: "POST",
            headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrfToken() },
            body: JSON.stringify({ facts: factsOf(entry), expected_position: entry.expected_position, command_id: entry.command_id }),
          });
        } catch (e) {
          setNet("offline", t("offline — {n} queued", load().length));
          if (openForms()) closeForm();  // kept in the queue: back to the offers for the next fact
          // if the server answers at all, its preview shows the offers after the queued facts (once per new fact,
          // not at every retry: a form being filled in stays as it is)
          if (load().length !== previewed) { previewed = load().length; refresh(); }
          setTimeout(pump, RETRY_MS);
          break;
        }
        if (response.status === 200 || response.status === 201) {
          const result = await response.json().catch(() => ({}));
          if (typeof result.position === "number") stored = Math.max(stored, result.position);
          save(load().filter((e) => e.command_id !== entry.command_id));
          setNet("online", t("online"));
          if (entry.back) { window.location.assign(entry.back); break; }  // a fix from the replay: show it there
          await refresh();
          continue;
        }
        const body = await response.json().catch(() => ({}));
        if (response.status === 409 && body.error === "StalePosition") {
          const n = load(); n.forEach((e) => { e.state = "review"; }); save(n);
          await refresh(entry.expected_position);
          break;
        }
        // the server is busy or down, or this device was signed out (401, decision 0024): keep and retry
        if (response.status >= 500 || response.status === 429 || response.status === 401) {
          setNet("offline", t("server busy — {n} queued", load().length));
          setTimeout(pump, RETRY_MS);
          break;
        }
        // refused (422 rule, 400 shape, 409 reused id): drop it, say why, keep the picked inputs
        save(load().filter((e) => e.command_id !== entry.command_id));
        noAutoAt = entry.expected_position;
        refused(entry, body);
        break;
      }
    } finally {
      sending = false;
      settle();
    }
  }

  function csrfToken() {
    // the page's token (decision 0017): read at send time, so a queue kept across a reload uses the new page's
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  function factsOf(entry) {
    // a note goes with its fact as a FactAnnotated in the same command: all or nothing (decision 0017)
    const facts = [entry.fact].concat(entry.more || []);  // a group's other facts: the same command
    if (entry.note) {
      const seq = entry.note_seq || entry.expected_position + 1;
      facts.push({ type: "FactAnnotated", actor: null, data: { seq: seq, note: entry.note } });
    }
    return facts;
  }

  function refused(entry, body) {
    const violations = (body.violations || []).map((v) => RULES[v.rule] || v.message).filter(Boolean);
    const text = (violations.length ? violations.join(" ") : body.message || t("refused")) ;
    live.querySelectorAll("form.fact-form[data-sent]").forEach((f) => { delete f.dataset.sent; });
    if ((body.violations || []).some((v) => v.rule === "unwarranted")
        && askCause(entry, t("Not recorded — {n}", TITLES[entry.fact.type] || entry.fact.type) + ": " + text)) {
      message.hidden = true;
      return;
    }
    const form = live.querySelector("form.fact-form:not([hidden])");
    message.classList.remove("auto");
    const target = form ? form.querySelector(".form-error") : message;
    target.textContent = t("Not recorded — {n}", (form && form.dataset.label) || TITLES[entry.fact.type] || entry.fact.type) + ": " + text;
    target.hidden = false;
    if (!form) { message.hidden = false; }
  }

  // -- the live panel -------------------------------------------------------------------------
  let shownBody = null;  // the queued facts the panel shown was previewed after (null: the stored game's panel)
  async function fetchPanel() {
    // facts still queued here: the server previews the offers after them (nothing is stored by a preview)
    const q = load().filter((e) => e.state !== "review");
    if (q.length && !q.some((e, i) => i && e.state === "review")) {
      const body = JSON.stringify({ facts: q.slice(0, 50).flatMap(factsOf), expected_position: q[0].expected_position });
      try {
        const r = await fetch(PANEL_URL.replace(/\/panel$/, "/preview"), {
          method: "POST", headers: { "Content-Type": "application/json", "Accept": "text/html", "X-CSRF-Token": csrfToken() },
          body: body,
        });
        if (r.ok) return { html: await r.text(), body: body };
      } catch (e) { return null; }
    }
    const r = await fetch(PANEL_URL, { headers: { "Accept": "text/html" } });
    return r.ok ? { html: await r.text(), body: null } : null;
  }

  // A table effect's form is fetched when it is opened (the panel draws only their buttons, decision 0034): the
  // form of the same position as the panel shown (after the same queued facts). null: the game moved on.
  async function loadForm(btn) {
    const index = btn.dataset.offer;
    const url = PANEL_URL.split("?")[0].replace(/\/panel$/, "/form/") + index + "?type=" + encodeURIComponent(btn.dataset.type)
      + "&actor=" + encodeURIComponent(btn.dataset.actor);
    const shown = refreshes;
    inflight++;
    root.dataset.idle = "no";
    let html = null;
    try {
      const r = await fetch(url, shownBody == null ? { headers: { "Accept": "text/html" } } : {
        method: "POST", body: shownBody,
        headers: { "Content-Type": "application/json", "Accept": "text/html", "X-CSRF-Token": csrfToken() },
      });
      if (r.ok) html = await r.text();
      else if (r.status === 409) { message.textContent = t("The game moved on: here is what may come next now."); message.hidden = false; }
    } catch (e) { html = null; }
    inflight--;
    if (html == null || shown !== refreshes) { if (html == null) refresh(); else settle(); return null; }
    const box = document.getElementById("lazy-forms");
    const old = box.querySelector('form.fact-form[data-offer="' + index + '"]');
    if (old) old.remove();
    box.insertAdjacentHTML("beforeend", html);
    const form = box.querySelector('form.fact-form[data-offer="' + index + '"]');
    form.addEventListener("submit", (e) => { e.preventDefault(); submit(form); });
    settle();
    return form;
  }

  // data-idle="yes": nothing queued, nothing in flight, the panel is the latest (tests and the bench wait for it)
  function settle() { root.dataset.idle = !sending && !inflight && load().length === 0 ? "yes" : "no"; }

  let inflight = 0;
  async function refresh(otherSince) {
    let html;
    const mine = ++refreshes;
    inflight++;
    root.dataset.idle = "no";
    let got;
    try {
      got = await fetchPanel();
    } catch (e) { got = null; }
    inflight--;
    if (got == null || mine !== refreshes) { settle(); return; }
    html = got.html;
    shownBody = got.body;
    live.innerHTML = html;
    if (otherSince != null) {
      live.querySelectorAll("#recent li[data-seq]").forEach((li) => {
        if (Number(li.dataset.seq) > otherSince) li.classList.add("other");
      });
    }
    wire();
    settle();
  }

  function openForms() { return live.querySelector("form.fact-form:not([hidden])"); }

  function showOffers(show) {
    // the table effects (below the forms) and Undo stay at hand while a form asks for the next step
    live.querySelectorAll("#offers, .next-title").forEach((el) => { el.hidden = !show; });
  }

  function openOffer(index, edit) {
    const form = live.querySelector('form.fact-form[data-offer="' + index + '"]');
    const btn = live.querySelector('button.offer[data-offer="' + index + '"]');
    if (btn && btn.classList.contains("direct") && !edit && btn.dataset.fact) { enqueue(JSON.parse(btn.dataset.fact)); return; }
    if (!form && btn && btn.dataset.lazy === "yes") {  // a table effect's form: fetched, then opened
      loadForm(btn).then((f) => { if (f) openOffer(index, edit); });
      return;
    }
    if (btn && btn.classList.contains("direct") && !edit) { submit(form); return; }
    live.querySelectorAll("form.fact-form").forEach((f) => { f.hidden = f !== form; });
    // opened afresh: the values the server preselected (not what an earlier, queued fact of this form picked)
    form.querySelectorAll("button.value").forEach((b) => {
      b.classList.toggle("chosen", b.dataset.pre === "yes");
      b.setAttribute("aria-pressed", b.dataset.pre === "yes" ? "true" : "false");
    });
    delete form.dataset.sent;
    showOffers(false);
    message.hidden = true;
    labelKeys(form);
    showBoardHint(form);
    const first = form.querySelector("fieldset.field input:not(.filter), fieldset.field textarea, .filter");
    if (form.dataset.type === "FactAnnotated") { aimNote(form); first.focus(); }  // the note: write at once
    else if (first && first.classList.contains("filter")) first.focus();
    else form.querySelector(".confirm").focus();
  }

  function closeForm() {
    live.querySelectorAll("form.fact-form").forEach((f) => { f.hidden = true; });
    showOffers(true);
    labelKeys(null);
  }

  function labelKeys(form) {
    // keys go to the offers (no form open) or to the values of the form's first field still to choose
    live.querySelectorAll("kbd").forEach((k) => { k.textContent = ""; });
    targets(form).forEach((el, i) => { if (i < KEYS.length) el.querySelector("kbd").textContent = KEYS[i]; });
  }

  function targets(form) {
    if (!form) return Array.from(live.querySelectorAll("#offers button.offer")).filter((b) => !b.hidden);
    const fields = Array.from(form.querySelectorAll('fieldset[data-input="choice"], fieldset[data-input="multi"]'));
    const open = fields.find((f) => !f.querySelector(".value.chosen")) || fields[0];
    return open ? Array.from(open.querySelectorAll("button.value")).filter((b) => !b.hidden) : [];
  }

  function parseFree(el, parse) {
    const raw = el.value.trim();
    if (raw === "") return undefined;
    if (parse === "int") return Number(raw);
    if (parse === "json") return JSON.parse(raw);
    if (parse === "text") return raw;
    const scalar = (s) => (/^-?\d+$/.test(s) ? Number(s) : s);
    if (parse === "list") return raw.split(",").map((s) => s.trim()).filter(Boolean).map(scalar);
    return scalar(raw);
  }

  function collect(form) {
    const data = {};
    const also = [];
    const missing = [];
    form.querySelectorAll("fieldset.field").forEach((fs) => {
      const name = fs.dataset.field;
      const kind = fs.dataset.input;
      let value;
      if (kind === "fixed") value = JSON.parse(fs.querySelector(".fixed").dataset.value);
      else if (kind === "choice") {
        const b = fs.querySelector(".value.chosen");
        value = b ? JSON.parse(b.dataset.value) : undefined;
        if (b && b.dataset.also) also.push(JSON.parse(b.dataset.also));
      } else if (kind === "multi" && fs.querySelector(".value.unknown.chosen")) {
        value = "unknown";  // nobody saw which: the whole list is unknown (decision 0018)
      } else if (kind === "multi") {
        value = Array.from(fs.querySelectorAll(".value.chosen")).map((b) => JSON.parse(b.dataset.value));
      } else if (fs.querySelector(".value.unknown.chosen")) {
        value = "unknown";  // a lenient game's "Unknown" beside a free input (decision 0018)
      } else if (kind === "tiles") {  // one picker per room space; the ones left face down are not recorded
        const map = {};
        fs.querySelectorAll("select[data-slot]").forEach((sel) => { if (sel.value) map[sel.dataset.slot] = sel.value; });
        value = Object.keys(map).length ? map : undefined;
      } else {
        const input = fs.querySelector("input, textarea");
        try { value = parseFree(input, fs.dataset.parse); } catch (e) { throw new Error(name + ": not valid JSON"); }
        const kindOf = causeKind(fs);  // a card typed under a kind of cause is named with it ("room:Nest")
        if (kindOf && typeof value === "string" && !value.includes(":")) value = kindOf + ":" + value;
        const seen = fs.querySelector(".seen-value.chosen");  // a value this game recorded before, tapped
        if (value === undefined && seen) value = JSON.parse(seen.dataset.value);
      }
      if (value === undefined) { if (fs.dataset.required === "yes") missing.push(fs.dataset.label || name); return; }
      data[name] = value;
    });
    if (missing.length) throw new Error(t("choose {n}", missing.join(", ")));
    // what a chosen value decides by itself (an event card's printed corridors), unless typed otherwise
    also.forEach((extra) => Object.entries(extra).forEach(([k, v]) => {
      if (!(k in data) && form.querySelector('fieldset[data-field="' + k + '"]')) data[k] = v;
    }));
    return data;
  }

  // -- a note on the fact just recorded (the Note button): any fact, a one-tap or derived one too -------------
  const NOT_NOTED = ["FactVoided", "FactReplaced", "Commented", "FactAnnotated"];
  function noteTarget() {
    // the latest fact: queued on this device (its seq is the position it expects + 1) or, nothing queued, the
    // latest table fact stored (the server names it); a correction or a remark queued last has no note target
    const q = load();
    const last = q.length ? q[q.length - 1] : null;
    if (!last) {
      const seq = Number(live.querySelector("form.note-form").dataset.noteSeq || 0);
      return seq ? { seq: seq } : null;
    }
    if (NOT_NOTED.includes(last.fact.type) || last.state === "review") return null;
    const waiting = q.length > 1 || !sending;  // not in flight: the note can still go in the same command
    return { seq: last.expected_position + 1, entry: waiting && !last.note ? last : null, fact: last.fact };
  }

  function aimNote(form) {
    const target = noteTarget();
    const span = form.querySelector(".note-target");
    if (target && target.fact) span.textContent = "#" + target.seq + " " + describe(target.fact);
  }

  function addNote(form, text) {
    const err = form.querySelector(".form-error");
    const target = noteTarget();
    if (!target) { err.textContent = t("Nothing to put a note on yet: record the fact first."); err.hidden = false; return; }
    if (!text) { err.textContent = t("choose {n}", "note"); err.hidden = false; return; }
    form.dataset.sent = "yes";
    if (target.entry) {  // still waiting in the queue: the note goes with its fact, in one command
      const q = load();
      q[q.length - 1].note = text;
      save(q);
      closeForm();
      refresh();
      return;
    }
    enqueue({ type: "FactAnnotated", actor: null, data: { seq: target.seq, note: text } });
  }

  function submit(form) {
    if (form.dataset.sent === "yes") return;
    if (form.dataset.type === "FactAnnotated") { addNote(form, form.querySelector("input[name=note]").value.trim()); return; }  // a second tap (or Enter after a quick tap) records nothing twice
    const err = form.querySelector(".form-error");
    let data;
    try { data = collect(form); } catch (e) {
      err.textContent = e.message; err.hidden = false;
      if (form.hidden) openOffer(form.dataset.offer);
      return;
    }
    err.hidden = true;
    let actor = form.dataset.actor === "" ? null : Number(form.dataset.actor);
    if (form.dataset.type === "Commented" && "about" in data) { actor = data.about; delete data.about; }  // the seat it is about
    const noteBox = form.querySelector("fieldset.remark input");
    const note = noteBox ? noteBox.value.trim() : "";
    const fact = { type: form.dataset.type, actor: actor, data: data };
    const fixing = form.dataset.replaces ? Number(form.dataset.replaces) : null;
    if (fixing === null) { form.dataset.sent = "yes"; enqueue(fact, note ? { note: note } : null); return; }
    // a fix from the replay: the fact as it really was replaces #n; a note alone leaves the fact as it is
    const back = document.getElementById("panel").dataset.back || null;
    const unchanged = form.dataset.original && same(JSON.parse(form.dataset.original), fact);
    if (unchanged && !note) {
      err.textContent = "Nothing changed: pick what really happened, or write a note."; err.hidden = false; return;
    }
    if (unchanged) {
      enqueue({ type: "FactAnnotated", actor: null, data: { seq: fixing, note: note } }, { back: back });
      return;
    }
    enqueue({ type: "FactReplaced", actor: null, data: { seq: fixing, replacement: fact } },
      Object.assign({ back: back }, note ? { note: note, note_seq: fixing } : {}));
  }

  function same(a, b) {
    // key order does not matter: compare the canonical forms
    const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === "object"
      ? Object.keys(v).sort().reduce((o, k) => { o[k] = canon(v[k]); return o; }, {}) : v);
    return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
  }

  function undo() {
    const b = document.getElementById("undo");
    if (document.getElementById("panel").dataset.fix) return;  // fixing one fact: nothing to undo here
    // a fact still queued on this device is taken back from the queue (the one being sent is not)
    const q = load();
    const local = q.length > (sending ? 1 : 0) && q[q.length - 1].state !== "review" ? q[q.length - 1] : null;
    if (!local && (!b || !b.dataset.seq)) return;
    if (Date.now() - undoArmed > 4000) {  // a first tap arms it: an undo is a fact too
      undoArmed = Date.now();
      if (b) {
        b.textContent = local ? t("Tap again to take back the queued {n}", TITLES[local.fact.type] || local.fact.type)
          : t("Tap again to void {n}", "#" + b.dataset.seq + " (" + b.dataset.line + ")");
        b.classList.add("armed");
      }
      return;
    }
    undoArmed = 0;
    if (local) {
      save(load().filter((e) => e.command_id !== local.command_id));
      live.querySelectorAll("form.fact-form[data-sent]").forEach((f) => { delete f.dataset.sent; });
      noAutoAt = position() + queuedFacts(load());
      if (b) { b.classList.remove("armed"); b.textContent = "↶ " + t("Undo") + (b.dataset.seq ? " #" + b.dataset.seq : ""); }
      refresh();  // the offers after what is still queued (the panel showed them after the fact taken back)
      return;
    }
    noAutoAt = position() + queuedFacts(load()) + 1;  // after the void: ask again rather than re-record it
    let seqs = [Number(b.dataset.seq)];
    try { const listed = JSON.parse(b.dataset.seqs || "[]"); if (listed.length) seqs = listed; } catch (e) { /* the one seq */ }
    enqueue({ type: "FactVoided", actor: null, data: { seqs: seqs } });
  }

  function complete(form) {
    // every list has a value chosen and nothing required is left to type
    return Array.from(form.querySelectorAll("fieldset.field")).every((fs) => {
      const kind = fs.dataset.input;
      if (kind === "choice") return !!fs.querySelector(".value.chosen");
      if (kind === "free") {
        const input = fs.querySelector("input, textarea");
        return fs.dataset.required !== "yes" || (input && input.value.trim() !== "") || !!fs.querySelector(".seen-value.chosen");
      }
      return kind === "fixed";
    });
  }

  function choose(btn) {
    const fs = btn.closest("fieldset");
    const form = btn.closest("form");
    // one tap records a fact when that tap completes it (a form already complete waits for Record)
    const quick = form && form.dataset.quick === "yes" && !form.hidden && !complete(form);
    if (fs.dataset.input === "multi" || fs.dataset.input === "free") {
      btn.classList.toggle("chosen");
      if (btn.classList.contains("chosen")) {  // "Unknown" and known values exclude each other
        // a free field's listed values (seen before, a card list) are one value: the tap replaces what was typed
        const others = fs.dataset.input === "free" ? ".value" : btn.classList.contains("unknown") ? ".value:not(.unknown)" : ".value.unknown";
        fs.querySelectorAll(others).forEach((v) => { if (v !== btn) { v.classList.remove("chosen"); v.setAttribute("aria-pressed", "false"); } });
        const typed = fs.dataset.input === "free" ? fs.querySelector("input:not(.filter)") : null;
        if (typed) typed.value = "";
      }
    } else {
      fs.querySelectorAll(".value").forEach((v) => { v.classList.remove("chosen"); v.setAttribute("aria-pressed", "false"); });
      btn.classList.add("chosen");
    }
    btn.setAttribute("aria-pressed", btn.classList.contains("chosen") ? "true" : "false");
    labelKeys(form);
    if (quick && complete(form)) submit(form);
  }

  function filter(input) {
    const term = input.value.trim().toLowerCase();
    const scope = input.parentElement;
    const kind = causeKind(scope);  // a cause's picker lists the kind chosen (event card, room …) only
    scope.querySelectorAll("button.value, button.offer, button.offer-group").forEach((b) => {
      b.hidden = (term !== "" && !(b.textContent + " " + (b.dataset.aliases || "")).toLowerCase().includes(term))
        || (kind !== null && b.dataset.kind !== undefined && b.dataset.kind !== kind);
    });
    labelKeys(openForms());
  }

  // -- a fact's named cause (``by``, decision 0045): the kind of cause, then its card; "event:Coolant Leak" is stored
  function causeKind(scope) {
    const select = scope && scope.matches("fieldset.field") && scope.querySelector("select.cause-kind");
    return select ? select.value : null;
  }

  function pickKind(select) {
    // another kind: a card chosen of the one before no longer stands; the list shows the new kind's cards
    const fs = select.closest("fieldset.field");
    fs.querySelectorAll(".picks .value.chosen").forEach((b) => {
      if (b.dataset.kind !== select.value) { b.classList.remove("chosen"); b.setAttribute("aria-pressed", "false"); }
    });
    filter(fs.querySelector("input:not(.filter)"));
  }

  function askCause(entry, text) {
    // refused as unwarranted: open the fact's form (a one-tap one too) at its cause's picker, saying why
    const type = entry.fact.type;
    const actor = entry.fact.actor == null ? "" : String(entry.fact.actor);
    const mark = (form) => {
      const fs = form.querySelector('fieldset[data-field="by"]');
      if (!fs) return false;
      const err = form.querySelector(".form-error");
      err.textContent = text + " " + t("Choose what caused it under “{n}”, then record it again.", fs.dataset.label || "by");
      err.hidden = false;
      fs.classList.add("needed");
      const need = fs.querySelector(".cause-need");
      if (need) need.hidden = false;
      fs.scrollIntoView({ block: "center" });
      const select = fs.querySelector("select.cause-kind") || fs.querySelector("input");
      if (select) select.focus();
      return true;
    };
    const open = openForms();
    if (open && open.dataset.type === type && open.dataset.actor === actor) return mark(open);
    const btn = live.querySelector('button.offer[data-type="' + type + '"][data-actor="' + actor + '"]');
    if (!btn) return false;
    const show = (form) => { openOffer(form.dataset.offer, true); mark(form); };
    const form = live.querySelector('form.fact-form[data-offer="' + btn.dataset.offer + '"]');
    if (form) { show(form); return true; }
    loadForm(btn).then((f) => { if (f) show(f); });
    return true;
  }

  let effectsOpen = false;  // the recorder opened the table effects: they stay open across facts
  function wire() {
    const details = live.querySelector("details.effects");
    if (details) {
      details.open = effectsOpen;
      details.addEventListener("toggle", () => { effectsOpen = details.open; });
    }
    labelKeys(null);
    showQueue();
    live.querySelectorAll("form.fact-form").forEach((f) => {
      f.addEventListener("submit", (e) => { e.preventDefault(); submit(f); });
    });
    const panel = document.getElementById("panel");
    // the title leads to the replay at the latest fact (the page was loaded at an earlier one)
    const title = root.querySelector(".rec-head h1 a");
    if (panel && title && panel.dataset.replay) title.href = panel.dataset.replay;
    if (panel && panel.dataset.fix) { openOffer(panel.dataset.fixOffer); return; }  // fixing a fact: its form, prefilled
    guide();
  }

  // The game's own next step, when it is the only one: a derived fact (the rules decide every value: time
  // advances, the clean-up, the first player token) is recorded for you; any other is asked at once.
  function guide() {
    const panel = document.getElementById("panel");
    if (!panel || panel.dataset.sole === "") return;
    const q = load();
    if (q.some((e) => e.state === "review")) return;
    // facts queued here and a panel that is not their preview (a reload, a failed preview): its sole step is
    // the stored game's, maybe one of the queued facts already — wait for the panel after them
    if (q.length && !Number(panel.dataset.preview)) return;
    const at = position() + queuedFacts(q);
    const form = live.querySelector('form.fact-form[data-offer="' + panel.dataset.sole + '"]');
    if (!form) return;
    if (panel.dataset.soleDerived === "yes" && at !== noAutoAt && at !== lastAutoAt) {
      lastAutoAt = at;
      message.textContent = t("Recorded for you: {n} (Undo takes it back).", form.dataset.label || form.dataset.type);
      message.hidden = false;
      message.classList.add("auto");
      submit(form);
      return;
    }
    if (panel.dataset.soleDerived !== "yes" && !openForms()) openOffer(panel.dataset.sole, true);
  }


  // -- the board picture: tapping a room picks it in the open form's place field ------------------
  function placeField(form) {
    if (!form) return null;
    const fields = Array.from(form.querySelectorAll('fieldset.field[data-place="yes"]'));
    return fields.find((f) => f.dataset.input === "free" ? !f.querySelector("input").value
      : !f.querySelector(".value.chosen")) || fields[0] || null;
  }

  function tapPlace(place) {
    const form = openForms();
    const fs = placeField(form);
    if (!form) { offersAt(place); return; }
    if (!fs) {
      message.textContent = t("This fact names no room: the board tap picks rooms only for facts that do.");
      message.hidden = false;
      return;
    }
    message.hidden = true;
    const err = form.querySelector(".form-error");
    if (fs.dataset.input === "free") {
      fs.querySelector("input").value = place;
      err.hidden = true;
      return;
    }
    const wanted = JSON.stringify(place);
    const btn = Array.from(fs.querySelectorAll("button.value")).find((b) => b.dataset.value === wanted);
    if (!btn) {
      err.textContent = fs.dataset.field.replace(/_/g, " ") + ": " + place + " is not one of the legal choices here.";
      err.hidden = false;
      return;
    }
    err.hidden = true;
    btn.hidden = false;
    choose(btn);
  }

  function offersAt(place) {
    // no form open: keep only the offers that name the tapped room (e.g. the moves into it)
    const wanted = JSON.stringify(place);
    const offers = Array.from(live.querySelectorAll("#offers button.offer"));
    const hits = offers.filter((b) => b.dataset.places && JSON.parse(b.dataset.places).some((p) => JSON.stringify(p) === wanted));
    const box = document.getElementById("place-filter");
    if (!hits.length) {
      message.textContent = t("Nothing to record in {n} right now; the table effects list has more.", place);
      message.hidden = false;
      return;
    }
    message.hidden = true;
    offers.forEach((b) => { b.hidden = !hits.includes(b); });
    box.querySelector("span").textContent = hits.length + " offer(s) in " + place + ":";
    box.hidden = false;
    labelKeys(null);
  }

  function showAllOffers() {
    live.querySelectorAll("#offers button.offer").forEach((b) => { b.hidden = false; });
    const box = document.getElementById("place-filter");
    if (box) box.hidden = true;
    labelKeys(null);
  }

  // a one-tap table effect (Ruleset.effect_groups): its facts, every value given, recorded in one command
  function recordGroup(btn) {
    const facts = JSON.parse(btn.dataset.facts);
    if (!facts.length) return;
    // as a direct offer's button: each tap queues the facts again (a card resolved twice is tapped twice)
    enqueue(facts[0], facts.length > 1 ? { more: facts.slice(1) } : null);
  }

  function showBoardHint(form) {
    const hint = live.querySelector(".board-hint");
    if (hint) hint.hidden = !placeField(form);
  }

  live.addEventListener("click", (e) => {
    const room = e.target.closest("#record-board [data-place]");
    if (room) { e.preventDefault(); tapPlace(room.dataset.place); return; }
    const t = e.target.closest("button");
    if (!t) return;
    if (t.classList.contains("offer-group")) recordGroup(t);
    else if (t.classList.contains("offer") || t.id === "comment" || t.id === "note") openOffer(t.dataset.offer);
    else if (t.classList.contains("offer-edit")) openOffer(t.dataset.offer, true);
    else if (t.classList.contains("value")) choose(t);
    else if (t.classList.contains("back")) closeForm();
    else if (t.id === "undo") undo();
    else if (t.id === "place-all") showAllOffers();
  });
  live.addEventListener("input", (e) => {
    if (e.target.classList.contains("filter") || isPickBox(e.target)) filter(e.target);
  });
  live.addEventListener("change", (e) => { if (e.target.matches("select.cause-kind")) pickKind(e.target); });
  // a free field with a list to pick from (the action cards): what is typed searches the list, by either language
  function isPickBox(el) {
    const fs = el.closest("fieldset.field");
    return !!(fs && fs.dataset.input === "free" && fs.querySelector(".picks") && el.matches("input"));
  }

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const typing = e.target.matches("input:not(.filter), textarea, select");
    const form = openForms();
    if (e.key === "Escape") { if (form) closeForm(); return; }
    if (e.key === "Enter") {
      if (!form || e.target.matches("textarea")) return;
      e.preventDefault();
      const fs = e.target.closest("fieldset.field");
      if ((e.target.matches(".filter") || (isPickBox(e.target) && e.target.value.trim() !== "")) && fs
          && !fs.querySelector(".value.chosen")) {
        // searched a long list: Enter takes the first match
        const first = isPickBox(e.target) ? fs.querySelector(".picks button.value:not([hidden])") : targets(form)[0];
        if (first) { choose(first); return; }
      }
      submit(form);
      return;
    }
    if (typing || e.target.matches(".filter")) {
      if (!(e.target.matches(".filter") && e.target.value === "" && e.key === "Backspace")) return;
    }
    if (e.key === "Backspace") {
      e.preventDefault();
      if (form) closeForm(); else undo();
      return;
    }
    const i = KEYS.indexOf(e.key.toLowerCase());
    if (i < 0 || e.key.length !== 1) return;
    const list = targets(form);
    if (i >= list.length) return;
    e.preventDefault();
    if (form) choose(list[i]); else openOffer(list[i].dataset.offer);
  });

  window.addEventListener("online", () => { setNet("online", t("online")); pump(); });
  window.addEventListener("offline", () => setNet("offline", t("offline — {n} queued", load().length)));

  wire();
  showQueue();
  if (!navigator.onLine) setNet("offline", t("offline — {n} queued", load().length));
  pump();
})();
