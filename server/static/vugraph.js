// Vugraph (docs/display.md): the page follows its stream and fetches itself again on each
// change, swapping the board's part in place: no reload, no polling. The public page's
// stream tells each change as late as the view shows it; the director's is the console's.
"use strict";

(function () {
  const script = document.currentScript;
  const holder = document.getElementById("vugraph");
  const status = document.getElementById("live-status");
  const texts = JSON.parse((document.getElementById("vugraph-texts") || {}).textContent || "{}");
  if (!holder || !script || !window.EventSource) return;

  function setStatus(text) {
    if (status) status.textContent = text;
  }

  async function fetchPage() {
    const response = await fetch(window.location.href, {cache: "no-store",
                                                        credentials: "same-origin"});
    if (!response.ok || response.redirected) throw new Error(String(response.status));
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("vugraph");
    if (fresh) holder.replaceChildren(...fresh.childNodes);
  }

  // One fetch at a time; changes that arrive meanwhile make one more afterwards.
  let running = false;
  let again = false;
  async function refresh() {
    if (running) { again = true; return; }
    running = true;
    try {
      do {
        again = false;
        try {
          await fetchPage();
          setStatus((texts.live || "") + " · " + (texts.updated || "").replace(
            "{time}", new Date().toLocaleTimeString(texts.language)));
        } catch (error) {
          setStatus(texts.offline || "");
        }
      } while (again);
    } finally {
      running = false;
    }
  }

  const source = new EventSource(script.dataset.streamUrl);
  source.addEventListener("hello", refresh);
  source.addEventListener("change", refresh);
  source.addEventListener("error", () => setStatus(texts.offline || ""));
  window.addEventListener("pagehide", () => source.close());
})();
