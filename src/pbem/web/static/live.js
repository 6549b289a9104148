/* pbem board page: follow the board live (web/live.py).
 *
 * An EventSource on /GAME/BOARD/events says "changed" when the board moves
 * on (a move by mail or on the web, an ending, chat); the page then asks
 * its poll once (#poller, htmx): a reload for a move or an ending, the
 * record swapped in for chat. The poller also looks by itself now and then,
 * for a browser or proxy that holds the stream back. Plain ES2017.
 *
 * A page that is being left (a form sent the plain way: a move, a vote)
 * stops following: its own move would otherwise say "changed" while the
 * answer is on its way, and the reload that followed would cut that
 * answer off and lose its message ("Played ...").
 */
(function () {
  "use strict";

  function start() {
    const poller = document.getElementById("poller");
    if (!poller || !window.EventSource || !poller.dataset.events) return;
    const source = new EventSource(poller.dataset.events);
    let leaving = false;
    function leave() {
      leaving = true;
      source.close();
    }
    document.addEventListener("submit", function (event) {
      if (!event.defaultPrevented) leave(); // (htmx sends its own forms: the page stays)
    });
    function ours(event) {
      return event.detail && event.detail.elt && event.detail.elt.id === "poller";
    }
    for (const name of ["htmx:beforeRequest", "htmx:beforeOnLoad"]) {
      document.addEventListener(name, function (event) {
        if (leaving && ours(event)) event.preventDefault(); // (no reload over the answer)
      });
    }
    source.addEventListener("changed", function () {
      if (leaving) return;
      const current = document.getElementById("poller"); // (chat swaps it anew)
      if (current && window.htmx) window.htmx.trigger(current, "pbem:changed");
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
