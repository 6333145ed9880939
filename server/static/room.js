// The room mode (server/pages/room.py, docs/display.md): the parts the server rendered into
// #room-parts are laid out into screens that fit this window, never scrolled and never cut:
// a screen has as many columns as fit COLUMN_EM of its text (a ranking, whose players' names
// need the width, has the screen's whole width), each block (a board's traveller, a ranking,
// the tables' progress) goes whole into a column when it fits, else it is cut between rows,
// its heading and the table's head repeated. The screens turn by themselves
// every `seconds`; → and ← (or PageDown and PageUp) turn them by hand, the space bar pauses.
// The live stream's changes fetch /room/parts again and lay it out anew.
"use strict";

(function () {
  const config = JSON.parse(document.getElementById("room-config").textContent);
  const parts = document.getElementById("room-parts");
  const stage = document.getElementById("room-stage");
  const counter = document.getElementById("room-counter");
  const summary = document.getElementById("room-summary");
  const status = document.getElementById("live-status");
  let screens = [];
  let current = 0;
  let paused = false;
  let timer = null;

  function el(tag, className) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    return node;
  }

  // -- laying out ------------------------------------------------------------------------

  function layout() {
    const fontSize = parseFloat(getComputedStyle(stage).fontSize) || 16;
    const columns = Math.max(1, Math.floor(stage.clientWidth / (config.column_em * fontSize)));
    stage.replaceChildren();
    screens = [];
    let screen = null;
    let column = null;
    let left = 0;
    let wanted = columns;  // the columns of the screen being filled

    function newColumn() {
      if (left === 0) {
        screen = el("div", "room-screen");
        screen.style.gridTemplateColumns = `repeat(${wanted}, minmax(0, 1fr))`;
        stage.append(screen);
        screens.push(screen);
        left = wanted;
      }
      column = el("div", "room-column");
      screen.append(column);
      left -= 1;
    }

    function fits() {
      return column.scrollHeight <= column.clientHeight + 1
        && column.scrollWidth <= column.clientWidth + 1;
    }

    // The block with its heading and the table's head, and no rows yet; "(continued)" after
    // the heading of a block's later piece.
    function shell(block, later) {
      const copy = block.cloneNode(true);
      copy.removeAttribute("data-key");
      copy.dataset.part = block.dataset.key;
      const body = copy.querySelector("tbody");
      if (body) body.replaceChildren();
      if (later) {
        const heading = copy.querySelector("h2");
        if (heading) heading.append(" " + config.continued);
      }
      return copy;
    }

    newColumn();
    for (const block of parts.querySelectorAll(".room-block")) {
      const width = block.dataset.wide ? 1 : columns;
      if (width !== wanted) {  // a new screen, of the columns this block wants
        wanted = width;
        left = 0;
        newColumn();
      }
      const whole = block.cloneNode(true);
      whole.removeAttribute("data-key");
      whole.dataset.part = block.dataset.key;
      column.append(whole);
      if (fits()) continue;
      whole.remove();
      if (column.childElementCount) {  // a fresh column first: a block is best kept whole
        newColumn();
        column.append(whole);
        if (fits()) continue;
        whole.remove();
      }
      const rows = Array.from(block.querySelectorAll("tbody > tr"));
      let at = 0;
      let later = false;
      while (at < rows.length) {
        const piece = shell(block, later);
        const body = piece.querySelector("tbody");
        column.append(piece);
        let added = 0;
        while (at < rows.length) {
          body.append(rows[at].cloneNode(true));
          if (!fits() && (added > 0 || column.childElementCount > 1)) {
            body.lastElementChild.remove();
            break;
          }
          at += 1;
          added += 1;
          if (!fits()) break;  // one row taller than a whole column: shown, as much as fits
        }
        if (added === 0) piece.remove();
        if (at < rows.length) newColumn();
        later = later || added > 0;
      }
    }
    for (const found of screens) {
      if (!found.querySelector(".room-block")) found.remove();
    }
    screens = screens.filter((found) => found.isConnected);
    current = Math.min(current, Math.max(0, screens.length - 1));
    show(current);
  }

  // -- turning the screens ---------------------------------------------------------------

  function show(index) {
    current = screens.length ? (index + screens.length) % screens.length : 0;
    screens.forEach((screen, at) => { screen.hidden = at !== current; });
    stage.dataset.screen = String(current);
    stage.dataset.screens = String(screens.length);
    const text = screens.length > 1
      ? config.screen.replace("{number}", current + 1).replace("{count}", screens.length) : "";
    counter.textContent = text + (paused && text ? " · " + config.paused : "");
  }

  function restart() {
    if (timer !== null) clearInterval(timer);
    timer = paused ? null : setInterval(() => show(current + 1), config.seconds * 1000);
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight" || event.key === "PageDown") {
      show(current + 1);
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      show(current - 1);
    } else if (event.key === " ") {
      paused = !paused;
      show(current);
    } else {
      return;
    }
    event.preventDefault();
    restart();
  });

  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(layout, 200);
  });

  // -- following the results -------------------------------------------------------------

  const PROGRESS_EVERY = 2000;  // tables move on all the time: at most one fetch per 2 s
  let fetchedAt = 0;

  async function refresh(kinds) {
    const onlyTables = kinds !== undefined && !kinds.has("hello")
      && !kinds.has("results") && !kinds.has("analysis");
    if (onlyTables) {
      const wait = fetchedAt + PROGRESS_EVERY - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    fetchedAt = Date.now();
    const response = await fetch("/room/parts?" + config.query, {cache: "no-store"});
    if (!response.ok) throw new Error("/room/parts: " + response.status);
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const before = new Set(Array.from(parts.querySelectorAll(".room-board"),
                                      (block) => block.dataset.key));
    parts.replaceChildren(...fresh.body.childNodes);
    const source = parts.querySelector("#room-summary-source");
    if (source && summary) summary.replaceChildren(...source.childNodes);
    // A board released since: the rotation starts again from the newest results.
    const added = Array.from(parts.querySelectorAll(".room-board"))
      .some((block) => !before.has(block.dataset.key));
    if (added) current = 0;
    layout();
    if (added) restart();
  }

  layout();
  restart();
  const version = Number(stage.dataset.version);
  window.bidboxFollow(new EventSource("/live/stream"), refresh, (ok) => {
    if (status) status.textContent = ok ? "" : config.offline;
  }, Number.isFinite(version) ? version : undefined);
})();
