// The hand viewer (server/outputs/handviewer.py): step through a table's play card by card, the four
// hands shown as they stand, the trick on the table, and after each card the tricks
// declarer's side can still take (double dummy). The page already lists every table's
// auction and tricks; this adds the table to step through. No library, no request.
"use strict";
(function () {
  const source = document.getElementById("plays");
  const viewer = document.getElementById("viewer");
  if (!source || !viewer) return;
  const data = JSON.parse(source.textContent);
  if (!data.plays.length || !Object.keys(data.hands).length) return;
  const texts = data.texts;
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  let play = 0; // the table shown
  let step = 0; // cards played so far

  function cardHtml(card) {
    const span = document.createElement("span");
    const suit = document.createElement("span");
    suit.className = "suit" + ("HD".includes(card[0]) ? " red" : "");
    suit.textContent = SUITS[card[0]];
    span.append(suit, card.slice(1).replace("T", "10"));
    return span;
  }

  function cards() {
    return data.plays[play].tricks.flat();
  }

  function render() {
    const all = cards();
    const played = all.slice(0, step);
    const gone = new Set(played.map((c) => c.card));
    for (const hand of viewer.querySelectorAll(".hand")) {
      const list = hand.querySelector("ul");
      list.replaceChildren();
      for (const suit of "SHDC") {
        const item = document.createElement("li");
        const symbol = document.createElement("span");
        symbol.className = "suit" + ("HD".includes(suit) ? " red" : "");
        symbol.textContent = SUITS[suit];
        item.append(symbol, " ");
        const held = (data.hands[hand.dataset.seat] || []).filter(
          (c) => c[0] === suit && !gone.has(c));
        item.append(held.map((c) => c.slice(1).replace("T", "10")).join(" ") || "—");
        list.append(item);
      }
    }
    // The trick on the table: the cards of the trick in progress (or the last one, whole).
    const trick = viewer.querySelector(".trick");
    trick.replaceChildren();
    const inTrick = step === 0 ? [] : played.slice(Math.floor((step - 1) / 4) * 4, step);
    for (const c of inTrick) {
      const spot = document.createElement("span");
      spot.className = "spot seat-" + c.seat + (c.gave ? " gave" : "");
      spot.append(data.seats[c.seat] + " ", cardHtml(c.card));
      trick.append(spot);
    }
    const where = viewer.querySelector(".where");
    where.textContent = step === 0 ? texts.hands_start
      : `${texts.hands_trick} ${Math.floor((step - 1) / 4) + 1} · ${(step - 1) % 4 + 1}/4`
        + (step === all.length ? ` · ${texts.hands_end}` : "");
    const dd = viewer.querySelector(".dd");
    if (!data.plays[play].analysed) {
      dd.textContent = texts.hands_not_analysed;
    } else {
      const now = step === 0 ? (all[0] || {}).before : all[step - 1].after;
      let text = `${texts.hands_can_take}: ${now}`;
      if (step > 0 && all[step - 1].gave) text += ` · ${texts.hands_gave_away}: ${all[step - 1].gave}`;
      dd.textContent = text;
      dd.classList.toggle("gave", step > 0 && all[step - 1].gave > 0);
    }
    for (const button of viewer.querySelectorAll(".tables button")) {
      button.setAttribute("aria-selected", String(Number(button.dataset.play) === play));
    }
    document.querySelectorAll("section.play").forEach((section, index) => {
      section.classList.toggle("current", index === play);
    });
  }

  function go(to) {
    const last = cards().length;
    step = Math.max(0, Math.min(last, to));
    render();
  }

  const tables = viewer.querySelector(".tables");
  data.plays.forEach((p, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("role", "tab");
    button.dataset.play = String(index);
    button.textContent = `${p.table}: ${p.contract || ""}${p.declarer ? " " + data.seats[p.declarer] : ""}`;
    button.addEventListener("click", () => { play = index; step = 0; render(); });
    tables.append(button);
  });
  const moves = { first: () => 0, previous: () => step - 1, next: () => step + 1,
    last: () => cards().length };
  for (const button of viewer.querySelectorAll(".controls button")) {
    const move = moves[button.dataset.step];
    button.title = texts["hands_" + button.dataset.step];
    button.setAttribute("aria-label", button.title);
    button.addEventListener("click", () => go(move()));
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
  });
  viewer.hidden = false;
  render();
})();
