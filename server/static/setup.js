"use strict";
// Letters for the rows (B, C, ...), and one more row on demand: the server reads any number.
(function () {
  const body = document.querySelector("#sections tbody");
  function letter(index) { let name = ""; index += 1;
    while (index) { const rest = (index - 1) % 26; name = String.fromCharCode(65 + rest) + name; index = Math.floor((index - 1) / 26); }
    return name; }
  function relabel() { body.querySelectorAll("tr").forEach((row, i) => { row.querySelector(".letter").textContent = letter(i + 1); }); }
  document.getElementById("add-section").addEventListener("click", () => {
    const rows = body.querySelectorAll("tr"); const last = rows[rows.length - 1];
    const next = Math.max(...Array.from(rows, r => Number(r.dataset.row))) + 1;
    const copy = last.cloneNode(true); copy.dataset.row = String(next);
    copy.querySelectorAll("[name]").forEach(field => { field.name = field.name.replace(/-\d+$/, "-" + next); if (field.tagName === "INPUT") field.value = ""; });
    body.appendChild(copy); relabel(); });
  relabel();
})();
