// euchre-sim's page: a thin face over the JSON API (/api/...). No build step, no libraries.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { catalog: null, deck: null, hand: [], ref: null, seat: 1, job: null };
const RED_SUITS = new Set(["D", "H"]);
// a server reachable from other machines wants the token it printed (?token= in the page's URL)
const TOKEN = new URLSearchParams(location.search).get("token");

async function api(path, body, method) {
  const headers = TOKEN ? { Authorization: "Bearer " + TOKEN } : {};
  const init = body === undefined ? { method: method || "GET", headers }
    : { method: method || "POST", headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

const fmtRate = (x) => (x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%");
const fmtPoints = (x) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(3);

// ---- tabs and health --------------------------------------------------------------------

for (const button of document.querySelectorAll(".tab")) {
  button.addEventListener("click", () => {
    for (const other of document.querySelectorAll(".tab")) other.classList.remove("active");
    button.classList.add("active");
    for (const panel of document.querySelectorAll(".panel")) {
      panel.hidden = panel.id !== "tab-" + button.dataset.tab;
    }
  });
}

async function watchHealth() {
  try {
    const health = await api("/api/health");
    $("status").textContent = health.ready ? "ready" : "warming up…";
    $("status").className = "status " + (health.ready ? "ready" : "warming");
    if (health.ready) { updateEstimate(); return; }
  } catch (err) {
    $("status").textContent = err instanceof TypeError ? "server unreachable" : err.message;
  }
  setTimeout(watchHealth, 500);
}

// ---- rules and deck ---------------------------------------------------------------------

function optionInput(option, value) {
  const id = "opt-" + option.name;
  let input;
  if (option.kind === "bool") {
    input = el("input", { type: "checkbox", id, checked: value });
  } else if (option.choices.length) {
    input = el("select", { id }, ...option.choices.map((c) => el("option", { value: c, textContent: c })));
    input.value = value;
  } else {
    input = el("input", { type: "number", id, value, min: 0 });
  }
  input.addEventListener("change", rulesChanged);
  return el("label", { class: "option", title: option.meaning }, input, " " + option.name);
}

function renderOptions() {
  const preset = state.catalog.presets[$("preset").value].options;
  $("options").replaceChildren(...state.catalog.options.map((o) => optionInput(o, preset[o.name])));
}

function ruleSettings() {
  // the options that differ from the preset: the body's "set"
  const preset = state.catalog.presets[$("preset").value].options;
  const settings = {};
  for (const option of state.catalog.options) {
    const input = $("opt-" + option.name);
    const value = option.kind === "bool" ? input.checked : Number(input.value);
    if (value !== preset[option.name]) settings[option.name] = value;
  }
  return settings;
}

async function rulesChanged() {
  const query = new URLSearchParams({ rules: $("preset").value });
  for (const [key, value] of Object.entries(ruleSettings())) query.append("set", `${key}=${value}`);
  try {
    state.deck = await api("/api/deck?" + query);
    $("advise-error").textContent = "";
  } catch (err) {
    $("advise-error").textContent = err.message;
    return;
  }
  const names = new Set(state.deck.suits.flatMap((s) => s.cards).concat(state.deck.joker || []));
  state.hand = state.hand.filter((c) => names.has(c));
  if (state.ref && !names.has(state.ref)) state.ref = null;
  renderDeck();
}

function cardLabel(name) {
  if (name === state.deck.joker) return "🃏";
  const suit = state.deck.suits.find((s) => s.suit === name.slice(-1));
  const rank = name.slice(0, -1);
  return (rank === "T" ? "10" : rank) + suit.symbol;
}

function cardButton(name, suit) {
  const classes = ["card"];
  if (state.hand.includes(name)) classes.push("in-hand");
  if (state.ref === name) classes.push("is-ref");
  if (state.deck.style === "french" && RED_SUITS.has(suit)) classes.push("red");
  const button = el("button", { type: "button", class: classes.join(" "), "data-card": name,
                                textContent: cardLabel(name), title: name });
  button.addEventListener("click", () => pickCard(name));
  return button;
}

function renderDeck() {
  const rows = state.deck.suits.map((s) => el("div", { class: "suit-row" },
    ...s.cards.map((c) => cardButton(c, s.suit))));
  if (state.deck.joker) rows.push(el("div", { class: "suit-row" }, cardButton(state.deck.joker)));
  $("deck").replaceChildren(...rows);
  $("hand-text").textContent = state.hand.join(" ") || "–";
  $("ref-text").textContent = state.ref || "–";
  updateEstimate();
}

function pickCard(name) {
  const mode = document.querySelector("input[name=pick]:checked").value;
  if (state.hand.includes(name)) state.hand = state.hand.filter((c) => c !== name);
  else if (state.ref === name) state.ref = null;
  else if (mode === "ref" || state.hand.length === 5) state.ref = name;
  else state.hand.push(name);
  const next = state.hand.length === 5 ? "ref" : "hand";
  document.querySelector(`input[name=pick][value=${next}]`).checked = true;
  renderDeck();
}

function roundChanged() {
  const round = document.querySelector("input[name=round]:checked").value;
  const label = round === "1" ? "the upcard" : "the turned-down card";
  $("ref-label").textContent = label;
  $("ref-name").textContent = round === "1" ? "Upcard" : "Turned down";
  updateEstimate();
}

function pickSeat(seat) {
  state.seat = seat;
  for (const button of document.querySelectorAll(".seat")) {
    button.classList.toggle("chosen", Number(button.dataset.seat) === seat);
  }
  updateEstimate();
}

// ---- advise -----------------------------------------------------------------------------

function describeModels() {
  // one line on what the chosen bidder and play model mean
  const play = $("play").value;
  const bidding = $("bidding").value;
  const bidder = bidding
    ? `the other seats bid as the ${bidding} bidder does (${state.catalog.bidding[bidding]}); ` +
      "passing is one of your actions, and “After you pass” shows what follows"
    : "none, so no auction: your possible calls are compared with each other, passing not among them";
  $("models-note").textContent = `Bidding: ${bidder}. Play ${play}: ${state.catalog.play[play]}.`;
}

function adviseBody() {
  // the CLI's option names, as POST /api/advise reads them
  const round = document.querySelector("input[name=round]:checked").value;
  const body = { hand: state.hand.join(" "), seat: state.seat, rules: $("preset").value,
                 set: ruleSettings(), play: $("play").value, deals: Number($("deals").value),
                 seed: Number($("seed").value) };
  body[round === "1" ? "up" : "turned_down"] = state.ref;
  if (body.play === "pimc") body.worlds = Number($("worlds").value);
  if ($("bidding").value) {
    body.bidding = $("bidding").value;
    if ($("score").value.trim()) body.score = $("score").value.trim();
  }
  return body;
}

let estimateTimer = null;
function updateEstimate() {
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(async () => {
    if (state.hand.length !== 5 || !state.ref) {
      $("estimate").textContent = `Pick five cards and ${$("ref-label").textContent}.`;
      return;
    }
    try {
      const quote = await api("/api/estimate", adviseBody());
      const ahead = quote.waiting ? `, after ${quote.waiting} queued ${quote.waiting > 1 ? "queries" : "query"}` : "";
      $("estimate").textContent = quote.seconds === null
        ? "Expected wait: not measured yet for this kind of query" + ahead + "."
        : `Expected wait: about ${quote.seconds < 1 ? quote.seconds.toFixed(1) : Math.round(quote.seconds)} s`
          + ` (${Math.round(quote.units_per_second).toLocaleString()} deals/s measured here)${ahead}.`;
    } catch (err) {
      $("estimate").textContent = err.message;
    }
  }, 200);
}

function actionLabel(a) {
  if (a.action === "pass") return "pass";
  if (a.action === "passed_out") return "passed out (redeal)";
  return (a.action === "call" ? "call " + a.suit : "order up " + a.suit) + (a.alone ? " alone" : "");
}

function intervalBar(a, lo, hi, best) {
  // the 95 % interval of the mean on a shared axis, with zero marked
  const span = hi - lo || 1;
  const left = (100 * (a.ci95[0] - lo)) / span;
  const width = Math.max(0.5, (100 * (a.ci95[1] - a.ci95[0])) / span);
  const mean = (100 * (a.mean_points - lo)) / span;
  const zero = (100 * (0 - lo)) / span;
  const bar = el("div", { class: "bar-track" },
    el("div", { class: "bar-zero", style: `left:${zero}%` }),
    el("div", { class: "bar" + (best ? " best" : ""), style: `left:${left}%;width:${width}%` }),
    el("div", { class: "bar-mean", style: `left:${mean}%` }));
  return bar;
}

function renderAdvice(result) {
  const actions = result.actions;
  const top = actions[0];
  const lo = Math.min(0, ...actions.map((a) => a.ci95[0]));
  const hi = Math.max(0, ...actions.map((a) => a.ci95[1]));
  const columns = ["action", "make", "march", "euchred", "points", "95% interval", "drawn"];
  if (result.bidding) columns.push("bidder");
  if (result.score) columns.push("P(win game)");
  $("advise-results").tHead.replaceChildren(el("tr", {}, ...columns.map((c) => el("th", { textContent: c }))));
  const rows = actions.map((a) => {
    const close = a !== top && a.ci95[1] >= top.ci95[0];
    const cells = [
      el("td", { "data-key": "action" }, actionLabel(a),
         close ? el("span", { class: "tag", textContent: "too close to call" }) : ""),
      el("td", { "data-key": "make_rate", textContent: fmtRate(a.make_rate) }),
      el("td", { "data-key": "march_rate", textContent: fmtRate(a.march_rate) }),
      el("td", { "data-key": "euchred_rate", textContent: fmtRate(a.euchred_rate) }),
      el("td", { "data-key": "mean_points", textContent: fmtPoints(a.mean_points) }),
      el("td", { "data-key": "ci95", textContent: `${fmtPoints(a.ci95[0])}..${fmtPoints(a.ci95[1])}` }),
      el("td", { class: "bar-cell" }, intervalBar(a, lo, hi, a === top)),
    ];
    if (result.bidding) cells.push(el("td", { "data-key": "chosen_rate", textContent: fmtRate(a.chosen_rate) }));
    if (result.score) {
      cells.push(el("td", { "data-key": "p_win",
                            textContent: `${fmtRate(a.p_win)} ± ${fmtRate(state.catalog.z95 * a.p_win_se)}` }));
    }
    return el("tr", { "data-action": a.action, "data-suit": a.suit || "", "data-alone": String(a.alone) }, ...cells);
  });
  $("advise-results").tBodies[0].replaceChildren(...rows);
  const ref = result.up ? `upcard ${result.up}` : `turned down ${result.turned_down}`;
  const reached = result.bidding ? `, reaching you on ${fmtRate(result.reached)} of deals (bidding ${result.bidding})` : "";
  $("advise-title").textContent = `${result.hand}, seat ${result.seat}, ${ref}: ` +
    `${result.deals.toLocaleString()} deals${reached}, play ${result.play}`;
  $("advise-best").textContent = bestLine(result, actions);
  $("euchre-text").textContent = state.deck.euchre_text;
  const after = result.after_pass || [];
  $("after-pass-box").hidden = after.length === 0;
  $("after-pass").tBodies[0].replaceChildren(...after.map((e) => el("tr", {},
    el("td", { textContent: e.action === "passed_out" ? "passed out (redeal)"
      : `round ${e.round}, seat ${e.seat}: ${actionLabel(e)}` }),
    el("td", { textContent: fmtRate(e.share) }),
    el("td", { textContent: fmtPoints(e.mean_points) }))));
  $("advise-output").hidden = false;
}

function bestLine(result, actions) {
  let text;
  if (result.bidding) {
    text = result.best === null
      ? "Best: too close to call (the top two are within each other's 95 % noise on these deals)."
      : `Best: ${actionLabel(result.best)} (ahead of the runner-up by ${fmtPoints(result.best.lead)}` +
        ` ± ${(state.catalog.z95 * result.best.lead_se).toFixed(3)} points, paired on the same deals).`;
  } else {
    const top = actions[0];
    const close = actions.filter((a) => a !== top && a.ci95[1] >= top.ci95[0]);
    text = close.length ? `Highest: ${actionLabel(top)}, too close to call against ${close.map(actionLabel).join(", ")}.`
      : `Best: ${actionLabel(top)}.`;
  }
  if (result.score) {
    text += ` At ${result.score.us}-${result.score.them}, best for the game: ${actionLabel(result.best_for_game)}` +
      (result.game_differs ? " — not the best for points." : " (also the best for points).");
  }
  return text;
}

async function runAdvice() {
  $("advise-error").textContent = "";
  let job;
  try {
    job = await api("/api/jobs", { kind: "advise", query: adviseBody() });
  } catch (err) {
    $("advise-error").textContent = err.message;
    return;
  }
  state.job = job.id;
  $("advise-run").disabled = true;
  $("advise-cancel").disabled = false;
  $("advise-progress").hidden = false;
  while (state.job === job.id) {
    job = await api("/api/jobs/" + job.id);
    $("advise-progress").max = job.total;
    $("advise-progress").value = job.done;
    if (job.state === "done") renderAdvice(job.result);
    if (job.state === "failed") $("advise-error").textContent = job.error;
    if (job.state === "cancelled") $("advise-error").textContent = "Cancelled.";
    if (["done", "failed", "cancelled"].includes(job.state)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  state.job = null;
  $("advise-run").disabled = false;
  $("advise-cancel").disabled = true;
  $("advise-progress").hidden = true;
  updateEstimate();
}

// ---- solve ------------------------------------------------------------------------------

async function runSolve() {
  $("solve-error").textContent = "";
  const set = $("solve-set").value.split(",").map((s) => s.trim()).filter(Boolean);
  let result;
  try {
    result = await api("/api/solve", { deal: $("solve-deal").value, dealer: $("solve-dealer").value,
                                       rules: $("solve-preset").value, set });
  } catch (err) {
    $("solve-error").textContent = err.message;
    $("solve-results").hidden = true;
    return;
  }
  const ways = [null, "N", "E", "S", "W"];
  const trumps = [...new Set(result.table.map((r) => r.trump))];
  $("solve-results").tHead.replaceChildren(el("tr", {}, el("th", { textContent: "trump" }),
    ...ways.map((w) => el("th", { textContent: w ? w + " alone" : "partnerships" }))));
  $("solve-results").tBodies[0].replaceChildren(...trumps.map((t) => el("tr", {},
    el("th", { textContent: t }),
    ...ways.map((w) => {
      const row = result.table.find((r) => r.trump === t && r.alone === w);
      return el("td", { "data-trump": t, "data-alone": w || "",
                        textContent: `${row.ns_tricks}–${row.ew_tricks}`, title: `${row.leader} leads` });
    }))));
  $("solve-results").hidden = false;
}

// ---- tables -----------------------------------------------------------------------------

function runQuery(extra) {
  return new URLSearchParams({ dir: $("run-dir").value.trim(), ...extra });
}

async function listRuns() {
  // the run folders under the server's runs folder, to pick from
  let listing;
  try {
    listing = await api("/api/runs");
  } catch (err) {
    $("run-error").textContent = err.message;
    return;
  }
  $("runs-root").textContent = listing.root;
  const pick = listing.runs.length ? "pick a run folder" : "no run folders found";
  $("run-list").replaceChildren(el("option", { value: "", textContent: pick }),
    ...listing.runs.map((r) => el("option", { value: r, textContent: r })));
  $("runs-more").hidden = !listing.truncated;
}

function runPicked() {
  if (!$("run-list").value) return;
  $("run-dir").value = $("run-list").value;
  openRun();
}

async function openRun() {
  $("run-error").textContent = "";
  let overview;
  try {
    overview = await api("/api/run?" + runQuery({}));
  } catch (err) {
    $("run-error").textContent = err.message;
    $("run-box").hidden = true;
    return;
  }
  const run = overview.run;
  $("run-facts").textContent = `${(run.deals || 0).toLocaleString()} deals, seed ${run.seed}, play ` +
    `${run.play || "dd"}${run.bidding ? ", bidding " + run.bidding : ""}; tables: ${overview.tables.join(", ")}`;
  $("run-table").replaceChildren(...overview.tables.map((t) => el("option", { textContent: t })));
  $("plot-kind").replaceChildren(...overview.plots.map((p) => el("option", { textContent: p })));
  $("run-box").hidden = false;
  await showRows();
}

async function showRows() {
  const filters = { table: $("run-table").value, round: $("f-round").value, seat: $("f-seat").value,
                    trumps: $("f-trumps").value, alone: $("f-alone").value, hand: $("f-hand").value,
                    action: $("f-action").value, min_n: $("f-min-n").value, sort: $("f-sort").value,
                    ascending: String($("f-ascending").checked), limit: $("f-limit").value };
  let page;
  try {
    page = await api("/api/run/table?" + runQuery(filters));
  } catch (err) {
    $("run-error").textContent = err.message;
    return;
  }
  $("run-error").textContent = "";
  $("run-matched").textContent = `${page.matched.toLocaleString()} rows match; showing ${page.rows.length}.`;
  $("run-rows").tHead.replaceChildren(el("tr", {}, ...page.columns.map((c) => el("th", { textContent: c }))));
  $("run-rows").tBodies[0].replaceChildren(...page.rows.map((row) => el("tr", {},
    ...row.map((v) => el("td", { textContent: typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : String(v) })))));
}

function drawPlot() {
  const image = $("plot-img");
  image.onerror = async () => {
    const response = await fetch(image.src);
    $("run-error").textContent = (await response.json()).error;
    image.hidden = true;
  };
  image.onload = () => { image.hidden = false; };
  const query = runQuery({ kind: $("plot-kind").value, round: $("plot-round").value });
  if (TOKEN) query.set("token", TOKEN);  // an image's request carries no header of ours
  image.src = "/api/run/plot?" + query;
}

// ---- start ------------------------------------------------------------------------------

async function start() {
  state.catalog = await api("/api/rules");
  const presets = Object.keys(state.catalog.presets);
  for (const select of [$("preset"), $("solve-preset")]) {
    select.replaceChildren(...presets.map((p) => el("option", { value: p, textContent: p,
                                                                  title: state.catalog.presets[p].description })));
  }
  $("play").replaceChildren(...Object.entries(state.catalog.play).map(([name, text]) =>
    el("option", { value: name, textContent: name, title: text })));
  $("bidding").append(...Object.entries(state.catalog.bidding).filter(([name]) => name !== "table")
    .map(([name, text]) => el("option", { value: name, textContent: name, title: text })));
  $("bidding").value = "human";  // an auction against bidders like people: passing is an action
  $("score-box").hidden = false;
  renderOptions();
  $("preset").addEventListener("change", () => { renderOptions(); rulesChanged(); });
  $("play").addEventListener("change", () => {
    $("worlds-box").hidden = $("play").value !== "pimc";
    $("deals").value = $("play").value === "pimc" ? 1000 : 20000;
    describeModels();
    updateEstimate();
  });
  $("bidding").addEventListener("change", () => {
    $("score-box").hidden = !$("bidding").value;
    describeModels();
    updateEstimate();
  });
  describeModels();
  for (const id of ["deals", "seed", "worlds", "score"]) $(id).addEventListener("input", updateEstimate);
  for (const radio of document.querySelectorAll("input[name=round]")) radio.addEventListener("change", roundChanged);
  for (const button of document.querySelectorAll(".seat")) {
    button.addEventListener("click", () => pickSeat(Number(button.dataset.seat)));
  }
  $("clear-cards").addEventListener("click", () => {
    state.hand = [];
    state.ref = null;
    document.querySelector("input[name=pick][value=hand]").checked = true;
    renderDeck();
  });
  $("advise-run").addEventListener("click", runAdvice);
  $("advise-cancel").addEventListener("click", () => state.job && api("/api/jobs/" + state.job, undefined, "DELETE"));
  $("solve-run").addEventListener("click", runSolve);
  $("run-open").addEventListener("click", openRun);
  $("run-list").addEventListener("change", runPicked);
  $("runs-refresh").addEventListener("click", listRuns);
  $("run-filter").addEventListener("click", showRows);
  $("plot-draw").addEventListener("click", drawPlot);
  pickSeat(1);
  await rulesChanged();
  watchHealth();
  listRuns();
}

start().catch((err) => { $("status").textContent = err.message; });
