// Judge page: keyboard-first labelling. Every label, note and decision is a
// small POST saved at once; u undoes the last label change.
"use strict";
(function () {
  const root = document.getElementById("judge");
  if (!root) return;
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const qid = root.dataset.qid;
  const rows = Array.from(document.querySelectorAll("li.row"));
  const undo = [];
  let cur = 0;

  let pending = 0;
  function busy(d) {
    pending += d;
    root.dataset.pending = String(pending);
    root.classList.toggle("saving", pending > 0);
  }
  window.addEventListener("beforeunload", (e) => { if (pending > 0) e.preventDefault(); });

  function post(path, body) {
    busy(1);
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
      body: JSON.stringify(body),
    }).then((r) => {
      if (!r.ok) {
        return r.text().then((t) => {
          let msg = t;
          try { msg = JSON.parse(t).error || t; } catch (e) { /* not JSON: show the text */ }
          return Promise.reject(new Error(msg));
        });
      }
      return r.json();
    }).then((p) => {
      document.getElementById("progress").textContent = p.question.Judged + " / " + p.question.Rows;
      root.classList.remove("failed");
      return p;
    }).catch((err) => {
      root.classList.add("failed");
      alert("not saved: " + err.message);
      throw err;
    }).finally(() => busy(-1));
  }

  function focus(i) {
    if (rows.length === 0) return;
    cur = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach((r, j) => r.classList.toggle("current", j === cur));
    rows[cur].scrollIntoView({ block: "nearest" });
  }

  function show(row, rel) {
    row.dataset.rel = rel === null ? "" : String(rel);
    row.classList.remove("rel0", "rel1", "rel2", "judged");
    if (rel !== null) row.classList.add("judged", "rel" + rel);
  }

  function label(i, rel, record) {
    const row = rows[i];
    const before = row.dataset.rel === "" ? null : Number(row.dataset.rel);
    if (record) undo.push({ i: i, rel: before });
    show(row, rel);
    return post("/api/label", { qid: qid, chunk_id: row.dataset.chunk, rel: rel }).catch(() => show(row, before));
  }

  function decide(keep) {
    post("/api/decide", { qid: qid, keep: keep }).then(() => {
      document.getElementById("decision").textContent = keep ? "keep" : "drop";
    });
  }

  rows.forEach((row, i) => {
    row.addEventListener("click", (e) => {
      if (e.target.closest("textarea, button.more")) return;
      focus(i);
      const b = e.target.closest("button.lab");
      if (b) label(i, Number(b.dataset.rel), true);
    });
    const note = row.querySelector("textarea.note");
    note.addEventListener("input", () => {
      post("/api/note", { qid: qid, chunk_id: row.dataset.chunk, note: note.value });
    });
    note.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { note.blur(); e.preventDefault(); }
      e.stopPropagation();
    });
  });
  document.getElementById("keep").addEventListener("click", () => decide(true));
  document.getElementById("drop").addEventListener("click", () => decide(false));

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest("input, textarea, select")) return;
    const go = (id) => { const a = document.getElementById(id); if (a) location.href = a.href; };
    switch (e.key) {
      case "j": case "ArrowDown": focus(cur + 1); break;
      case "k": case "ArrowUp": focus(cur - 1); break;
      case "0": case "1": case "2":
        if (rows.length) { const i = cur; label(i, Number(e.key), true); focus(i + 1); }
        break;
      case "u": {
        const last = undo.pop();
        if (last) { label(last.i, last.rel, false); focus(last.i); }
        break;
      }
      case "e":
        // Focus after the key is released, so the "e" itself is not typed.
        if (rows.length) {
          const note = rows[cur].querySelector("textarea.note");
          document.addEventListener("keyup", () => note.focus(), { once: true });
        }
        break;
      case "n": case "ArrowRight": go("next"); break;
      case "p": case "ArrowLeft": go("prev"); break;
      case "K": decide(true); break;
      case "D": decide(false); break;
      case "s": go("reveal"); break;
      default: return;
    }
    e.preventDefault();
  });

  const fromHash = rows.findIndex((r) => "#" + r.id === location.hash);
  focus(fromHash >= 0 ? fromHash : Math.max(0, rows.findIndex((r) => r.dataset.rel === "")));
})();
