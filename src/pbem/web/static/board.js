/* pbem board page: enter a move by clicking on the board.
 *
 * Only on the page of the player to move (#board[data-my-turn="true"]).
 * A click writes the move's text into #move-input and asks for a preview
 * (the #preview-button, an htmx POST); Send plays it. The text box works
 * alone without this script, and the targets below only help fill it.
 * The game's board drawing marks them, the same way in every game
 * (games/base.py, "entering a move by clicking"):
 *
 * - an element with data-move is that move (a Vacu point, a removable
 *   Trugo tile);
 * - an element with data-choices shows the moves legal at that place,
 *   pictured, in #picker (GET /GAME/ID/choices?at=PLACE; a Vasco cell's
 *   orientations, a Trugo position's rotations); a choice is the move;
 * - elements with data-place are where pieces stand: those whose piece can
 *   move (GET /GAME/ID/movable) are selected by a click, their destinations
 *   (GET /GAME/ID/destinations?from=PLACE) light up, and a click on one is
 *   the move; a click elsewhere or Escape cancels.
 * - The move buttons (pass, button, komi, colour; _move_buttons.html) fill
 *   the box too instead of sending at once.
 *
 * Targets are focusable (tabindex 0, role button, labelled by their SVG
 * <title>) and Enter or Space acts as a click. A move's preview is drawn
 * where the board is, with Send beside it; "Back to the board" returns to
 * the board. Plain ES2017, no libraries.
 */
(function () {
  "use strict";

  const SVG_NS = "http://www.w3.org/2000/svg";

  function start() {
    const board = document.getElementById("board");
    if (!board || board.dataset.myTurn !== "true") return;
    const svg = board.querySelector("svg");
    const input = document.getElementById("move-input");
    const picker = document.getElementById("picker");
    if (!svg || !input || !picker) return;
    const base = "/" + encodeURIComponent(board.dataset.game) + "/" +
      encodeURIComponent(board.dataset.board);
    const page = { board: board, svg: svg, input: input, picker: picker, base: base };

    // Typing in the box makes any clicked choice stale.
    input.addEventListener("input", function (event) {
      if (event.isTrusted) unselect(page);
    });

    setUpBoard(page);
    setUpButtons(page);
    setUpPreview(page);
  }

  // -- shared ----------------------------------------------------------------

  /** The text of an element's own SVG <title>, for its aria-label. */
  function titleOf(el) {
    const title = Array.prototype.find.call(el.children, function (child) {
      return child.localName === "title";
    });
    return title ? title.textContent.trim() : "";
  }

  /** Make an SVG element a focusable, labelled, clickable target. */
  function makeTarget(el, kind) {
    el.classList.add("target");
    if (kind) el.classList.add(kind);
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    const label = titleOf(el);
    if (label) el.setAttribute("aria-label", label);
  }

  function unmakeTarget(el, kind) {
    el.classList.remove(kind);
    if (el.classList.contains("movable") || el.classList.contains("destination")) return;
    el.classList.remove("target");
    el.removeAttribute("tabindex");
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
  }

  /** Route clicks and Enter/Space on targets to `handle(el, byKeyboard)`;
   * a click on no target calls `missed()`. */
  function listen(page, handle, missed) {
    page.svg.addEventListener("click", function (event) {
      const el = event.target.closest ? event.target.closest(".target") : null;
      if (el && page.svg.contains(el)) handle(el, false);
      else if (missed) missed();
    });
    page.svg.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" && event.key !== " " && event.key !== "Spacebar") return;
      const el = event.target.closest ? event.target.closest(".target") : null;
      if (!el || !page.svg.contains(el)) return;
      event.preventDefault();
      handle(el, true);
    });
  }

  /** Clear the "selected" mark from the board. */
  function unselect(page) {
    page.svg.querySelectorAll(".selected").forEach(function (el) {
      el.classList.remove("selected");
    });
  }

  function select(page, el) {
    unselect(page);
    if (el) el.classList.add("selected");
  }

  /** Write the move in the box and ask for a preview of it. */
  function setMove(page, text) {
    page.input.value = text;
    page.input.dispatchEvent(new Event("change", { bubbles: true }));
    const preview = document.getElementById("preview-button");
    if (preview && window.htmx) preview.click();
  }

  function note(page, text) {
    page.picker.textContent = "";
    if (!text) return;
    const p = document.createElement("p");
    p.className = "picker-note";
    p.textContent = text;
    page.picker.appendChild(p);
  }

  let asked = 0; // the latest request: answers to older ones are dropped

  /** GET a URL of this board; resolves to the Response, or null when a
   * later request was made meanwhile. */
  function ask(url) {
    const mine = ++asked;
    return fetch(url, { headers: { Accept: "text/html, application/json" }, credentials: "same-origin" })
      .then(function (response) {
        return mine === asked ? response : null;
      });
  }

  /** Show the orientation or rotation choices of a cell in #picker. */
  function showChoices(page, url, cellEl, byKeyboard) {
    note(page, "Looking up the moves there…");
    ask(url)
      .then(function (response) {
        if (!response) return null;
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        if (html === null) return;
        page.picker.innerHTML = html;
        const choices = page.picker.querySelectorAll("button.choice[data-move]");
        choices.forEach(function (button) {
          button.setAttribute("aria-pressed", "false");
          button.addEventListener("click", function () {
            choices.forEach(function (other) {
              other.setAttribute("aria-pressed", other === button ? "true" : "false");
            });
            select(page, cellEl);
            setMove(page, button.dataset.move);
          });
        });
        if (choices.length === 1) choices[0].click();
        if (byKeyboard && choices.length) choices[0].focus();
      })
      .catch(function () {
        note(page, "The choices could not be loaded: write the move in the box instead.");
      });
  }

  // -- the board's targets ---------------------------------------------------

  function setUpBoard(page) {
    const places = new Map();
    page.svg.querySelectorAll("[data-place]").forEach(function (el) {
      places.set(el.dataset.place, el);
    });
    page.svg.querySelectorAll("[data-choices]").forEach(function (el) {
      makeTarget(el, "choices-target");
    });
    page.svg.querySelectorAll("[data-move]").forEach(function (el) {
      makeTarget(el, "move-target");
    });
    let source = null; // the selected piece's place element
    let moves = new Map(); // destination place name -> the move texts ending there

    function cancel() {
      if (!source) return;
      source.classList.remove("source");
      dropRing(source);
      let written = false; // whether the box holds one of the cancelled moves
      moves.forEach(function (texts, name) {
        if (texts.indexOf(page.input.value) >= 0) written = true;
        const el = places.get(name);
        if (el) {
          dropRing(el);
          unmakeTarget(el, "destination");
        }
      });
      if (written) {
        page.input.value = "";
        const preview = document.getElementById("preview");
        if (preview) preview.textContent = "";
      }
      unselect(page);
      moves = new Map();
      source = null;
      asked++; // forget a destinations request on its way
      note(page, "");
    }

    function choosePiece(el, byKeyboard) {
      if (source === el) {
        cancel();
        return;
      }
      cancel();
      unselect(page);
      source = el;
      el.classList.add("source");
      addRing(el, "source-ring");
      const from = el.dataset.place;
      note(page, "Piece at " + from + ": click where it should go.");
      ask(page.base + "/destinations?from=" + encodeURIComponent(from))
        .then(function (response) {
          if (!response) return null;
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then(function (found) {
          if (found === null || source !== el) return;
          moves = new Map(Object.entries(found));
          if (!moves.size) {
            note(page, "The piece at " + from + " cannot move now.");
            return;
          }
          let first = null;
          moves.forEach(function (_, name) {
            const target = places.get(name);
            if (!target) return;
            makeTarget(target, "destination");
            addRing(target, "destination-ring");
            if (!first) first = target;
          });
          note(page, "Piece at " + from + ": " + moves.size + " place" +
            (moves.size === 1 ? "" : "s") + " to go (ringed); click one, or elsewhere to cancel.");
          if (byKeyboard && first) first.focus();
        })
        .catch(function () {
          note(page, "The piece's moves could not be loaded: write the move in the box instead.");
        });
    }

    function chooseDestination(el) {
      const texts = moves.get(el.dataset.place) || [];
      select(page, el);
      if (texts.length === 1) {
        note(page, "");
        setMove(page, texts[0]);
        return;
      }
      // Several moves end there: let the player pick one.
      note(page, "Several moves end at " + el.dataset.place + ": choose one.");
      texts.forEach(function (text) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "choice text-choice";
        button.dataset.move = text;
        button.textContent = text;
        button.addEventListener("click", function () {
          page.picker.querySelectorAll("button.choice").forEach(function (other) {
            other.setAttribute("aria-pressed", other === button ? "true" : "false");
          });
          setMove(page, text);
        });
        page.picker.appendChild(button);
      });
    }

    listen(page, function (el, byKeyboard) {
      if (source && el.classList.contains("destination")) {
        chooseDestination(el);
      } else if (el.classList.contains("movable")) {
        choosePiece(el, byKeyboard);
      } else if (el.classList.contains("choices-target")) {
        cancel();
        select(page, el);
        showChoices(page, page.base + "/choices?at=" + encodeURIComponent(el.dataset.choices),
          el, byKeyboard);
      } else if (el.classList.contains("move-target")) {
        cancel();
        note(page, "");
        select(page, el);
        setMove(page, el.dataset.move);
      } else {
        cancel();
      }
    }, cancel);

    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && source) cancel();
    });

    if (!places.size) return;
    // The pieces of the player to move that can go somewhere.
    fetch(page.base + "/movable", { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : [];
      })
      .then(function (names) {
        names.forEach(function (name) {
          const el = places.get(name);
          if (el) makeTarget(el, "movable");
        });
      })
      .catch(function () {
        /* no clickable pieces: the text box still takes piece moves */
      });
  }

  /** A ring around a place: easier to see and to hit than its dot. */
  function addRing(el, kind) {
    dropRing(el);
    const dots = el.querySelectorAll("circle");
    if (!dots.length) return;
    let radius = 0;
    dots.forEach(function (dot) {
      radius = Math.max(radius, parseFloat(dot.getAttribute("r")) || 0);
    });
    const ring = document.createElementNS(SVG_NS, "circle");
    ring.setAttribute("class", "ring " + kind);
    ring.setAttribute("cx", dots[0].getAttribute("cx"));
    ring.setAttribute("cy", dots[0].getAttribute("cy"));
    ring.setAttribute("r", String(Math.max(radius + 4, 13)));
    el.appendChild(ring);
  }

  function dropRing(el) {
    el.querySelectorAll("circle.ring").forEach(function (ring) {
      ring.remove();
    });
  }

  // -- the move buttons ------------------------------------------------------

  function setUpButtons(page) {
    document.querySelectorAll("form.move-button[data-move]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        let text = form.dataset.move;
        const number = form.querySelector("input[type=number]");
        if (number) {
          if (!form.reportValidity()) return;
          text += String(parseInt(number.value, 10));
        }
        if (page.svg) unselect(page);
        note(page, "");
        document.querySelectorAll("form.move-button button").forEach(function (button) {
          button.removeAttribute("aria-pressed");
        });
        const button = form.querySelector("button");
        if (button) button.setAttribute("aria-pressed", "true");
        setMove(page, text);
      });
    });
  }

  // -- the preview -------------------------------------------------------------

  /** The preview (#preview, filled by htmx) stands where the board is, which
   * the page's style hides meanwhile; "Back to the board" empties it, so the
   * board shows again to choose another move. */
  function setUpPreview(page) {
    const preview = document.getElementById("preview");
    if (!preview) return;
    preview.addEventListener("click", function (event) {
      const back = event.target.closest ? event.target.closest(".back-to-board") : null;
      if (!back) return;
      preview.textContent = "";
      unselect(page);
      page.board.scrollIntoView({ block: "nearest" });
      page.input.focus({ preventScroll: true });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
