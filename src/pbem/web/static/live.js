/* pbem board page: follow the board live (web/live.py).
 *
 * An EventSource on /GAME/BOARD/events says "changed" when the board moves
 * on (a move by mail or on the web, an ending, chat); the page then asks
 * its poll once (#poller, htmx): a reload for a move or an ending, the
 * record swapped in for chat. The poller also looks by itself now and then,
 * for a browser or proxy that holds the stream back. Plain ES2017.
 */
(function () {
  "use strict";

  function start() {
    const poller = document.getElementById("poller");
    if (!poller || !window.EventSource || !poller.dataset.events) return;
    const source = new EventSource(poller.dataset.events);
    source.addEventListener("changed", function () {
      const current = document.getElementById("poller"); // (chat swaps it anew)
      if (current && window.htmx) window.htmx.trigger(current, "pbem:changed");
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
