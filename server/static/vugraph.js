// Vugraph (docs/display.md): the page follows its stream and fetches itself again on each
// change, swapping the board's part in place: no reload, no polling. The public page's
// stream tells each change as late as the view shows it; the director's is the console's.
"use strict";

(function () {
  const script = document.currentScript;
  const holder = document.getElementById("vugraph");
  const status = document.getElementById("live-status");
  const texts = JSON.parse((document.getElementById("vugraph-texts") || {}).textContent || "{}");
  if (!holder || !script || !window.EventSource || !window.bidboxFollow) return;

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

  window.bidboxFollow(new EventSource(script.dataset.streamUrl), fetchPage, (ok) => setStatus(
    ok ? (texts.live || "") + " · " + (texts.updated || "").replace(
           "{time}", new Date().toLocaleTimeString(texts.language))
       : texts.offline || ""));
})();
