// Following a live stream (an EventSource, docs/display.md), for display.js and vugraph.js:
// each `change`, and each `hello` (on connecting and reconnecting, since changes may have
// been missed meanwhile), runs `refresh(kinds)`, with the set of the kinds of change since the
// last refresh ("hello" among them after a (re)connection: anything may have changed); one
// refresh at a time, and changes that arrive meanwhile make one more afterwards.
// `status(ok)` is told how the last refresh went, or that the stream is lost.
// `known`, when given, is the live hub's version the page's HTML was made at: a first `hello`
// at that version means nothing changed since, and the page fetches nothing again.
"use strict";

window.bidboxFollow = function (source, refresh, status, known) {
  let running = false;
  let again = false;
  let kinds = new Set();
  let first = true;
  function note(event) {
    if (event.type === "hello") {
      const fresh = first && known !== undefined && known !== null
        && JSON.parse(event.data || "{}").version === known;
      first = false;
      if (fresh) { status(true); return; }
      kinds.add("hello");
    } else {
      try {
        for (const kind of JSON.parse(event.data).kinds || []) kinds.add(kind);
      } catch (error) {
        kinds.add("hello");  // an unreadable message: refresh everything
      }
    }
    run();
  }
  async function run() {
    if (running) { again = true; return; }
    running = true;
    try {
      do {
        again = false;
        const these = kinds;
        kinds = new Set();
        try {
          await refresh(these);
          status(true);
        } catch (error) {
          for (const kind of these) kinds.add(kind);  // the next refresh tries them again
          status(false);
        }
      } while (again);
    } finally {
      running = false;
    }
  }

  source.addEventListener("hello", note);
  source.addEventListener("change", note);
  source.addEventListener("error", () => status(false));
  window.addEventListener("pagehide", () => source.close());
};
