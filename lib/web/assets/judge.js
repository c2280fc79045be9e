// Judge page: keyboard-first labelling. The current row is the focused
// element: Tab, a click and j/k move the same cursor. Every label, note and
// decision is a small POST saved at once; undo and redo walk the history
// stored on the server, so they survive a reload. A lost server shows one
// banner, stops the cursor and retries until the change is saved.
"use strict";
(function () {
  const root = document.getElementById("judge");
  if (!root) return;
  const lm = window.lmJudging;
  const qid = root.dataset.qid;
  let blind = root.dataset.reveal !== "1";
  const rows = Array.from(document.querySelectorAll("li.row"));
  const head = document.getElementById("qhead");
  // Milliseconds each row was the current one, in all and with the sources
  // hidden, kept in sessionStorage so that a reload of this tab keeps them.
  const store = "linemem-time:" + root.dataset.annotator + ":" + qid;
  const spent = rows.map(() => 0);
  const spentBlind = rows.map(() => 0);
  try {
    const kept = JSON.parse(sessionStorage.getItem(store) || "{}");
    rows.forEach((r, i) => { if (kept[r.dataset.chunk]) [spent[i], spentBlind[i]] = kept[r.dataset.chunk]; });
  } catch (e) { /* no storage: the times start at zero */ }
  let cur = -1;
  let since = performance.now();

  lm.setup(root, head);

  // flush adds the time since the last flush to the current row and saves
  // every row's times.
  function flush() {
    const now = performance.now();
    if (cur >= 0) {
      spent[cur] += now - since;
      if (blind) spentBlind[cur] += now - since;
    }
    since = now;
    const kept = {};
    rows.forEach((r, i) => { if (spent[i] > 0) kept[r.dataset.chunk] = [spent[i], spentBlind[i]]; });
    try { sessionStorage.setItem(store, JSON.stringify(kept)); } catch (e) { /* storage full or off */ }
  }
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", flush);

  function setCur(i) {
    if (i === cur) return;
    flush();
    if (cur >= 0) rows[cur].classList.remove("current");
    cur = i;
    rows[cur].classList.add("current");
    root.dataset.cur = String(cur);
  }

  const tenths = (ms) => Math.round(ms / 100) / 10;

  // times returns row i's seconds in all and, of those, with the sources
  // hidden, both in tenths and read after one flush, so the blind part never
  // exceeds the whole (the server refuses a label where it does).
  function times(i) {
    if (i === cur) flush();
    const all = tenths(spent[i]);
    return { seconds: all, blind_seconds: Math.min(tenths(spentBlind[i]), all) };
  }

  // toggleSources shows or hides the question's sources without leaving the
  // page: it reads the page as the other view and takes over its origins,
  // evidence box and evidence marks, so the row's timer runs on.
  function toggleSources() {
    flush();
    const reveal = blind;
    const url = location.pathname + (reveal ? "?reveal=1" : "");
    fetch(url, { headers: { Accept: "text/html" } }).then((r) => {
      if (!r.ok) throw new Error("status " + r.status);
      return r.text();
    }).then((html) => {
      const doc = new DOMParser().parseFromString(html, "text/html");
      const fresh = doc.getElementById("judge");
      if (!fresh) throw new Error("no Judge page");
      const link = document.getElementById("reveal");
      const nlink = doc.getElementById("reveal");
      link.setAttribute("href", nlink.getAttribute("href"));
      link.textContent = nlink.textContent;
      link.nextElementSibling.replaceWith(document.importNode(nlink.nextElementSibling, true));
      const ev = root.querySelector("details.evidence");
      if (ev) ev.remove();
      const nev = fresh.querySelector("details.evidence");
      if (nev) root.querySelector(".defsbox").after(document.importNode(nev, true));
      rows.forEach((row) => {
        const nrow = doc.getElementById(row.id);
        if (!nrow) return;
        row.querySelectorAll(".head .origin").forEach((o) => o.remove());
        const labels = row.querySelector(".head .labels");
        nrow.querySelectorAll(".head .origin").forEach((o) => labels.before(document.importNode(o, true)));
        const fresher = new Map(Array.from(nrow.querySelectorAll("ul.msgs li[data-id]")).map((li) => [li.dataset.id, li]));
        row.querySelectorAll("ul.msgs li[data-id]").forEach((li) => {
          const n = fresher.get(li.dataset.id);
          if (n) { li.className = n.className; li.innerHTML = n.innerHTML; }
        });
      });
      flush();
      blind = !reveal;
      root.dataset.reveal = reveal ? "1" : "0";
      history.replaceState(null, "", url + location.hash);
    }).catch(() => lm.say("could not load the sources: press s again", false));
  }

  function focusRow(i) {
    if (rows.length === 0) return;
    i = Math.max(0, Math.min(rows.length - 1, i));
    rows[i].focus({ preventScroll: true });
    setCur(i);
    rows[i].scrollIntoView({ block: "nearest" });
  }

  function progress(p) {
    document.getElementById("progress").textContent = p.question.Judged + " / " + p.question.Rows;
    document.getElementById("allprogress").textContent = p.all.Judged + " / " + p.all.Rows;
  }

  function show(row, rel) {
    row.dataset.rel = rel === null || rel === undefined ? "" : String(rel);
    row.classList.remove("rel0", "rel1", "rel2", "judged");
    if (row.dataset.rel !== "") row.classList.add("judged", "rel" + row.dataset.rel);
  }

  function label(i, rel) {
    const row = rows[i];
    const before = row.dataset.rel === "" ? null : Number(row.dataset.rel);
    show(row, rel);
    const t = times(i);
    return lm.post("/api/label", { qid: qid, chunk_id: row.dataset.chunk, rel: rel, blind: blind, seconds: t.seconds, blind_seconds: t.blind_seconds }, row)
      .then(progress, (err) => { if (!err.lost) show(row, before); });
  }

  function decide(keep) {
    lm.post("/api/decide", { qid: qid, keep: keep }).then((p) => {
      document.getElementById("decision").textContent = keep ? "keep" : "drop";
      progress(p);
    }, () => {});
  }

  function step(path) {
    lm.post(path, {}).then((ev) => {
      if (!ev.done) { lm.say(path === "/api/undo" ? "nothing to undo" : "nothing to redo", false); return; }
      if (ev.qid !== qid) {
        location.href = "/judge/" + encodeURIComponent(ev.qid) + (ev.chunk_id ? "#row-" + ev.chunk_id : "");
        return;
      }
      if (ev.kind === "decision") {
        progress(ev);
        document.getElementById("decision").textContent = ev.keep === null ? "—" : ev.keep ? "keep" : "drop";
        return;
      }
      progress(ev);
      const i = rows.findIndex((r) => r.dataset.chunk === ev.chunk_id);
      if (i < 0) return;
      show(rows[i], ev.rel);
      rows[i].querySelector("textarea.note").value = ev.note;
      focusRow(i);
    }, () => {});
  }

  function nextUnjudged() {
    for (let k = 1; k <= rows.length; k++) {
      const i = (cur + k) % rows.length;
      if (rows[i].dataset.rel === "") { focusRow(i); return; }
    }
    lm.say("every row of this question is labelled: U goes to the next question with unjudged rows", false);
  }

  rows.forEach((row, i) => {
    row.addEventListener("focusin", () => setCur(i));
    row.addEventListener("click", (e) => {
      if (e.target.closest("textarea, button.more")) return;
      if (!e.target.closest("textarea")) row.focus({ preventScroll: true });
      const b = e.target.closest("button.lab");
      if (b && !lm.lost()) label(i, Number(b.dataset.rel));
    });
    lm.watchOverflow(row);
    const note = row.querySelector("textarea.note");
    let timer = 0;
    const save = () => {
      clearTimeout(timer);
      timer = 0;
      lm.post("/api/note", { qid: qid, chunk_id: row.dataset.chunk, note: note.value }, row).then(progress, () => {});
    };
    note.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(save, 400); });
    note.addEventListener("blur", () => { if (timer) save(); });
    note.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { note.blur(); row.focus({ preventScroll: true }); e.preventDefault(); }
      e.stopPropagation();
    });
  });
  document.getElementById("keep").addEventListener("click", () => decide(true));
  document.getElementById("drop").addEventListener("click", () => decide(false));

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest("input, textarea, select")) return;
    if (lm.lost() && e.key !== "Tab") { e.preventDefault(); lm.say(null, true); return; }
    if (e.key === "Tab") return;
    const go = (id) => { const a = document.getElementById(id); if (a) location.href = a.href; };
    const row = rows[cur];
    switch (e.key) {
      case "j": case "ArrowDown": focusRow(cur + 1); break;
      case "k": case "ArrowUp": focusRow(cur - 1); break;
      case "0": case "1": case "2":
        if (row) { const i = cur; label(i, Number(e.key)); focusRow(i + 1); }
        break;
      case " ": if (row) lm.page(row, e.shiftKey ? -1 : 1); break;
      case "m": if (row) lm.nextMarked(row); break;
      case "c": if (row) window.lmContext(row.querySelector("button.more")); break;
      case "u": if (rows.length) nextUnjudged(); break;
      case "U": go("nextunjudged"); break;
      case "z": step("/api/undo"); break;
      case "Z": step("/api/redo"); break;
      case "e":
        // Focus after the key is released, so the "e" itself is not typed.
        if (row) {
          const note = row.querySelector("textarea.note");
          document.addEventListener("keyup", () => note.focus(), { once: true });
        }
        break;
      case "n": go("next"); break;
      case "p": go("prev"); break;
      case "K": decide(true); break;
      case "D": decide(false); break;
      case "s": toggleSources(); break;
      default: return;
    }
    e.preventDefault();
  });

  document.getElementById("reveal").addEventListener("click", (e) => { e.preventDefault(); toggleSources(); });

  // On a narrow screen the label definitions and the key legend start
  // folded, so that the current row shows below the header.
  if (window.matchMedia("(max-width: 600px)").matches) {
    root.querySelectorAll(".qhead details.fold").forEach((d) => { d.open = false; });
  }
  const fromHash = rows.findIndex((r) => "#" + r.id === location.hash);
  const first = fromHash >= 0 ? fromHash : Math.max(0, rows.findIndex((r) => r.dataset.rel === ""));
  if (rows.length) {
    rows[first].focus({ preventScroll: true });
    setCur(first);
    if (fromHash >= 0 || first > 0) rows[first].scrollIntoView({ block: "start" });
  }
})();
