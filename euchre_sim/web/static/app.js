// euchre-sim's page: a thin face over the JSON API (/api/...). No build step, no libraries.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { catalog: null, deck: null, hand: [], ref: null, seat: 1, jobs: {}, asked: null,
                review: null, entry: null, practice: null };
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
// P(win game) and its 95 % interval: ± its half-width, or where every deal's chance was alike
// (the rule of three's interval, not symmetric) its ends
// ± the half-width where both sides print alike, else (not symmetric near 0 or 1) the ends
const fmtChance = (a) => (fmtRate(Math.abs(a.p_win_ci95[1] - a.p_win)) === fmtRate(Math.abs(a.p_win - a.p_win_ci95[0]))
  ? `${fmtRate(a.p_win)} ± ${fmtRate(Math.abs(a.p_win_ci95[1] - a.p_win))}`
  : `${fmtRate(a.p_win)} (${fmtRate(a.p_win_ci95[0])}..${fmtRate(a.p_win_ci95[1])})`);

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

const OPENED = Date.now();
const secs = (x) => `${Math.round(x)} s`;

function warmingWords(health) {
  // what the warm-up prepares now and the wait, as /api/health's warm_up measures it (else the
  // seconds this page has waited): [the status line, the Practice tab's line or null]
  const warm = health.warm_up;
  const cache = "loading the compiled kernels from Numba's cache takes seconds; on a fresh install " +
    "they compile once, about 2 minutes on 2 cores";
  if (!warm) {
    const waited = secs((Date.now() - OPENED) / 1000);
    return [`warming up: loading the kernels, ${waited} so far`,
            `The server is preparing (${cache}): ${waited} so far. A Deal asked now is dealt as soon as it is ready.`];
  }
  const left = warm.seconds_left === null ? "" : `, about ${secs(warm.seconds_left)} left`;
  const compiled = warm.kernels ? `; ${warm.kernels}${warm.kernels_cold ? ` of ${warm.kernels_cold}` : ""} functions compiled` : "";
  const status = `warming up: ${warm.preparing || "starting"}, ${secs(warm.seconds)} so far${left}${compiled}`;
  if (warm.practice_ready) return [status, null];
  const practiceLeft = warm.practice_seconds_left === null ? ""
    : `, about ${secs(warm.practice_seconds_left)} left at this run's pace`;
  return [status, `The server is preparing what Practice needs: ${warm.preparing || "starting"} ` +
    `(${secs(warm.seconds)} so far${practiceLeft}; ${cache}). A Deal asked now is dealt as soon as it is ready.`];
}

async function watchHealth() {
  try {
    const health = await api("/api/health");
    // while the server warms up, what it prepares and the wait; then the warm-up's measured
    // length (a damaged install: the server answers what does not need the damaged file)
    const took = health.warm_up_seconds === null || health.warm_up_seconds === undefined ? ""
      : ` (warmed up in ${health.warm_up_seconds.toFixed(1)} s)`;
    const [warming, practice] = health.ready ? ["", null] : warmingWords(health);
    $("status").textContent = !health.ready ? warming
      : health.warm_up_error ? "ready, but " + health.warm_up_error : "ready" + took;
    $("status").className = "status " + (health.ready ? "ready" : "warming");
    $("practice-warming").hidden = !practice;
    $("practice-warming").textContent = practice || "";
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

function cardLabel(name, deck = state.deck) {
  if (name === deck.joker) return "🃏";
  const suit = deck.suits.find((s) => s.suit === name.slice(-1));
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
  $("models-note").textContent = `Bidding: ${bidder}. Play ${play}: ${model(play).description}.`;
}

function model(name) {
  // a play model's record, as the registry serves it in /api/rules
  return state.catalog.models.find((m) => m.name === name);
}

function playChanged() {
  // the worlds where the model samples any, and its deals when none are asked
  const chosen = model($("play").value);
  $("worlds-box").hidden = !chosen.samples_worlds;
  $("deals").value = chosen.deals;
  describeModels();
  updateEstimate();
}

function adviseBody(refine = false) {
  // the CLI's option names, as POST /api/advise reads them; the realistic atlas answers at
  // once where it covers the question, unless asked to refine by simulating the deals
  const round = document.querySelector("input[name=round]:checked").value;
  const body = { hand: state.hand.join(" "), seat: state.seat, rules: $("preset").value,
                 set: ruleSettings(), play: $("play").value, deals: Number($("deals").value),
                 seed: Number($("seed").value), atlas: !refine };
  body[round === "1" ? "up" : "turned_down"] = state.ref;
  if (model(body.play).samples_worlds) body.worlds = Number($("worlds").value);
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
      $("estimate").textContent = quote.source === "atlas"
        ? "Expected wait: none, answered from the realistic atlas (Refine then simulates the deals)."
        : quote.seconds === null
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
  const exact = result.bidding && !model(result.play).solved;  // the same deals solved double dummy
  if (result.bidding) columns.push("bidder");
  if (exact) columns.push("dd points");
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
    if (exact) {
      cells.push(el("td", { "data-key": "dd_mean_points",
                            textContent: a.action === "pass" ? "–" : fmtPoints(a.dd_mean_points) }));
    }
    if (result.score) {
      cells.push(el("td", { "data-key": "p_win",
                            textContent: fmtChance(a) }));
    }
    return el("tr", { "data-action": a.action, "data-suit": a.suit || "", "data-alone": String(a.alone) }, ...cells);
  });
  $("advise-results").tBodies[0].replaceChildren(...rows);
  const ref = result.up ? `upcard ${result.up}` : `turned down ${result.turned_down}`;
  const reached = !result.bidding ? ""
    : result.reached === null ? `, bidding ${result.bidding}`
    : `, reaching you on ${fmtRate(result.reached)} of deals (bidding ${result.bidding})`;
  const source = result.source === "atlas"
    ? ` (the realistic atlas: this hand's class, of ${result.atlas.deals.toLocaleString()} deals)` : "";
  const stopped = result.stopped === "separated"
    ? " (stopped early: the best action separated from the next)" : "";
  $("advise-title").textContent = `${result.hand}, seat ${result.seat}, ${ref}: ` +
    `${result.deals.toLocaleString()} deals${stopped}${source}${reached}, play ${result.play}`;
  $("advise-refine").hidden = result.source !== "atlas";
  $("advise-best").textContent = bestLine(result);
  $("advise-columns").textContent = exact
    ? `points: played out by ${result.play} from what each seat sees; dd points: the same deals ` +
      "with every hand seen and perfect play (a bound, not a table of people)."
    : "";
  $("euchre-text").textContent = state.deck.euchre_text;
  const after = result.after_pass || [];
  $("after-pass-box").hidden = after.length === 0;
  $("after-pass").tBodies[0].replaceChildren(...after.map((e) => el("tr", {},
    el("td", { textContent: e.action === "passed_out" ? "passed out (redeal)"
      : `round ${e.round}, seat ${e.seat}: ${actionLabel(e)}` }),
    el("td", { textContent: fmtRate(e.share) }),
    el("td", { textContent: fmtPoints(e.mean_points) }))));
  $("advise-output").hidden = false;
  nextDefaults(result);
}

function marginText(margin, percent) {
  // the top action's lead ± the wider side of its 95 % interval, and how its error was found
  const half = state.catalog.z95 * margin.lead_se;
  const amount = percent ? `+${fmtRate(margin.lead)} ± ${fmtRate(half)}`
    : `${fmtPoints(margin.lead)} ± ${half.toFixed(3)} points`;
  return amount + (margin.paired ? ", paired on the same deals"
    : ", the two errors added: the atlas keeps no paired one");
}

function bestText(margin, best, percent) {
  // the best action where its margin separates it at 95 %, else too close to call, with the margin
  if (!margin) return "the only action";
  if (best) return `${actionLabel(best)} (ahead of the runner-up by ${marginText(margin, percent)})`;
  return `too close to call (${actionLabel(margin)} leads ${actionLabel(margin.runner_up)} by ` +
    `${marginText(margin, percent)})`;
}

function bestLine(result) {
  let text = `Best: ${bestText(result.margin, result.best, false)}.`;
  if (result.score) {
    const also = result.best_for_game === null || result.best === null ? ""
      : result.game_differs ? " — not the best for points" : ", also the best for points";
    text += ` At ${result.score.us}-${result.score.them}, best for the game: ` +
      `${bestText(result.game_margin, result.best_for_game, true)}${also}.`;
  }
  return text;
}

async function runJob(prefix, kind, query, render) {
  // queue a job, follow its progress and render its result; `prefix` names the elements
  // PREFIX-run, -cancel, -progress and -error
  const error = $(prefix + "-error");
  error.textContent = "";
  let job;
  try {
    job = await api("/api/jobs", { kind, query });
  } catch (err) {
    error.textContent = err.message;
    return;
  }
  state.jobs[prefix] = job.id;
  const running = (on) => {
    $(prefix + "-run").disabled = on;
    if ($(prefix + "-cancel")) $(prefix + "-cancel").disabled = !on;
    $(prefix + "-progress").hidden = !on;
  };
  running(true);
  while (!["done", "failed", "cancelled"].includes(job.state)) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    job = await api("/api/jobs/" + job.id);
    $(prefix + "-progress").max = job.total;
    $(prefix + "-progress").value = job.done;
  }
  delete state.jobs[prefix];
  running(false);
  if (job.state === "done") render(job.result);
  if (job.state === "failed") error.textContent = job.error;
  if (job.state === "cancelled") error.textContent = "Cancelled.";
}

function cancelJob(prefix) {
  if (state.jobs[prefix]) api("/api/jobs/" + state.jobs[prefix], undefined, "DELETE");
}

async function runAdvice(refine = false) {
  await runJob("advise", "advise", adviseBody(refine), renderAdvice);
  updateEstimate();
}

// ---- then what do I play? ---------------------------------------------------------------

const normalCard = (name) => name.trim().toUpperCase().replace(/^10/, "T");

function nextDefaults(result) {
  // the bid's best call (the top call when passing is best or it is too close to call)
  state.asked = { hand: result.hand.split(/[\s,]+/).map(normalCard), up: result.up,
                  turned_down: result.turned_down, seat: result.seat };
  const calls = result.actions.filter((a) => a.action !== "pass");
  const best = result.best && result.best.action !== "pass" ? result.best : calls[0];
  const trumps = state.deck.suits.map((s) => s.suit).concat($("opt-no_trump").checked ? ["NT"] : []);
  $("next-trump").replaceChildren(...trumps.map((t) => el("option", { value: t, textContent: t })));
  if (best) {
    $("next-trump").value = best.suit;
    $("next-alone").checked = best.alone;
  }
  $("next-maker").value = String(result.seat);
  $("next-played").value = "";
  $("next-discard").value = "";
  $("next-output").hidden = true;
  nextChanged();
}

function dealerTakes() {
  // the dealer picked up the upcard: round 1, unless the dealer's partner went alone
  const maker = Number($("next-maker").value);
  return Boolean(state.asked.up) && !(maker === 2 && $("next-alone").checked);
}

function heldNow() {
  // the cards the seat holds now (null: the dealer's discard is still to be asked)
  let cards = state.asked.hand;
  if (dealerTakes() && state.asked.seat === 4) {
    const thrown = normalCard($("next-discard").value);
    if (!thrown) return null;
    cards = cards.concat(normalCard(state.asked.up)).filter((c) => c !== thrown);
  }
  const played = new Set($("next-played").value.split(/[\s,/]+/).filter(Boolean).map(normalCard));
  return cards.filter((c) => !played.has(c));
}

function nextChanged() {
  $("next-discard-box").hidden = !(dealerTakes() && state.asked.seat === 4);
  const held = heldNow();
  $("next-holding").textContent = held === null
    ? `You deal and take ${state.asked.up}: Ask advises your discard (or type the card you threw).`
    : `You hold ${held.join(" ") || "nothing"}; list the cards played so far in playing order, tricks split by “/”.`;
}

function nextBody() {
  // a play decision, as POST /api/advise reads it (the bid's cards, seat, rules and bidder)
  const asked = state.asked;
  const body = { seat: asked.seat, trump: $("next-trump").value, maker: Number($("next-maker").value),
                 alone: $("next-alone").checked, worlds: Number($("next-worlds").value),
                 seed: Number($("seed").value), rules: $("preset").value, set: ruleSettings() };
  body[asked.up ? "up" : "turned_down"] = asked.up || asked.turned_down;
  if ($("bidding").value) body.bidding = $("bidding").value;
  if ($("next-played").value.trim()) body.played = $("next-played").value.trim();
  const held = heldNow();
  if (held === null) body.discard_from = asked.hand.concat(normalCard(asked.up)).join(" ");
  else body.hand = held.join(" ");
  if (held !== null && dealerTakes() && asked.seat === 4) body.discard = normalCard($("next-discard").value);
  return body;
}

function renderNext(result) {
  const z = state.catalog.z95;
  $("next-results").tBodies[0].replaceChildren(...result.options.map((o) => el("tr", { "data-option": o.option },
    el("td", { textContent: o.option }),
    el("td", { "data-key": "pimc", textContent: fmtPoints(o.pimc) }),
    el("td", { "data-key": "ci95", textContent: `${fmtPoints(o.pimc - z * o.pimc_se)}..${fmtPoints(o.pimc + z * o.pimc_se)}` }),
    el("td", { "data-key": "best_share", textContent: fmtRate(o.best_share) }))));
  const what = result.kind === "discard" ? "Your discard" : `Your card to trick ${result.trick}`;
  $("next-title").textContent = `${what}, ${result.trump} trump, maker position ${result.maker}` +
    `${result.alone ? " alone" : ""}: ${result.worlds} worlds${result.bidding ? ", bidding " + result.bidding : ""}.`;
  const best = result.best;
  $("next-best").dataset.option = best ? best.option : "";
  const margin = result.margin;
  $("next-best").textContent = best === null
    ? `Best: too close to call (${margin.option} leads ${margin.runner_up} by ${fmtPoints(margin.lead)}` +
      ` ± ${(z * margin.lead_se).toFixed(3)} points, paired on the same worlds).`
    : `Best: ${best.option}` + (best.lead === null ? " (the only legal card)."
      : ` (ahead of the runner-up by ${fmtPoints(best.lead)} ± ${(z * best.lead_se).toFixed(3)} points, paired on the same worlds).`);
  $("next-output").hidden = false;
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
    `${run.play || state.catalog.default_play}${run.bidding ? ", bidding " + run.bidding : ""}; tables: ${overview.tables.join(", ")}`;
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

// ---- review -----------------------------------------------------------------------------

const SEATS = "NESW";
const LOST = 1e-9;  // a loss below this lost nothing

function optionLabel(option) {
  // a card, or a bid as "pass", "order_up S", "call H alone" (as `review` prints it)
  if (typeof option !== "object" || option === null) return String(option);
  return [option.action, option.suit || "", option.alone ? "alone" : ""].filter(Boolean).join(" ");
}

const fmtLoss = (x) => (x === null || x === undefined ? "–" : fmtPoints(x));

async function listHistories() {
  let listing;
  try {
    listing = await api("/api/histories");
  } catch (err) {
    $("review-error").textContent = err.message;
    return;
  }
  $("histories-root").textContent = listing.root;
  const pick = listing.files.length ? "pick a hand history" : "no .jsonl or .egn files found";
  $("history-list").replaceChildren(el("option", { value: "", textContent: pick }),
    ...listing.files.map((f) => el("option", { value: f, textContent: f })));
}

function runReview(source) {
  const query = { rules: $("review-preset").value, worlds: Number($("review-worlds").value),
                  seed: Number($("review-seed").value), ...source };
  return runJob("review", "review", query, renderReview);
}

function renderReview(result) {
  state.review = { result, at: 0 };
  const rejected = result.errors.length ? `; ${result.errors.length} hands rejected` : "";
  $("review-facts").textContent = `${result.hands.length} hands, ${result.rows.length} decisions, ` +
    `${result.worlds} worlds a decision, seed ${result.seed}${rejected}.`;
  $("review-errors").textContent = result.errors.map((e) => e.reason).join(" · ");
  const categories = ["bid", "discard", "defend_alone", "lead", "follow"];
  $("review-seats").tHead.replaceChildren(el("tr", {}, el("th", { textContent: "seat" }),
    el("th", { textContent: "decisions" }), el("th", { textContent: "lost nothing (dd)" }),
    ...categories.map((c) => el("th", { textContent: c }))));
  $("review-seats").tBodies[0].replaceChildren(...Object.entries(result.seats).map(([seat, t]) =>
    el("tr", { "data-seat": seat }, el("td", { textContent: seat }), el("td", { textContent: t.decisions }),
      el("td", { textContent: fmtRate(t.lost_nothing) }),
      ...categories.map((c) => el("td", { "data-key": c,
        textContent: `${t[c].dd_loss.toFixed(2)} / ${t[c].pimc_loss.toFixed(2)}` })))));
  $("review-box").hidden = false;
  showDecision(0);
}

function shownDecisions() {
  const rows = state.review.result.rows;
  return rows.map((_, i) => i).filter((i) => !$("review-costly").checked ||
    (rows[i].dd_loss || 0) > LOST || (rows[i].pimc_loss || 0) > LOST);
}

function stepDecision(delta) {
  // the next (or previous) decision shown; 0: the current one, or the first shown
  const list = shownDecisions();
  const at = state.review.at;
  const later = list.filter((i) => (delta > 0 ? i > at : i < at));
  let next = list.includes(at) ? at : list[0];
  if (delta !== 0 && later.length) next = delta > 0 ? later[0] : later[later.length - 1];
  if (next === undefined) {
    $("review-where").textContent = "no decision lost points";
    return;
  }
  showDecision(next);
}

function trumpOf(record) {
  const made = record.bids.find((b) => b.action !== "pass");
  if (!made) return null;
  return made.action === "call" ? made.suit : record.upcard.slice(-1);
}

function decisionCards(record, rows, index) {
  // what the seat held at the decision and what lay on the table
  const row = rows[index];
  const seat = SEATS.indexOf(row.seat);
  let held = record.hands[seat].slice();
  const tookUp = record.discard !== null && record.dealer === row.seat;
  if (row.kind === "discard") held.push(record.upcard);
  let table = [];
  if (row.kind === "card") {
    if (tookUp) held = held.concat(record.upcard).filter((c) => c !== record.discard);
    const plays = record.tricks.flatMap((t, n) => t.plays.map((p) => ({ ...p, trick: n })));
    const before = rows.slice(0, index).filter((r) => r.id === row.id && r.kind === "card").length;
    const gone = new Set(plays.slice(0, before).filter((p) => p.seat === row.seat).map((p) => p.card));
    held = held.filter((c) => !gone.has(c));
    table = plays.slice(0, before).filter((p) => p.trick === plays[before].trick);
  }
  const trump = row.kind === "card" || row.kind === "defend_alone" ? `, ${trumpOf(record)} trump` : "";
  return `${row.seat} holds ${held.join(" ")} · upcard ${record.upcard}, dealer ${record.dealer}${trump}` +
    (table.length ? ` · on the table: ${table.map((p) => `${p.seat} ${p.card}`).join(", ")}` : "");
}

function showDecision(index) {
  const { result } = state.review;
  const row = result.rows[index];
  state.review.at = index;
  const record = result.hands.find((h) => h.id === row.id);
  $("decision").dataset.index = index;
  $("review-where").textContent = `decision ${index + 1} of ${result.rows.length}`;
  $("decision-title").textContent = `Hand ${row.id} · ${row.kind === "card" ? row.category : row.kind}` +
    ` · seat ${row.seat}` + (row.trick ? ` · trick ${row.trick}` : "");
  $("decision-cards").textContent = decisionCards(record, result.rows, index);
  const se = row.pimc_loss_se === null ? "" : ` ± ${(state.catalog.z95 * row.pimc_loss_se).toFixed(3)}`;
  $("decision-chosen").replaceChildren("Chosen ", el("span", { "data-key": "chosen", textContent: optionLabel(row.chosen) }),
    ": points lost ", el("span", { "data-key": "dd_loss", textContent: fmtLoss(row.dd_loss) }),
    " with every card seen, ", el("span", { "data-key": "pimc_loss", textContent: fmtLoss(row.pimc_loss) }),
    `${se} from what the seat knew.`);
  const chosen = optionLabel(row.chosen);
  const z = state.catalog.z95;
  $("decision-options").tBodies[0].replaceChildren(...row.options.map((o) => {
    const label = optionLabel(o.option);
    const interval = o.pimc === null || o.pimc_se === null ? "–"
      : `${fmtPoints(o.pimc - z * o.pimc_se)}..${fmtPoints(o.pimc + z * o.pimc_se)}`;
    return el("tr", { "data-option": label, class: label === chosen ? "chosen-row" : "" },
      el("td", { textContent: label + (label === chosen ? " (chosen)" : "") }),
      el("td", { "data-key": "dd", textContent: fmtLoss(o.dd) }),
      el("td", { "data-key": "pimc", textContent: fmtLoss(o.pimc) }),
      el("td", { textContent: interval }),
      el("td", { textContent: fmtRate(o.best_share) }));
  }));
}

// ---- a hand entered card by card ------------------------------------------------------

function dealHands(text) {
  // "N:JH JD AH KS 9C/…" as hands by seat (the first named, then clockwise)
  const [first, rest] = text.includes(":") ? text.split(":", 2) : ["N", text];
  const start = SEATS.indexOf(first.trim().toUpperCase());
  const hands = {};
  rest.split("/").forEach((part, k) => { hands[SEATS[(Math.max(start, 0) + k) % 4]] = part.trim(); });
  return hands;
}

async function checkEntry(record) {
  // the record replayed on the server: what comes next, or the rule it breaks
  try {
    const next = await api("/api/entry", { record, rules: $("review-preset").value });
    $("entry-error").textContent = "";
    return next;
  } catch (err) {
    $("entry-error").textContent = err.message;
    return null;
  }
}

async function startEntry() {
  const record = { id: "entered", dealer: $("entry-dealer").value, hands: dealHands($("entry-deal").value),
                   upcard: normalCard($("entry-up").value), bids: [], discard: null, tricks: [] };
  const next = await checkEntry(record);
  if (next) {
    state.entry = { record, next, earlier: [] };
    renderEntry();
  }
}

async function entryStep(change) {
  const record = structuredClone(state.entry.record);
  change(record, state.entry.next);
  const next = await checkEntry(record);
  if (next) {
    state.entry.earlier.push([state.entry.record, state.entry.next]);
    Object.assign(state.entry, { record, next });
    renderEntry();
  }
}

function undoEntry() {
  [state.entry.record, state.entry.next] = state.entry.earlier.pop();
  $("entry-error").textContent = "";
  renderEntry();
}

function addPlay(card) {
  return (record, next) => {
    if (record.tricks.length < next.trick) record.tricks.push({ leader: next.leader, plays: [] });
    record.tricks[next.trick - 1].plays.push({ seat: next.seat, card });
  };
}

function entryChoices(next) {
  // buttons for what the seat to act may do; every card it holds is offered, so that an
  // illegal one is refused with the rule it breaks
  const button = (label, data, step) => {
    const node = el("button", { type: "button", class: "choice", textContent: label, ...data });
    node.addEventListener("click", () => entryStep(step));
    return node;
  };
  if (next.phase === "bid") {
    return next.choices.map((b) => button(optionLabel(b), { "data-bid": optionLabel(b) }, (record) => {
      const bid = { seat: b.seat, round: b.round, action: b.action };
      if (b.action === "call") bid.suit = b.suit;
      if (b.action !== "pass") bid.alone = b.alone;
      record.bids.push(bid);
    }));
  }
  if (next.phase === "discard") {
    return next.choices.map((c) => button(c, { "data-card": c }, (record) => { record.discard = c; }));
  }
  if (next.phase === "defend") {
    return next.choices.map((s) => button(s ? `${s} defends alone` : "both defend", { "data-defend": s || "" },
      (record) => { record.defend_alone = s; }));
  }
  return next.held.map((c) => button(c, { "data-card": c, class: "choice" + (next.choices.includes(c) ? " legal" : "") },
    addPlay(c)));
}

function renderEntry() {
  const { record, next } = state.entry;
  const plays = record.tricks.flatMap((t) => t.plays.map((p) => `${p.seat} ${p.card}`));
  $("entry-steps").textContent = [
    ...record.bids.map((b) => `${b.seat} ${optionLabel(b)}`),
    ...(record.discard ? [`${record.dealer} discards ${record.discard}`] : []), ...plays].join(" · ");
  const who = {
    bid: () => `${next.seat} to bid (round ${next.round}), holding ${next.held.join(" ")}:`,
    discard: () => `${next.seat} takes the upcard; which card goes?`,
    defend: () => "Does a defender play alone?",
    play: () => `Trick ${next.trick}: ${next.seat} to play (legal cards outlined):`,
    done: () => `Hand complete: NS ${next.points.NS}, EW ${next.points.EW}.`,
  };
  $("entry-turn").textContent = who[next.phase]();
  $("entry-choices").replaceChildren(...(next.phase === "done" ? [] : entryChoices(next)));
  $("entry-review").hidden = next.phase !== "done";
  $("entry-undo").disabled = !state.entry.earlier.length;
}

// ---- start ------------------------------------------------------------------------------

async function start() {
  state.catalog = await api("/api/rules");
  const presets = Object.keys(state.catalog.presets);
  for (const select of [$("preset"), $("solve-preset"), $("review-preset")]) {
    select.replaceChildren(...presets.map((p) => el("option", { value: p, textContent: p,
                                                                  title: state.catalog.presets[p].description })));
  }
  $("play").replaceChildren(...state.catalog.models.map((m) =>
    el("option", { value: m.name, textContent: m.name, title: m.description })));
  $("bidding").append(...Object.entries(state.catalog.bidding).filter(([name]) => name !== "table")
    .map(([name, text]) => el("option", { value: name, textContent: name, title: text })));
  // a table of people: bidders like people (passing is an action), card play at a good human's level
  $("bidding").value = state.catalog.people.bidding;
  $("play").value = state.catalog.people.play;
  $("score-box").hidden = false;
  renderOptions();
  $("preset").addEventListener("change", () => { renderOptions(); rulesChanged(); });
  $("play").addEventListener("change", playChanged);
  $("bidding").addEventListener("change", () => {
    $("score-box").hidden = !$("bidding").value;
    describeModels();
    updateEstimate();
  });
  playChanged();
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
  $("advise-run").addEventListener("click", () => runAdvice(false));
  $("advise-refine").addEventListener("click", () => runAdvice(true));
  $("advise-cancel").addEventListener("click", () => cancelJob("advise"));
  $("next-run").addEventListener("click", () => runJob("next", "advise", nextBody(), renderNext));
  for (const id of ["next-maker", "next-alone", "next-discard", "next-played"]) {
    $(id).addEventListener("input", nextChanged);
  }
  $("review-run").addEventListener("click", () => {
    if (!$("history-list").value) $("review-error").textContent = "Pick a hand history first.";
    else runReview({ file: $("history-list").value });
  });
  $("review-cancel").addEventListener("click", () => cancelJob("review"));
  $("histories-refresh").addEventListener("click", listHistories);
  $("review-prev").addEventListener("click", () => stepDecision(-1));
  $("review-next").addEventListener("click", () => stepDecision(1));
  $("review-costly").addEventListener("change", () => stepDecision(0));
  $("entry-start").addEventListener("click", startEntry);
  $("entry-undo").addEventListener("click", undoEntry);
  $("entry-review").addEventListener("click", () => runReview({ records: [state.entry.record] }));
  setupPractice(presets);  // practice.js
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
  listHistories();
}

start().catch((err) => { $("status").textContent = err.message; });
