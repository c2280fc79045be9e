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
  const blind = root.dataset.reveal !== "1";
  const rows = Array.from(document.querySelectorAll("li.row"));
  const head = document.getElementById("qhead");
  const spent = rows.map(() => 0); // milliseconds each row was the current one
  let cur = -1;
  let since = performance.now();

  lm.setup(root, head);

  function setCur(i) {
    if (i === cur) return;
    const now = performance.now();
    if (cur >= 0) spent[cur] += now - since;
    since = now;
    if (cur >= 0) rows[cur].classList.remove("current");
    cur = i;
    rows[cur].classList.add("current");
    root.dataset.cur = String(cur);
  }

  function seconds(i) {
    let ms = spent[i];
    if (i === cur) ms += performance.now() - since;
    return Math.round(ms / 100) / 10;
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
    return lm.post("/api/label", { qid: qid, chunk_id: row.dataset.chunk, rel: rel, blind: blind, seconds: seconds(i) }, row)
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
        document.getElementById("decision").textContent = ev.keep === null ? "—" : ev.keep ? "keep" : "drop";
        return;
      }
      const i = rows.findIndex((r) => r.dataset.chunk === ev.chunk_id);
      if (i < 0) return;
      show(rows[i], ev.rel);
      rows[i].querySelector("textarea.note").value = ev.note;
      focusRow(i);
      const judged = rows.filter((r) => r.dataset.rel !== "").length;
      document.getElementById("progress").textContent = judged + " / " + rows.length;
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

  function sourcesURL() {
    const a = document.getElementById("reveal");
    return a.href.split("#")[0] + (cur >= 0 ? "#" + rows[cur].id : "");
  }

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
      case "s": location.href = sourcesURL(); break;
      default: return;
    }
    e.preventDefault();
  });

  const fromHash = rows.findIndex((r) => "#" + r.id === location.hash);
  const first = fromHash >= 0 ? fromHash : Math.max(0, rows.findIndex((r) => r.dataset.rel === ""));
  if (rows.length) {
    rows[first].focus({ preventScroll: true });
    setCur(first);
    if (fromHash >= 0) rows[first].scrollIntoView({ block: "start" });
  }
})();
