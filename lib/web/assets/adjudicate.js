// Adjudicate page: the rows two annotators labelled differently (or one
// labelled), one cursor (Tab, click, j/k); a and b take one side's label,
// 0/1/2 set a new one, saved at once as the consensus annotator. The header
// shows the current row's question and reference answer; the progress over
// the disagreements is the server's count after each write.
"use strict";
(function () {
  const root = document.getElementById("adjudicate");
  if (!root) return;
  const lm = window.lmJudging;
  const rows = Array.from(document.querySelectorAll("li.adj"));
  let cur = -1;
  lm.setup(root, document.getElementById("qhead"));

  function setCur(i) {
    if (cur >= 0) rows[cur].classList.remove("current");
    cur = i;
    rows[cur].classList.add("current");
    document.getElementById("curquestion").textContent = rows[cur].dataset.question;
    document.getElementById("curanswer").textContent = rows[cur].dataset.answer || "none given";
  }

  function focusRow(i) {
    if (rows.length === 0) return;
    i = Math.max(0, Math.min(rows.length - 1, i));
    rows[i].focus({ preventScroll: true });
    setCur(i);
    rows[i].scrollIntoView({ block: "nearest" });
  }

  function decide(i, rel) {
    const row = rows[i];
    if (rel === "") { lm.say("that annotator did not label this row: choose 0, 1 or 2", false); return; }
    rel = Number(rel);
    row.dataset.rel = String(rel);
    row.classList.remove("rel0", "rel1", "rel2");
    row.classList.add("judged", "rel" + rel);
    row.querySelector(".cons").textContent = String(rel);
    lm.post("/api/adjudicate", { a: root.dataset.a, b: root.dataset.b, qid: row.dataset.qid, chunk_id: row.dataset.chunk, rel: rel }, row).then((p) => {
      document.getElementById("progress").textContent = p.decided + " / " + p.disagreements;
    }, () => {});
    focusRow(i + 1);
  }

  rows.forEach((row, i) => {
    row.addEventListener("focusin", () => setCur(i));
    row.addEventListener("click", () => row.focus({ preventScroll: true }));
    lm.watchOverflow(row);
  });

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest("input, textarea, select")) return;
    if (lm.lost() && e.key !== "Tab") { e.preventDefault(); lm.say(null, true); return; }
    const row = rows[cur];
    switch (e.key) {
      case "j": case "ArrowDown": focusRow(cur + 1); break;
      case "k": case "ArrowUp": focusRow(cur - 1); break;
      case "a": if (row) decide(cur, row.dataset.a); break;
      case "b": if (row) decide(cur, row.dataset.b); break;
      case "0": case "1": case "2": if (row) decide(cur, e.key); break;
      case " ": if (row) lm.page(row, e.shiftKey ? -1 : 1); break;
      case "m": if (row) lm.nextMarked(row); break;
      case "n": case "p": {
        const a = document.getElementById(e.key === "n" ? "nextpage" : "prevpage");
        if (a) location.href = a.href;
        break;
      }
      default: return;
    }
    e.preventDefault();
  });
  if (window.matchMedia("(max-width: 600px)").matches) {
    root.querySelectorAll(".qhead details.fold").forEach((d) => { d.open = false; });
  }
  if (rows.length) {
    const first = Math.max(0, rows.findIndex((r) => r.dataset.rel === ""));
    rows[first].focus({ preventScroll: true });
    setCur(first);
  }
})();
