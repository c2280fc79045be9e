// What the Judge and Adjudicate pages share: saving with a lost-server
// banner, paging a row's messages, the next marked message, and the
// "N more messages" line of a row that overflows.
"use strict";
window.lmJudging = (function () {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const retryMs = 2000;
  let root = null;
  let head = null;
  let banner = null;
  let pending = 0;
  const queue = []; // requests waiting for a lost server: {path, body, row, resolve}
  let retrying = 0;

  function busy(d) {
    pending += d;
    if (root) {
      root.dataset.pending = String(pending);
      root.classList.toggle("saving", pending > 0);
    }
  }
  window.addEventListener("beforeunload", (e) => { if (pending > 0 || queue.length > 0) e.preventDefault(); });

  // say shows msg in the banner (null: the lost-server text); the banner is
  // never modal and stays in the sticky header.
  function say(msg, lost) {
    if (!banner) return;
    banner.textContent = msg !== null ? msg : "The server is not answering: " + queue.length +
      " change(s) not saved yet. Retrying every " + retryMs / 1000 + " s; the keys are paused until it answers.";
    banner.hidden = false;
    banner.classList.toggle("lost", lost);
    if (root) root.classList.toggle("failed", lost);
  }

  function clear() {
    if (banner) banner.hidden = true;
    if (root) root.classList.remove("failed");
  }

  function send(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
      body: JSON.stringify(body),
    });
  }

  // lose keeps a request the server did not answer for retrying, and puts
  // the cursor back on its row: the keys stay paused there until it is saved.
  function lose(req) {
    queue.push(req);
    if (req.row) {
      req.row.classList.add("unsaved");
      if (queue.length === 1) {
        req.row.focus({ preventScroll: true });
        req.row.scrollIntoView({ block: "nearest" });
      }
    }
    say(null, true);
    if (!retrying) retrying = setInterval(retry, retryMs);
  }

  function retry() {
    if (queue.length === 0) return;
    const req = queue[0];
    send(req.path, req.body).then((r) => {
      if (r.status >= 500) return;
      queue.shift();
      if (req.row) req.row.classList.remove("unsaved");
      r.json().then(req.resolve, () => req.resolve({}));
      if (queue.length === 0) {
        clearInterval(retrying);
        retrying = 0;
        say("The server answers again: every change is saved.", false);
        setTimeout(() => { if (queue.length === 0 && banner && !banner.classList.contains("lost")) clear(); }, 3000);
      } else {
        say(null, true);
      }
    }, () => {});
  }

  // last settles when the latest write has been answered: writes go out one
  // at a time, in the order the keys were pressed, so an undo never
  // overtakes the label before it.
  let last = Promise.resolve();

  // post saves body at path, after every earlier write. It resolves with the
  // answer; a refused write rejects with the server's message (shown in the
  // banner); a lost server keeps the request and resolves once a retry gets
  // through.
  function post(path, body, row) {
    busy(1);
    const p = last.then(() => write(path, body, row));
    last = p.catch(() => {});
    return p.finally(() => busy(-1));
  }

  function write(path, body, row) {
    return new Promise((resolve, reject) => {
      const req = { path: path, body: body, row: row, resolve: resolve };
      if (queue.length > 0) { lose(req); return; }
      send(path, body).then((r) => {
        if (r.status >= 500) { lose(req); return; }
        if (!r.ok) {
          return r.text().then((t) => {
            let msg = t;
            try { msg = JSON.parse(t).error || t; } catch (e) { /* not JSON: show the text */ }
            if (r.status === 403) msg += " (reload the page)";
            say("not saved: " + msg, false);
            const err = new Error(msg);
            err.lost = false;
            reject(err);
          });
        }
        return r.json().then((p) => {
          if (banner && !banner.classList.contains("lost")) clear();
          resolve(p);
        });
      }, () => lose(req));
    });
  }

  function pane(row) { return row.querySelector("ul.msgs"); }

  // page scrolls a row's messages by most of their height (dir 1 down, -1 up).
  function page(row, dir) {
    const p = pane(row);
    p.scrollTop += dir * Math.max(40, Math.round(p.clientHeight * 0.85));
  }

  // reveal scrolls the window so that el is in view below the sticky header.
  function reveal(el) {
    const top = head ? head.getBoundingClientRect().bottom : 0;
    const r = el.getBoundingClientRect();
    if (r.top < top + 4 || r.bottom > window.innerHeight - 4) {
      window.scrollBy(0, r.top - top - (window.innerHeight - top) / 3);
    }
  }

  // nextMarked moves a row's message cursor to its next marked (question
  // term) or evidence message, wrapping, and scrolls it into view.
  function nextMarked(row) {
    const p = pane(row);
    const marks = Array.from(p.querySelectorAll("li.hit, li.evmsg"));
    if (marks.length === 0) { say("no marked or evidence message in this row", false); return; }
    const at = p.querySelector("li.at");
    let i = at ? marks.indexOf(at) + 1 : 0;
    if (i >= marks.length) i = 0;
    if (at) at.classList.remove("at");
    const li = marks[i];
    li.classList.add("at");
    p.scrollTop = li.offsetTop - Math.round(p.clientHeight / 3);
    reveal(row.getBoundingClientRect().height > window.innerHeight ? li : row);
    reveal(li);
  }

  // watchOverflow keeps a row's "N more messages" line: the messages below
  // its pane's visible part. The rows are measured together, every reading
  // before any writing, so that a page of many rows is laid out once.
  const watched = [];
  let measuring = 0;

  function moreBelow(p) {
    const bottom = p.scrollTop + p.clientHeight;
    let n = 0;
    for (const li of p.children) if (li.offsetTop + li.offsetHeight / 2 > bottom) n++;
    return n;
  }

  function showMore(row, line, n) {
    line.hidden = n === 0;
    line.textContent = n === 1 ? "1 more message ↓ (Space)" : n + " more messages ↓ (Space)";
    row.dataset.more = String(n);
  }

  function measureAll() {
    measuring = 0;
    const counts = watched.map((w) => moreBelow(w.pane));
    watched.forEach((w, i) => showMore(w.row, w.line, counts[i]));
  }

  function watchOverflow(row) {
    const p = pane(row);
    const line = row.querySelector("p.overflow");
    if (!p || !line) return;
    watched.push({ row: row, pane: p, line: line });
    p.addEventListener("scroll", () => showMore(row, line, moreBelow(p)), { passive: true });
    if (!measuring) measuring = requestAnimationFrame(measureAll);
  }
  window.addEventListener("resize", () => { if (!measuring) measuring = requestAnimationFrame(measureAll); });

  // setup remembers the page's root and sticky header, and keeps the
  // header's height in --head so rows scroll into view below it.
  function setup(r, h) {
    root = r;
    head = h;
    banner = document.getElementById("banner");
    const measure = () => document.documentElement.style.setProperty("--head", h.offsetHeight + "px");
    measure();
    if (window.ResizeObserver) new ResizeObserver(measure).observe(h);
  }

  // A key the page handled on keydown also owns its keypress: Space
  // scrolls the window as keypress's default action, and not every way of
  // pressing a key (synthetic key events among them) drops the keypress of
  // a keydown whose default was prevented. The window listener runs after
  // the page's own document listeners.
  let handledKey = "";
  window.addEventListener("keydown", (e) => { handledKey = e.defaultPrevented ? e.key : ""; });
  document.addEventListener("keypress", (e) => { if (e.key === handledKey) e.preventDefault(); });
  document.addEventListener("keyup", () => { handledKey = ""; });

  return { setup: setup, post: post, say: say, lost: () => queue.length > 0, page: page, nextMarked: nextMarked, watchOverflow: watchOverflow };
})();
