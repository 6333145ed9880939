// The director's console keeps itself current: the server's stream says which kinds of data
// changed, and each live section whose kinds are among them fetches its fragment again.
// No page reload, no polling of data. Ages ("since the last action") tick here, every second.
(function () {
  "use strict";
  const script = document.currentScript;
  const sections = Array.from(document.querySelectorAll("[data-fragment]"));
  const lost = document.getElementById("live-lost");
  const busy = new Map(); // section -> a refresh is pending while one is in flight

  function fragmentUrl(name) {
    return script.dataset.fragmentUrl.replace("NAME", encodeURIComponent(name));
  }

  function refresh(section) {
    if (busy.has(section)) { busy.set(section, true); return; }
    busy.set(section, false);
    fetch(fragmentUrl(section.dataset.fragment), {credentials: "same-origin"})
      .then((response) => {
        if (response.redirected || !response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then((html) => { section.innerHTML = html; tick(); })
      .catch(() => { if (lost) { lost.hidden = false; } })
      .finally(() => {
        const again = busy.get(section);
        busy.delete(section);
        if (again) { refresh(section); }
      });
  }

  function changed(kinds) {
    for (const section of sections) {
      const wanted = section.dataset.kinds.split(/\s+/);
      if (kinds === null || kinds.some((kind) => wanted.includes(kind))) { refresh(section); }
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

  setInterval(tick, 1000);
  if (!sections.length || !window.EventSource) { return; }
  let opened = false;
  const source = new EventSource(script.dataset.streamUrl);
  source.addEventListener("hello", () => {
    if (lost) { lost.hidden = true; }
    if (opened) { changed(null); } // back after a break: anything may have changed
    opened = true;
  });
  source.addEventListener("change", (event) => changed(JSON.parse(event.data).kinds));
  source.addEventListener("error", () => { if (lost) { lost.hidden = false; } });
})();
