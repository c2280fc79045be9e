// Search and Judge pages: load the messages around a chunk on demand.
"use strict";
(function () {
  function fill(li, html) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    li.querySelector(".ctx.before").replaceChildren(...doc.querySelector(".before").childNodes);
    li.querySelector(".ctx.after").replaceChildren(...doc.querySelector(".after").childNodes);
  }
  window.lmContext = function (button) {
    const li = button.closest("li");
    if (li.dataset.ctx === "1") {
      li.querySelectorAll(".ctx").forEach((c) => c.replaceChildren());
      li.dataset.ctx = "";
      return;
    }
    fetch("/context/" + encodeURIComponent(button.dataset.chunk))
      .then((r) => (r.ok ? r.text() : Promise.reject(r.statusText)))
      .then((html) => { fill(li, html); li.dataset.ctx = "1"; });
  };
  document.addEventListener("click", (e) => {
    const b = e.target.closest("button.more");
    if (b) window.lmContext(b);
  });
})();
