// The director's console keeps itself current: the server's stream says which kinds of data
// changed, and each live section whose kinds are among them fetches its fragment again. The
// tables grid (data-rows) fetches only the rows of the tables a change names (?only=3,17),
// and the whole grid when it names none (anything may have changed) or one not shown yet.
// No page reload, no polling of data. Ages ("since the last action") tick here, every second.
(function () {
  "use strict";
  const script = document.currentScript;
  const sections = Array.from(document.querySelectorAll("[data-fragment]"));
  const lost = document.getElementById("live-lost");
  // section -> what to fetch once the fetch in flight ends: false (nothing), null (the whole
  // fragment) or a Set of tables. One fetch at a time per section; changes meanwhile merge.
  const busy = new Map();

  function fragmentUrl(name) {
    return script.dataset.fragmentUrl.replace("NAME", encodeURIComponent(name));
  }

  function fetchText(url) {
    return fetch(url, {credentials: "same-origin"}).then((response) => {
      if (response.redirected || !response.ok) { throw new Error(String(response.status)); }
      return response.text();
    });
  }

  function rowOf(section, table) {
    return section.querySelector(`tr[data-table="${Number(table)}"]`);
  }

  // The rows of `tables` put in place of the ones shown; the whole fragment for null, or
  // when a table has no row here yet (it has just appeared).
  function load(section, tables) {
    // A section that follows the page's query (the rankings' search and page, the tables
    // grid's page or section) asks with it.
    const base = fragmentUrl(section.dataset.fragment);
    const url = base + (section.dataset.query ? window.location.search : "");
    if (tables === null || tables.some((table) => rowOf(section, table) === null)) {
      return fetchText(url).then((html) => { section.innerHTML = html; });
    }
    return fetchText(`${base}?only=${tables.join(",")}`).then((html) => {
      const fetched = document.createElement("template"); // parses a bare <tr>
      fetched.innerHTML = html;
      for (const row of Array.from(fetched.content.querySelectorAll("tr[data-table]"))) {
        const shown = rowOf(section, row.dataset.table);
        if (shown) { shown.replaceWith(row); }
      }
    });
  }

  // Pending work and a new change together: null (everything) absorbs any list, and a list
  // longer than the server takes in one request becomes everything too.
  function merge(pending, tables, most) {
    if (pending === null || tables === null) { return null; }
    const merged = new Set(pending || []);
    for (const table of tables) { merged.add(table); }
    return merged.size > most ? null : merged;
  }

  // A table wider than its box (a phone) scrolls sideways within it: such a box takes the
  // keyboard's focus, so that it can be scrolled without a mouse; one that fits does not.
  function scrollable() {
    for (const box of document.querySelectorAll(".grid, .scroll")) {
      if (box.scrollWidth > box.clientWidth + 1) {
        box.tabIndex = 0;
      } else {
        box.removeAttribute("tabindex");
      }
    }
  }
  scrollable();
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(scrollable, 200);
  });

  function refresh(section, tables) {
    if (tables !== null && !tables.length) { return; }
    if (busy.has(section)) {
      busy.set(section, merge(busy.get(section), tables, Number(section.dataset.rows || 0)));
      return;
    }
    busy.set(section, false);
    load(section, tables)
      .then(tick)
      .then(scrollable)
      .catch(() => { if (lost) { lost.hidden = false; } })
      .finally(() => {
        const again = busy.get(section);
        busy.delete(section);
        if (again !== false) { refresh(section, again === null ? null : Array.from(again)); }
      });
  }

  // The tables a change names for this section, or null: fetch all of it. A section that
  // shows part of a large field (data-first, data-last: a page of the grid) leaves the
  // tables outside it; the page's own tables without a row yet make it fetch all of it.
  function named(section, kinds, message) {
    // "seated" always comes with "tables" for the same tables: the rows named cover it.
    const rows = section.dataset.rows !== undefined && Array.isArray(message.tables)
      && kinds.every((kind) => kind === "tables" || kind === "seated");
    if (!rows) { return null; }
    if (section.dataset.first === undefined) { return message.tables; }
    const first = Number(section.dataset.first);
    const last = Number(section.dataset.last);
    return message.tables.filter((table) => table >= first && table <= last);
  }

  function changed(message) { // null: back after a break, anything may have changed
    for (const section of sections) {
      const wanted = section.dataset.kinds.split(/\s+/);
      if (message === null) { refresh(section, null); continue; }
      const kinds = message.kinds.filter((kind) => wanted.includes(kind));
      if (kinds.length) { refresh(section, named(section, kinds, message)); }
    }
  }

  function age(seconds) {
    const whole = Math.max(0, Math.floor(seconds));
    const hours = Math.floor(whole / 3600);
    const minutes = Math.floor((whole % 3600) / 60);
    const secs = String(whole % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
  }

  function tick() {
    const now = Date.now() / 1000;
    for (const element of document.querySelectorAll("[data-since]")) {
      element.textContent = age(now - Number(element.dataset.since));
    }
  }

  // The ruling form: show the fields of the chosen kind; the others are not sent.
  function showKind(select) {
    const kind = select.value;
    for (const part of select.form.querySelectorAll("[data-kinds]")) {
      const on = part.dataset.kinds.split(/\s+/).includes(kind);
      part.hidden = !on;
      for (const field of part.querySelectorAll("input, select")) { field.disabled = !on; }
    }
  }
  for (const select of document.querySelectorAll("[data-kind-select]")) {
    select.addEventListener("change", () => showKind(select));
    showKind(select);
  }

  // The round clock counts down from the seconds left the server gave (its clock decides),
  // on this page's monotonic timer, never the browser's date; at the end the clock section
  // is fetched again, which lists the tables still playing (late).
  const texts = JSON.parse((document.getElementById("clock-texts") || {}).textContent || "{}");
  const drawnAt = new WeakMap();
  function tickClock() {
    for (const node of document.querySelectorAll(".round-clock[data-left]")) {
      if (!drawnAt.has(node)) { drawnAt.set(node, performance.now()); }
      const left = Number(node.dataset.left) - (performance.now() - drawnAt.get(node)) / 1000;
      const whole = Math.max(0, Math.ceil(left));
      const warning = Number(node.dataset.warning || 0) * 60;
      const stage = whole <= 0 ? "over" : (warning && whole <= warning ? "warning" : "running");
      const time = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
      const key = {running: "display_clock", warning: "display_clock_warning",
                   over: "display_clock_over"}[stage];
      node.textContent = (texts[key] || "").replace("{round}", node.dataset.round)
        .replace("{time}", time);
      const was = node.className;
      node.className = `round-clock stage-${stage}`;
      if (stage === "over" && was.indexOf("stage-over") < 0) {
        const section = node.closest("[data-fragment]");
        if (section) { refresh(section, null); }
      }
    }
  }
  setInterval(tickClock, 250);

  setInterval(tick, 1000);
  if (!sections.length || !window.EventSource) { return; }
  let opened = false;
  const source = new EventSource(script.dataset.streamUrl);
  source.addEventListener("hello", (event) => {
    if (lost) { lost.hidden = true; }
    // Back after a break, or a change since the page was built (before the stream opened,
    // so the stream will not tell it): fetch every live part again.
    const hello = JSON.parse(event.data);
    if (opened || hello.changed_at >= Number(script.dataset.pageStarted)) { changed(null); }
    opened = true;
  });
  source.addEventListener("change", (event) => changed(JSON.parse(event.data)));
  source.addEventListener("error", () => { if (lost) { lost.hidden = false; } });
})();
