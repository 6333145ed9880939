// The live results display (docs/display.md): follows /live/stream and redraws, no reload.
//
// On the live page each `change` (and each `hello`, on connecting and reconnecting, since
// changes may have been missed meanwhile) fetches /api/v1/rankings and /api/v1/results,
// which hold released boards only, and redraws them with the markup the server renders:
// of the rankings the page's page, of the results the newest boards' (a big field's trimmed
// as the page has them: the section's, or the best and the worst), nothing more.
// On a board's page a change fetches the page again and swaps its content (an analysis
// finished, a result corrected). Data is set as text, never as HTML.
"use strict";

(function () {
  const texts = JSON.parse((document.getElementById("display-texts") || {}).textContent || "{}");
  const status = document.getElementById("live-status");
  const livePage = document.getElementById("rankings") !== null;
  const boardPage = document.getElementById("board-page");

  function t(key, values) {
    let text = texts[key] || key;
    for (const [name, value] of Object.entries(values || {})) {
      text = text.replace("{" + name + "}", value);
    }
    return text;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(name, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function number(value) {
    if (value === null || value === undefined) return "";
    return value.toLocaleString(texts.language, {maximumFractionDigits: 2, useGrouping: false});
  }

  // Bridge words come rendered from the server (tablemodel/words.py, the API's "shown"): text
  // pieces, and suits as {suit, symbol, name}, drawn as the pages draw them; nothing here
  // spells a call, a contract, a seat or a suit.
  function pieces(parts) {
    const out = document.createDocumentFragment();
    for (const part of parts || []) {
      if (typeof part === "string") { out.append(part); continue; }
      out.append(el("span", {class: "suit suit-" + part.suit, role: "img",
                             "aria-label": part.name}, part.symbol));
    }
    return out;
  }

  function tableName(row) {
    // A session of sections names its tables "B3" (the API's "name"); otherwise the number.
    return row.name || String(row.table);
  }

  function label(pair, shown) {
    if (pair === null || pair === undefined) return "";
    return shown || (texts.labels || {})[pair] || String(pair);
  }

  // The query the server took for the rankings (a refused one shows the first page of all).
  function askedQuery() {
    const shown = document.querySelector("#ranking-pages .ranking-pages");
    return shown ? shown.dataset : {};
  }

  // The page of the rankings this address asks for (?q= ?section= ?page=, server/pages/rankview.py):
  // the API gives those rows alone, and where they stand among the matched.
  // The query is the one the server took (a refused one shows the first page of all).
  function rankingsUrl() {
    const asked = askedQuery();
    const query = new URLSearchParams({page: asked.page || "1", lang: texts.language || ""});
    if (asked.q) query.set("q", asked.q);
    if (asked.section) query.set("section", asked.section);
    return "/api/v1/rankings?" + query.toString();
  }

  // The results the page draws, and no more: the newest boards, at most board_rows of each,
  // of the section the page shows when it shows one.
  function resultsUrl() {
    const query = new URLSearchParams({lang: texts.language || "", recent: texts.recent || 6,
                                       per_board: texts.board_rows || 20});
    const asked = askedQuery();
    if (asked.section) query.set("section", asked.section);
    return "/api/v1/results?" + query.toString();
  }

  function pageLink(view, page, rel, text) {
    const query = new URLSearchParams();
    if (view.q) query.set("q", view.q);
    if (view.section) query.set("section", view.section);
    if (page > 1) query.set("page", String(page));
    const search = query.toString();
    return el("a", {rel: rel, href: window.location.pathname + (search ? "?" + search : "")}, text);
  }

  function renderPages(view) {
    const box = document.getElementById("ranking-pages");
    if (!box || !view) return;
    const filtered = Boolean(view.q || view.section);
    let count = "";
    if (filtered && !view.matched) count = texts.rankings_none;
    else if (filtered) count = t("rankings_count_filtered", {matched: view.matched, total: view.total});
    else if (view.total) count = t("rankings_count", {first: view.first, last: view.first + view.shown - 1, matched: view.matched});
    const out = el("div", {class: "ranking-pages", "data-q": view.q, "data-section": view.section,
                           "data-page": view.page, "data-pages": view.pages},
      el("p", {class: "ranking-count", role: "status"}, count));
    if (view.pages > 1) {
      out.append(el("nav", {"aria-label": texts.rankings_pages},
        view.page > 1 ? pageLink(view, view.page - 1, "prev", texts.rankings_previous) : null, " ",
        el("span", {}, t("rankings_page", {page: view.page, pages: view.pages})), " ",
        view.page < view.pages ? pageLink(view, view.page + 1, "next", texts.rankings_next) : null));
    }
    box.replaceChildren(out);
  }

  function renderRankings(data) {
    if (data.view) renderPages({...data.view, shown: data.rankings.length});
    const out = document.createDocumentFragment();
    const groups = new Map();
    for (const row of data.rankings) {
      if (!groups.has(row.group)) groups.set(row.group, []);
      groups.get(row.group).push(row);
    }
    if (groups.size === 0 && !(data.view && data.view.total)) {
      out.append(el("p", {class: "empty"}, texts.display_no_rankings));
    }
    const mp = data.method === "mp";
    // As _ranking_groups orders them: section by section, North-South first (group_order).
    const order = (group) => { const at = (texts.group_order || []).indexOf(group); return at < 0 ? 1e6 : at; };
    const sorted = [...groups].sort((a, b) => order(a[0]) - order(b[0]) || (a[0] < b[0] ? -1 : 1));
    // Laws 90, 91: a penalty has its own column, shown once anyone in the group has one.
    for (const [group, rows] of sorted) {
      const fined = rows.some((row) => row.penalty);
      const head = el("tr", {},
        el("th", {scope: "col", class: "rank"}, texts.display_rank),
        el("th", {scope: "col", class: "pair"}, texts.display_pair),
        el("th", {scope: "col", class: "names"}, texts.display_names),
        el("th", {scope: "col", class: "score"}, texts["display_score_" + data.method]),
        mp ? el("th", {scope: "col", class: "percent"}, texts.display_percent) : null,
        fined ? el("th", {scope: "col", class: "penalty"}, texts.display_penalty) : null);
      const body = el("tbody");
      for (const row of rows) {
        body.append(el("tr", {"data-participant": row.participant},
          el("td", {class: "rank"}, row.rank_label),
          el("td", {class: "pair"}, row.shown || (texts.labels || {})[row.participant] || row.label),
          el("td", {class: "names"}, row.names),
          el("td", {class: "score"}, number(row.score)),
          mp ? el("td", {class: "percent"}, number(row.percent)) : null,
          fined ? el("td", {class: "penalty"}, row.penalty ? number(-row.penalty) : "") : null));
      }
      out.append(el("table", {class: "ranking", "data-group": group},
        texts.groups[group] ? el("caption", {}, texts.groups[group]) : null,
        el("thead", {}, head), body));
    }
    document.getElementById("rankings").replaceChildren(out);
  }

  function renderResults(data) {
    const byBoard = new Map();
    for (const row of data.results) {
      if (!byBoard.has(row.board)) byBoard.set(row.board, []);
      byBoard.get(row.board).push(row);
    }
    // The API sends each board's rows in the page's order (by table; a trimmed board's best
    // and worst for North-South) and how many it has in all (counts).
    const boards = [...byBoard.keys()].sort((a, b) => b - a).slice(0, texts.recent || 6);
    const counts = data.counts || {};
    const out = document.createDocumentFragment();
    if (boards.length === 0) out.append(el("p", {class: "empty"}, texts.display_no_results));
    for (const board of boards) {
      const rows = byBoard.get(board);
      const total = counts[String(board)] || rows.length;
      const body = el("tbody");
      for (const row of rows) {
        const score = row.score_ns;
        body.append(el("tr", {"data-table": row.table},
          el("td", {class: "pair"}, label(row.ns_pair, row.shown.ns)),
          el("td", {class: "pair"}, label(row.ew_pair, row.shown.ew)),
          el("td", {class: "contract"}, pieces(row.shown.contract)),
          el("td", {class: "declarer"}, row.shown.declarer),
          el("td", {class: "lead"}, pieces(row.shown.lead)),
          el("td", {class: "tricks"}, row.tricks === null ? "" : row.tricks),
          el("td", {class: "score"}, score !== null && score >= 0 ? score : ""),
          el("td", {class: "score"}, score !== null && score < 0 ? -score : "")));
      }
      const heads = ["ns", "ew", "contract", "declarer", "lead", "tricks", "score_ns", "score_ew"];
      const classes = ["pair", "pair", "contract", "declarer", "lead", "tricks", "score", "score"];
      const head = el("tr", {}, ...heads.map((key, i) =>
        el("th", {scope: "col", class: classes[i]}, texts["display_" + key])));
      out.append(el("article", {class: "board", id: "board-" + board, "data-board": board},
        el("h3", {}, el("a", {href: "/board/" + board}, t("display_board", {number: board}))),
        el("table", {class: "traveller cols-8"}, el("thead", {}, head), body),
        total > rows.length ? el("p", {class: "board-trimmed"}, el("a", {href: "/board/" + board},
          t("display_board_trimmed", {shown: rows.length, total: total}))) : null));
    }
    document.getElementById("results").replaceChildren(out);
    const released = document.getElementById("released");
    released.replaceChildren(...data.released.flatMap((board) =>
      [el("a", {href: "/board/" + board}, board), " "]));
  }

  function renderProgress(data) {
    const summary = [];
    if (data.round) {
      summary.push(t("display_progress_round", {round: data.round, rounds: data.rounds}));
      summary.push(t("display_progress_round_boards",
                     {finished: data.round_finished, scheduled: data.round_scheduled}));
    } else {
      summary.push(texts.display_progress_not_started);
    }
    summary.push(t("display_progress_boards",
                   {finished: data.finished, scheduled: data.scheduled}));
    const list = el("ul", {class: "tables-progress"});
    for (const row of data.tables) {
      list.append(el("li", {class: "stage-" + row.stage, "data-table": row.table},
        el("span", {class: "table-name"}, texts.display_table + " " + tableName(row)),
        el("span", {class: "stage"}, t("display_stage_" + row.stage, {board: row.board})),
        row.scheduled ? el("span", {class: "table-boards"}, t("display_table_boards",
          {finished: row.finished, scheduled: row.scheduled})) : null));
    }
    if (data.tables_matched > data.tables.length) {
      list.append(el("li", {class: "more"},
        t("display_progress_more", {count: data.tables_matched - data.tables.length})));
    }
    const clock = data.clock ? el("p", {class: "round-clock stage-" + data.clock.stage,
      "data-left": data.clock.left, "data-warning": data.clock.warning,
      "data-round": data.clock.round}) : null;
    document.getElementById("progress").replaceChildren(
      ...(clock ? [clock] : []), el("p", {class: "progress-summary"}, summary.join(" · ")),
      list);
    tickClock();
    document.querySelector(".live").classList.toggle("nothing-released", data.released === 0);
  }

  // The round clock counts down here from the seconds left the server gave (its clock
  // decides), on this page's monotonic timer: never from the browser's date, which may be
  // wrong. Each element remembers when it was drawn.
  const drawnAt = new WeakMap();

  function tickClock() {
    for (const node of document.querySelectorAll(".round-clock[data-left]")) {
      if (!drawnAt.has(node)) drawnAt.set(node, performance.now());
      const left = Number(node.dataset.left) - (performance.now() - drawnAt.get(node)) / 1000;
      const whole = Math.max(0, Math.ceil(left));
      const warning = Number(node.dataset.warning || 0) * 60;
      const stage = whole <= 0 ? "over" : (warning && whole <= warning ? "warning" : "running");
      const time = Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
      const key = {running: "display_clock", warning: "display_clock_warning",
                   over: "display_clock_over"}[stage];
      node.textContent = t(key, {round: node.dataset.round, time: time});
      node.className = "round-clock stage-" + stage;
    }
  }
  setInterval(tickClock, 250);

  async function fetchJson(url) {
    const response = await fetch(url, {cache: "no-store", credentials: "same-origin"});
    if (!response.ok) throw new Error(url + ": " + response.status);
    return response.json();
  }

  // Tables move on all the time in a big room: their progress is fetched at most once every
  // PROGRESS_EVERY ms, on a timer of its own so that it never holds a result back; a result
  // (and a reconnection, which may have missed anything) fetches it at once.
  const PROGRESS_EVERY = 2000;
  let progressAt = 0;
  let progressTimer = null;

  async function refreshProgress() {
    if (progressTimer !== null) { clearTimeout(progressTimer); progressTimer = null; }
    progressAt = Date.now();
    // A big field's page lists some tables only (a section's, or those offline).
    const query = new URLSearchParams(texts.progress_query || {}).toString();
    renderProgress(await fetchJson("/api/v1/progress" + (query ? "?" + query : "")));
  }

  function progressSoon() {
    if (progressTimer !== null) return;
    const wait = Math.max(0, progressAt + PROGRESS_EVERY - Date.now());
    progressTimer = setTimeout(() => {
      progressTimer = null;
      refreshProgress().catch(() => setStatus(texts.display_offline));
    }, wait);
  }

  async function refreshLive(kinds) {
    const all = kinds === undefined || kinds.has("hello");
    const fetches = [];
    if (all || kinds.has("results") || kinds.has("analysis")) {
      fetches.push(Promise.all([fetchJson(rankingsUrl()), fetchJson(resultsUrl())])
        .then(([rankings, results]) => { renderRankings(rankings); renderResults(results); }));
      if (swissPart !== null) fetches.push(refreshSwiss());
    }
    if (all || kinds.has("results")) {
      fetches.push(refreshProgress());
    } else if (kinds.has("tables")) {
      progressSoon();
    }
    await Promise.all(fetches);
  }

  // A Swiss's VP standings and matches are drawn by the server: the page's part is taken
  // again from a fresh copy of the page.
  const swissPart = document.getElementById("swiss");

  async function refreshSwiss() {
    const response = await fetch(window.location.href, {cache: "no-store"});
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("swiss");
    if (fresh) swissPart.replaceChildren(...fresh.childNodes);
  }

  async function refreshBoard(kinds) {
    // A board's page shows results and an analysis; the tables moving on changes nothing.
    if (kinds !== undefined && !kinds.has("hello") && !kinds.has("results")
        && !kinds.has("analysis")) return;
    const response = await fetch(window.location.href, {cache: "no-store"});
    if (!response.ok) return;  // a released board stays released; a hiccup waits for the next
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("board-page");
    if (fresh) boardPage.replaceChildren(...fresh.childNodes);
  }

  function setStatus(text) {
    if (status) status.textContent = text;
  }

  if (!livePage && !boardPage) return;
  const refresh = livePage ? refreshLive : refreshBoard;
  window.bidboxFollow(new EventSource("/live/stream"), refresh, (ok) => setStatus(
    ok ? t("display_live") + " · " +
         t("display_updated", {time: new Date().toLocaleTimeString(texts.language)})
       : texts.display_offline), texts.version);
})();
