// Following a live stream (an EventSource, docs/display.md), for display.js and vugraph.js:
// each `change`, and each `hello` (on connecting and reconnecting, since changes may have
// been missed meanwhile), runs `refresh`; one refresh at a time, and changes that arrive
// meanwhile make one more afterwards. `status(ok)` is told how the last refresh went, or
// that the stream is lost.
"use strict";

window.bidboxFollow = function (source, refresh, status) {
  let running = false;
  let again = false;
  async function run() {
    if (running) { again = true; return; }
    running = true;
    try {
      do {
        again = false;
        try {
          await refresh();
          status(true);
        } catch (error) {
          status(false);
        }
      } while (again);
    } finally {
      running = false;
    }
  }

  source.addEventListener("hello", run);
  source.addEventListener("change", run);
  source.addEventListener("error", () => status(false));
  window.addEventListener("pagehide", () => source.close());
};
