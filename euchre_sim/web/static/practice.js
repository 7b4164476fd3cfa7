// euchre-sim's Practice tab: a card table over /api/practice. A plain script loaded before
// app.js (whose $, el, api, cardLabel, fmtPoints and state it uses once the page has started;
// app.js calls setupPractice() after reading the rules). No build step, no libraries.
"use strict";

// the seats as the player sees them, named so that none reads as a suit
const SEAT_WORDS = { S: "You", W: "Left", N: "Partner", E: "Right" };
const SEAT_COMPASS = { S: "South", W: "West", N: "North", E: "East" };
const SUIT_WORDS = { french: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
                     yooker: { S: "stars", T: "triangles", Q: "squares", O: "circles" } };
const TRICK_PAUSE_MS = 1500;  // a trick the others finished stays on the felt this long (a click skips)
const PRACTICE_KINDS = { bid: "bids", discard: "discards", defend_alone: "defending alone",
                         lead: "leads", follow: "follows", cards: "cards and discards", total: "in all" };
const CARD_KINDS = ["discard", "lead", "follow"];  // what the yardsticks count
// the yardsticks as docs/web.md and docs/play-models.md give them (all four seats' cards and
// discards against double dummy, points a hand); the state's own figures replace the values
const YARDSTICKS = {
  people: { name: "people at championship tables", value: 0.60, half: 0.15, digits: 2 },
  pimc: { name: "PIMC (K = 50)", value: 0.611, half: 0.045, digits: 3 },
};
const TABLE_WORDS = {
  people: "a table of people: they bid as the human bidder (fitted to how people call) and play as the learned player",
  strong: "a strong table: they bid as the table bidder and play as learned-search",
  beginners: "a table of beginners: they bid as the rules bidder and play as the conventional player",
};

const fmtLost = (x) => (x === null || x === undefined ? "–" : x.toFixed(2));

// ---- words and cards --------------------------------------------------------------------

function suitWord(suit, deck) {
  if (suit === "NT" || suit === "N") return "no trump";
  return (SUIT_WORDS[deck.style] || {})[suit] || suit;
}

function suitSymbol(suit, deck) {
  const found = deck.suits.find((s) => s.suit === suit);
  return found ? found.symbol : "";
}

function cardText(name, deck) {
  // the one notation of a card on the page: J♣, 10♠ (the server's JC, TS)
  if (name === deck.joker) return "🃏";
  return deck.suits.some((s) => s.suit === name.slice(-1)) ? cardLabel(name, deck) : name;
}

function optionText(option, deck) {
  // a choice in words: a card (J♣), "order up spades alone", "call hearts", "pass",
  // "defend alone" / "defend with partner"
  if (option === null || option === undefined) return "–";
  if (typeof option === "object") {
    if (option.action === "pass") return "pass";
    const verb = option.action === "call" ? "call" : option.action === "order_up" ? "order up"
      : String(option.action).replaceAll("_", " ");
    return [verb, option.suit ? suitWord(option.suit, deck) : "", option.alone ? "alone" : ""]
      .filter(Boolean).join(" ");
  }
  if (option === "alone") return "defend alone";
  if (option === "partner") return "defend with partner";
  return cardText(String(option), deck);
}

function labelText(text, deck) {
  // a label the server wrote (`review`'s "order_up S alone", "JC", "too close to call: JC or
  // TS, …") in the page's words and card notation
  const cards = new Set(deck.suits.flatMap((s) => s.cards).concat(deck.joker ? [deck.joker] : []));
  return String(text)
    .replace(/\b(order_up|call) (NT|[A-Z])\b( alone)?/g,
             (_, action, suit, alone) => optionText({ action, suit, alone: Boolean(alone) }, deck))
    .replace(/\b[0-9A-Z]{2}\b/g, (word) => (cards.has(word) ? cardText(word, deck) : word));
}

function seatWord(seat) {
  return SEAT_WORDS[seat] || seat;
}

function kindWord(kind) {
  return { bid: "bid", discard: "discard", defend_alone: "defend alone?", card: "card",
           lead: "lead", follow: "follow" }[kind] || String(kind).replaceAll("_", " ");
}

function cardFace(name, deck, extra = {}) {
  // a card drawn face up (a span; a button where it is played from the hand)
  const red = deck.style === "french" && RED_SUITS.has(name.slice(-1));
  return el(extra.button ? "button" : "span",
            { class: `card face${red ? " red" : ""}${extra.class ? " " + extra.class : ""}`,
              "data-card": name, textContent: cardText(name, deck), title: cardText(name, deck),
              ...(extra.button ? { type: "button" } : {}) });
}

function cardWord(name, deck, won = false) {
  // a card in a line of text, in the same notation
  const red = deck.style === "french" && RED_SUITS.has(name.slice(-1));
  return el("span", { class: `card-text${red ? " red" : ""}${won ? " won" : ""}`, "data-card": name,
                      textContent: cardText(name, deck) });
}

const cardBack = () => el("span", { class: "card back", "aria-hidden": "true" });

// ---- the game ---------------------------------------------------------------------------

function practiceRules() {
  const rules = $("practice-preset").value;
  const set = $("practice-set").value.split(",").map((s) => s.trim()).filter(Boolean);
  return { rules, set };
}

async function startPractice() {
  $("practice-error").textContent = "";
  const { rules, set } = practiceRules();
  const body = { rules, set, seat: Number($("practice-seat").value),
                 seed: Number($("practice-seed").value), deal: Number($("practice-deal").value),
                 table: $("practice-table").value, game: $("practice-game").value === "game" };
  const query = new URLSearchParams({ rules });
  for (const setting of set) query.append("set", setting);
  if (state.practice && state.practice.busy) return;
  const previous = state.practice;
  if (previous) body.replaces = previous.id;  // a new deal ends the player's game on the table
  if (previous) previous.busy = true;
  try {
    const deck = await api("/api/deck?" + query);
    const target = targetOf(rules, set);
    const view = await practiceCall("/api/practice", body);
    openGame(view, deck, target);
  } catch (err) {
    $("practice-error").textContent = err.message;
    if (previous) { previous.busy = false; renderPractice(); }
  }
}

function targetOf(rules, set) {
  // the game's points: the preset's target, or the one the options set
  const named = set.map((s) => s.split("=")).find(([key]) => key.trim() === "target");
  return named ? Number(named[1]) : state.catalog.presets[rules].options.target;
}

function openGame(view, deck, target) {
  // a game's first state on the table (a new deal, or a retry of an earlier game)
  clearTimeout(state.practice && state.practice.timer);
  state.practice = { id: view.id, deck, target, view, previous: null, busy: false,
                     selected: null, queue: finishedMeanwhile(null, view), timer: null, line: null };
  $("practice-egn").href = `/api/practice/${view.id}/egn` +
    (TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "");
  renderPractice();
}

async function practiceCall(path, body) {
  // one request to the game; the table waits (no second act) until it is answered
  $("practice-turn").textContent = "the table is thinking…";
  if (state.practice) state.practice.busy = true;
  for (const button of document.querySelectorAll("#practice-choices .choice, #practice-hand .card, #practice-box .retry")) {
    button.disabled = true;
  }
  return api(path, body);
}

async function practiceStep(path, body) {
  const game = state.practice;
  if (!game || game.busy) return;  // one request at a time: a second click or Enter is dropped
  $("practice-error").textContent = "";
  try {
    const view = await practiceCall(path, body);
    if (state.practice !== game) return;  // another game was opened meanwhile
    game.previous = game.view;
    game.view = view;
    game.queue = finishedMeanwhile(game.previous, view);
  } catch (err) {
    $("practice-error").textContent = err.message;
  }
  game.busy = false;
  game.selected = null;
  renderPractice();
}

function practiceAct(action) {
  const game = state.practice;
  if (!game || game.busy) return;
  // the state's seq: the same act sent twice is answered with one state, taken once
  practiceStep(`/api/practice/${game.id}/act`, { action, seq: game.view.seq });
}

function nextHand() {
  const game = state.practice;
  if (game) practiceStep(`/api/practice/${game.id}/next`, { seq: game.view.seq });
}

// ---- the tricks -------------------------------------------------------------------------

function shownTrick(view) {
  // the trick on the felt: the one in play, or the last finished while the next has no card
  const tricks = view.tricks;
  if (!tricks.length) return -1;
  const last = tricks.length - 1;
  return tricks[last].plays.length || last === 0 ? last : last - 1;
}

function finishedMeanwhile(before, after) {
  // the tricks finished since the last state (the others' cards after yours), each shown on
  // the felt for a moment before the trick now in play
  // (a new hand: every trick finished before the player's first decision, as when it sits out)
  const done = (view) => view.tricks.filter((t) => t.winner).length;
  const from = before && before.deal === after.deal ? done(before) : 0;
  const shown = shownTrick(after);
  const queue = [];
  for (let i = from; i < done(after); i++) if (i !== shown) queue.push(i);
  return queue;
}

function renderFelt(view, deck, index) {
  // the trick `index` placed by seat (or the upcard while bidding), and who won it
  const felt = $("practice-felt");
  const slots = { N: el("div", { class: "slot slot-N" }), W: el("div", { class: "slot slot-W" }),
                  E: el("div", { class: "slot slot-E" }), S: el("div", { class: "slot slot-S" }) };
  const centre = el("div", { class: "slot slot-centre" });
  felt.removeAttribute("data-trick");
  felt.removeAttribute("data-winner");
  if (index >= 0) {
    const trick = view.tricks[index];
    for (const play of trick.plays) {
      const won = trick.winner === play.seat;
      slots[play.seat].replaceChildren(cardFace(play.card, deck, { class: won ? "won" : "" }));
      slots[play.seat].setAttribute("data-played", play.seat);
    }
    felt.setAttribute("data-trick", String(index + 1));
    centre.append(el("div", { class: "felt-label", textContent: `trick ${index + 1}` }));
    if (trick.winner) {
      felt.setAttribute("data-winner", trick.winner);
      centre.append(el("div", { class: "felt-winner", textContent: `won by ${seatWord(trick.winner)}` }));
    }
  } else if (view.upcard) {
    const turned = view.phase === "bid" && view.round === 2;
    centre.append(cardFace(view.upcard, deck, { class: turned ? "turned" : "" }),
                  el("div", { class: "felt-label", textContent: turned ? "turned down" : "upcard" }));
  }
  felt.replaceChildren(slots.N, slots.W, centre, slots.E, slots.S);
}

function showFelt() {
  // the tricks finished meanwhile, one after the other, then the trick now on the table
  const game = state.practice;
  clearTimeout(game.timer);
  if (game.queue.length) {
    renderFelt(game.view, game.deck, game.queue.shift());
    game.timer = setTimeout(showFelt, TRICK_PAUSE_MS);
  } else {
    renderFelt(game.view, game.deck, shownTrick(game.view));
  }
}

function trickList(view, deck) {
  // every trick of the hand, its cards by seat in the order played, and its winner
  return view.tricks.filter((t) => t.plays.length).map((trick, i) => el("li", { "data-trick": String(i + 1),
      "data-winner": trick.winner || "" },
    ...trick.plays.flatMap((p, k) => [k ? " · " : "", `${seatWord(p.seat)} `,
                                      cardWord(p.card, deck, trick.winner === p.seat)]),
    trick.winner ? el("strong", { textContent: ` — won by ${seatWord(trick.winner)}` }) : " (in play)"));
}

// ---- the table --------------------------------------------------------------------------

function playedBy(view, seat) {
  return view.tricks.reduce((n, t) => n + t.plays.filter((p) => p.seat === seat).length, 0);
}

function seatPanel(view, deck, seat) {
  const badges = [];
  if (view.dealer === seat) badges.push(el("span", { class: "chip dealer", textContent: "dealer", title: "dealer" }));
  if (view.maker === seat) {
    badges.push(el("span", { class: "chip maker", textContent: `made ${suitWord(view.trump, deck)}${view.alone ? " alone" : ""}` }));
  }
  if (view.defender_alone === seat) badges.push(el("span", { class: "chip", textContent: "defends alone" }));
  if (view.out.includes(seat)) badges.push(el("span", { class: "chip out", textContent: "sits out" }));
  if (view.turn === seat && view.phase !== "done") badges.push(el("span", { class: "chip turn", textContent: "to act" }));
  const name = el("div", { class: "seat-name" }, el("strong", { textContent: seatWord(seat) }),
                  el("span", { class: "compass", textContent: ` ${SEAT_COMPASS[seat]}` }), " ", ...badges);
  const said = view.bids.filter((b) => b.seat === seat).map((b) => bidWords(b, deck));
  // the dealer who took the upcard (ordered up in round 1): what it picked up and threw
  const took = view.dealer === seat && view.bids.some((b) => b.round === 1 && b.action !== "pass");
  if (took) {
    said.push(`picked up ${cardText(view.upcard, deck)}` +
              (view.discard && (seat === "S" || view.phase === "done") ? `, discarded ${cardText(view.discard, deck)}` : ""));
  }
  const lines = [name];
  if (said.length) lines.push(el("div", { class: "seat-bids", textContent: said.join(", ") }));
  if (seat !== "S") {
    let cards;
    if (view.hands) {
      cards = view.hands[seat].map((c) => cardFace(c, deck, { class: "small" }));
    } else if (view.out.includes(seat)) {
      cards = [];
    } else {
      const dealt = view.hand.length + playedBy(view, "S") - (view.phase === "discard" && view.dealer === "S" ? 1 : 0);
      cards = Array.from({ length: Math.max(0, dealt - playedBy(view, seat)) }, cardBack);
    }
    lines.push(el("div", { class: "seat-cards", "data-seat-cards": seat }, ...cards));
  }
  return lines;
}

function bidWords(bid, deck) {
  // a seat's bid as said at the table: "passed", "ordered up spades", "called hearts alone"
  if (bid.action === "pass") return "passed";
  const verb = bid.action === "call" ? "called" : bid.action === "order_up" ? "ordered up"
    : String(bid.action).replaceAll("_", " ");
  return `${verb} ${suitWord(bid.suit, deck)}${bid.alone ? " alone" : ""}`;
}

function scoreLine(view, target) {
  if (!view.score) return "";
  const over = view.game_over ? (view.score[0] > view.score[1] ? " · game over: you won" : " · game over: they won") : "";
  return `Score: you & partner ${view.score[0]}, them ${view.score[1]} (game to ${target})${over}`;
}

function factsLine(view, deck) {
  const parts = [`seed ${view.seed}, deal ${view.deal}`, `you are position ${view.position} from the dealer's left`];
  if (view.table) parts.push(`${view.table} table`);
  if (view.trump) {
    parts.push(`trump ${suitSymbol(view.trump, deck)} ${suitWord(view.trump, deck)}, made by ` +
               `${seatWord(view.maker).toLowerCase()}${view.alone ? " alone" : ""}`);
  }
  if (view.tricks.length) parts.push(`tricks: you & partner ${view.tricks_won.NS}, them ${view.tricks_won.EW}`);
  return parts.join(" · ");
}

function turnLine(view) {
  if (view.phase === "done") {
    const ours = view.points.NS - view.points.EW;
    return `Hand over: you & partner ${view.points.NS}, them ${view.points.EW}` +
      (ours > 0 ? " (your side scores)" : ours < 0 ? " (their side scores)" : "");
  }
  const turns = { bid: `Your bid (round ${view.round})`, discard: "Your discard: click the card to throw",
                  defend_alone: "Defend alone?", card: "Your card" };
  return turns[view.decision] || "";
}

function renderPractice() {
  const game = state.practice;
  const { view, deck } = game;
  $("practice-box").hidden = false;
  // the form shows the hand on the table (its position and deal replay it)
  $("practice-seat").value = String(view.position);
  $("practice-deal").value = String(view.deal);
  $("practice-facts").textContent = factsLine(view, deck);
  $("practice-score").textContent = scoreLine(view, game.target);
  $("practice-score").hidden = !view.score;
  for (const seat of ["N", "W", "E", "S"]) {
    $("practice-seat-" + seat).replaceChildren(...seatPanel(view, deck, seat));
    $("practice-seat-" + seat).classList.toggle("to-act", view.turn === seat && view.phase !== "done");
  }
  showFelt();
  $("practice-tricks").replaceChildren(...trickList(view, deck));
  $("practice-tricks-box").hidden = !view.tricks.some((t) => t.plays.length);
  $("practice-turn").textContent = turnLine(view);
  const cards = view.decision === "card" || view.decision === "discard";
  $("practice-hand").replaceChildren(...view.hand.map((c, i) => {
    const legal = cards && view.legal.includes(c);
    const button = cardFace(c, deck, { button: true, class: [legal ? "legal" : "", cards && !legal ? "illegal" : "",
                                                               game.selected === c ? "is-ref" : ""].filter(Boolean).join(" ") });
    button.disabled = !legal || game.busy;
    button.append(el("span", { class: "key", textContent: String(i + 1) }));
    button.addEventListener("click", () => practiceAct(c));
    return button;
  }));
  const choices = cards ? [] : view.legal.map((choice) => {
    const node = el("button", { type: "button", class: "choice legal", textContent: optionText(choice, deck),
                                "data-choice": JSON.stringify(choice), disabled: game.busy });
    node.addEventListener("click", () => practiceAct(choice));
    return node;
  });
  $("practice-choices").replaceChildren(...choices);
  $("practice-next").hidden = view.phase !== "done" || Boolean(view.game_over);
  $("practice-egn").hidden = !view.tally.hands;
  renderPracticeFeedback(view);
}

// ---- what each decision cost ------------------------------------------------------------

function practiceBest(feedback, key, people, deck) {
  // the best option (the one chosen when it shares the top); at the table of people only
  // where its margin separates it at 95 %, else too close to call with the margin
  const valued = feedback.options.filter((o) => o[key] !== null);
  if (!valued.length) return "–";
  const margin = feedback.margin;
  if (people && margin && !margin.separated) {
    return `too close to call: ${optionText(margin.option, deck)} leads ${optionText(margin.runner_up, deck)} by ` +
      `${fmtPoints(margin.lead)} ± ${(state.catalog.z95 * margin.lead_se).toFixed(3)}`;
  }
  const top = Math.max(...valued.map((o) => o[key]));
  const chosen = JSON.stringify(feedback.chosen);
  const tied = valued.filter((o) => o[key] === top);
  return optionText((tied.find((o) => JSON.stringify(o.option) === chosen) || tied[0]).option, deck);
}

function gameLine(game, deck) {
  // a bid valued at the score, as `advise --score` values it: the chance of winning the game
  // and the best for the game where the score changes the answer
  const half = (se) => fmtRate(state.catalog.z95 * se);
  const margin = game.game_margin;
  const best = game.best_for_game
    ? `best for the game: ${optionText(game.best_for_game, deck)}` +
      (game.game_differs ? " (the score changes the answer)" : "")
    : margin ? `best for the game too close to call: ${optionText(margin, deck)} leads ` +
      `${optionText(margin.runner_up, deck)} by ${fmtRate(margin.lead)} ± ${half(margin.lead_se)}`
    : "";
  return el("p", { class: "game-line", "data-game": game.game_differs ? "differs" : "same" },
    `At ${game.score[0]}–${game.score[1]}: your chance of winning the game ${fmtRate(game.p_win)}, `,
    el("strong", { textContent: fmtRate(game.p_win_lost) }), " of it lost", best ? `; ${best}` : "", ".");
}

function feedbackNode(feedback, deck) {
  // a decision's cost: a line in words, every option's value (at a score, a bid's chance of
  // winning the game), and the way to take it back
  const chosen = JSON.stringify(feedback.chosen);
  const trick = feedback.trick ? `trick ${feedback.trick}, ` : "";
  const line = el("p", { "data-feedback": feedback.kind },
    `${trick}${kindWord(feedback.kind)}: ${optionText(feedback.chosen, deck)} lost `,
    el("strong", { textContent: fmtLost(feedback.points_lost) }),
    ` at a table of people (best: ${practiceBest(feedback, "pimc", true, deck)}), `,
    el("strong", { textContent: fmtLost(feedback.dd_points_lost) }),
    ` double dummy (best: ${practiceBest(feedback, "dd", false, deck)})`);
  const chances = feedback.options.some((o) => o.p_win !== undefined && o.p_win !== null);
  const heads = [kindWord(feedback.kind) === "bid" ? "bid" : "option", `at a table of people (${sourceWords(feedback.source)})`,
                 "double dummy"].concat(chances ? ["P(win game)"] : []);
  const rows = feedback.options.map((o) => el("tr", { class: JSON.stringify(o.option) === chosen ? "chosen-row" : "" },
    el("td", { textContent: optionText(o.option, deck) }), el("td", { textContent: fmtLoss(o.pimc) }),
    el("td", { textContent: fmtLoss(o.dd) }),
    ...(chances ? [el("td", { textContent: o.p_win === null ? "–"
      : `${fmtRate(o.p_win)} ± ${fmtRate(state.catalog.z95 * o.p_win_se)}` })] : [])));
  const table = el("table", { class: "figures" },
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { textContent: h })))), el("tbody", {}, ...rows));
  const node = el("div", { class: "decision" }, line);
  if (feedback.game) node.append(gameLine(feedback.game, deck));
  node.append(table);
  if (feedback.hand !== undefined && feedback.decision !== undefined) {
    node.append(retryButton(feedback.hand, feedback.decision));
  }
  return node;
}

function sourceWords(source) {
  return { atlas: "the realistic atlas", simulation: "simulated", worlds: "over sampled worlds" }[source]
    || "not valued";
}

function lostCells(sides) {
  return [el("td", { textContent: sides.people.toFixed(2) }), el("td", { textContent: sides.dd.toFixed(2) })];
}

function withCards(lost) {
  // the kinds the yardsticks count (discards, leads and follows) added up: their row
  const cards = { people: 0, dd: 0 };
  for (const kind of CARD_KINDS) {
    cards.people += lost[kind] ? lost[kind].people : 0;
    cards.dd += lost[kind] ? lost[kind].dd : 0;
  }
  return { ...lost, cards };
}

function lostRows(lost) {
  const all = withCards(lost);
  return Object.entries(PRACTICE_KINDS).filter(([kind]) => all[kind]).map(([kind, name]) =>
    el("tr", { "data-kind": kind, class: kind === "cards" ? "yard-row" : "" }, el("td", { textContent: name }),
       ...lostCells(all[kind])));
}

function yardstickRows(sticks) {
  // the yardsticks under the row they compare with (cards and discards, double dummy), with
  // their ± as the docs give them: all four seats, and one seat's share (a quarter)
  const rows = [];
  for (const [key, stick] of Object.entries(YARDSTICKS)) {
    const given = sticks ? sticks[key] : undefined;
    const value = typeof given === "number" ? given : stick.value;
    rows.push(el("tr", { "data-yardstick": key }, el("td", { textContent: `${stick.name}, all four seats` }),
                 el("td"), el("td", { textContent: `${value.toFixed(stick.digits)} ± ${stick.half.toFixed(stick.digits)}` })));
    rows.push(el("tr", { "data-yardstick": key + "-seat" }, el("td", { textContent: "… one seat's share (a quarter)" }),
                 el("td"), el("td", { textContent: `${(value / 4).toFixed(stick.digits)} ± ${(stick.half / 4).toFixed(stick.digits)}` })));
  }
  return rows;
}

function renderPracticeFeedback(view) {
  const game = state.practice;
  const deck = game.deck;
  const now = $("practice-when").value === "each" || view.phase === "done";
  const shown = now && view.feedback && view.phase !== "done" ? [feedbackNode(view.feedback, deck)] : [];
  $("practice-feedback").replaceChildren(...(shown.length ? [el("h3", { textContent: "Your last decision" }), ...shown] : []));
  $("practice-summary").hidden = !view.summary;
  if (view.summary) {
    $("practice-summary-title").textContent = `This hand (deal ${view.summary.deal}): points lost`;
    $("practice-lost").tBodies[0].replaceChildren(...lostRows(view.summary.lost), ...yardstickRows(view.summary.yardsticks));
    $("practice-decisions").replaceChildren(...view.summary.decisions.map((f) => feedbackNode(f, deck)));
  }
  renderTally(view, deck);
  renderGameSummary(view);
  renderRetry();
  $("practice-results").hidden = ![...$("practice-results").children].some((c) => !c.hidden && c.childElementCount);
}

function renderTally(view, deck) {
  const tally = view.tally;
  $("practice-tally-box").hidden = !tally.hands;
  if (!tally.hands) return;
  $("practice-tally-title").textContent = `${view.game ? "This game" : "Session"}: ${tally.hands} ` +
    `hand${tally.hands > 1 ? "s" : ""}, ${tally.decisions} decisions — points lost a hand`;
  $("practice-tally").tBodies[0].replaceChildren(...lostRows(tally.per_hand),
    ...yardstickRows(view.summary ? view.summary.yardsticks : null));
  $("practice-worst").replaceChildren(...tally.worst.map((w) => {
    const item = el("li", {}, `deal ${w.deal}, ${kindWord(w.kind)}: ${labelText(w.chosen, deck)} (best: ` +
      `${w.best === null ? "–" : labelText(w.best, deck)}) lost ${fmtLost(w.points_lost)} at a table of people, ` +
      `${fmtLost(w.dd_points_lost)} double dummy — ${momentText(w.view, deck)}`);
    if (w.hand !== undefined && w.decision !== undefined) item.append(" ", retryButton(w.hand, w.decision));
    return item;
  }));
}

function momentText(view, deck) {
  // the table as the player saw it when it decided
  const trick = view.tricks.length ? view.tricks[view.tricks.length - 1].plays : [];
  const cards = (names) => names.map((c) => cardText(c, deck)).join(" ");
  return `you held ${cards(view.hand)}, upcard ${cardText(view.upcard, deck)}` +
    (view.trump ? `, trump ${suitWord(view.trump, deck)}` : "") +
    (trick.length ? `, on the table ${trick.map((p) => `${seatWord(p.seat)} ${cardText(p.card, deck)}`).join(", ")}` : "") +
    (view.bids.length ? `; bids: ${view.bids.map((b) => `${seatWord(b.seat)} ${bidWords(b, deck)}`).join(", ")}` : "");
}

// ---- whole games and trying again -------------------------------------------------------

function renderGameSummary(view) {
  // the game so far: each hand's points and the score after it; who won once it is over
  const box = $("practice-game-summary");
  const summary = view.game;
  box.hidden = !summary || !summary.hands.length;
  if (box.hidden) return;
  const [us, them] = summary.score;
  const title = summary.over ? `Game over: ${summary.winner === "you" ? "you won" : "they won"} ${us}–${them}`
    : `The game to ${summary.target}: you & partner ${us}, them ${them}`;
  const start = summary.start[0] || summary.start[1] ? ` (from ${summary.start[0]}–${summary.start[1]})` : "";
  box.replaceChildren(el("h3", { textContent: title + start, "data-over": String(summary.over) }),
    el("table", { class: "figures", id: "practice-game-hands" },
      el("thead", {}, el("tr", {}, ...["hand", "dealer", "points (you & partner – them)", "score"].map((h) =>
        el("th", { textContent: h })))),
      el("tbody", {}, ...summary.hands.map((h, i) => el("tr", { "data-hand": String(i) },
        el("td", { textContent: `${i + 1} (deal ${h.deal})` }), el("td", { textContent: seatWord(h.dealer) }),
        el("td", { textContent: `${h.points[0]}–${h.points[1]}` }),
        el("td", { textContent: `${h.score[0]}–${h.score[1]}` }))))));
}

function retryButton(hand, decision) {
  const button = el("button", { type: "button", class: "retry", textContent: "Try again from here",
                                "data-hand": String(hand), "data-decision": String(decision) });
  button.disabled = state.practice.busy;
  button.addEventListener("click", () => retryFrom(hand, decision));
  return button;
}

async function retryFrom(hand, decision) {
  // the same deal replayed to that decision as a new game (the others answering as before),
  // the first line's choice and outcome kept by the server to set beside the new one's
  const game = state.practice;
  if (!game || game.busy) return;
  $("practice-error").textContent = "";
  try {
    const view = await practiceCall(`/api/practice/${game.id}/retry`, { hand, decision });
    game.busy = false;
    openGame(view, game.deck, game.target);
    state.practice.origin = game;  // the first line, to go back to
  } catch (err) {
    game.busy = false;
    $("practice-error").textContent = err.message;
    renderPractice();
  }
}

function retryOutcome(view) {
  // the retried hand's outcome on this line, kept once it is over (the game may go on)
  const game = state.practice;
  if (!game.line && view.phase === "done" && view.summary && view.summary.decisions.length
      && view.summary.decisions[0].hand === 0) {
    game.line = { points: view.points, tricks_won: view.tricks_won,
                  feedback: view.summary.decisions[view.retry.decision] };
  }
  return game.line || null;
}

function renderRetry() {
  // both lines side by side: the choice, what it lost, the tricks and the hand's points
  const view = state.practice.view;
  const retry = view.retry;
  $("practice-retry").hidden = !retry;
  if (!retry) return;
  const deck = state.practice.deck;
  const line = retryOutcome(view);
  const lost = (row, key) => (row ? fmtLost(row[key]) : "–");
  const pair = (x) => (x ? `${x.NS}–${x.EW}` : "–");
  const rows = [
    ["your choice", optionText(retry.chosen, deck), line ? optionText(line.feedback.chosen, deck) : "(yours to make)"],
    ["lost at a table of people", lost(retry.feedback, "points_lost"), line ? lost(line.feedback, "points_lost") : "–"],
    ["lost double dummy", lost(retry.feedback, "dd_points_lost"), line ? lost(line.feedback, "dd_points_lost") : "–"],
    ["tricks (you & partner – them)", pair(retry.tricks_won), line ? pair(line.tricks_won) : "–"],
    ["the hand's points", pair(retry.points), line ? pair(line.points) : "–"],
  ];
  $("practice-retry").replaceChildren(
    el("h3", { textContent: `Tried again: deal ${retry.deal}, your decision ${retry.decision + 1} of that hand` }),
    el("table", { class: "figures", id: "practice-lines" },
      el("thead", {}, el("tr", {}, el("th"), el("th", { textContent: "first line" }), el("th", { textContent: "this line" }))),
      el("tbody", {}, ...rows.map(([name, first, now]) => el("tr", { "data-row": name },
        el("td", { textContent: name }), el("td", { "data-line": "first", textContent: first }),
        el("td", { "data-line": "this", textContent: now }))))),
    el("p", { class: "note", textContent: line ? "This line's game goes on from here."
      : "Choose again and play the hand out: the others answer as before until the play differs." }));
  if (state.practice.origin) {
    const back = el("button", { type: "button", id: "practice-back", textContent: "Back to the first line" });
    back.addEventListener("click", () => {
      clearTimeout(state.practice.timer);
      state.practice = state.practice.origin;
      state.practice.busy = false;
      renderPractice();
    });
    $("practice-retry").append(back);
  }
}

// ---- the keyboard -----------------------------------------------------------------------

function practiceKey(event) {
  // keys 1-9 pick a card of the hand by its place (the dealer's sixth too), Enter plays the
  // one picked or else the first legal one (the Practice tab open, no field in use)
  // (a button of the table's own keeps its Enter: try again, back; the Deal button left
  // focused does not: Enter then plays instead of dealing again)
  if ($("tab-practice").hidden || !state.practice
      || event.target.closest("input, select, textarea, a, summary, #practice-results button")) return;
  const game = state.practice;
  const { view } = game;
  if (view.decision !== "card" && view.decision !== "discard") return;
  if (/^[1-9]$/.test(event.key)) {
    const card = view.hand[Number(event.key) - 1];
    if (card && view.legal.includes(card)) {
      game.selected = card;
      for (const button of document.querySelectorAll("#practice-hand .card")) {
        button.classList.toggle("is-ref", button.dataset.card === card);
      }
    }
  } else if (event.key === "Enter") {
    event.preventDefault();
    if (event.repeat || game.busy) return;
    practiceAct(game.selected || view.hand.find((c) => view.legal.includes(c)));
  }
}

// ---- start ------------------------------------------------------------------------------

function describeTable() {
  $("practice-about").textContent = `You sit at the bottom; the other three seats are ${TABLE_WORDS[$("practice-table").value]}; ` +
    "whatever the table, each decision is valued at a table of people and double dummy. " +
    "Keys 1–6 pick a card of your hand by its place (6: the dealer's sixth card, to discard), Enter plays it " +
    "(with none picked, the first legal card).";
}

function setupPractice(presets) {
  $("practice-preset").replaceChildren(...presets.map((p) => el("option", { value: p, textContent: p,
    title: state.catalog.presets[p].description })));
  $("practice-start").addEventListener("click", startPractice);
  $("practice-next").addEventListener("click", nextHand);
  $("practice-when").addEventListener("change", () => { if (state.practice) renderPractice(); });
  $("practice-table").addEventListener("change", describeTable);
  $("practice-felt").addEventListener("click", () => { if (state.practice && state.practice.queue.length) showFelt(); });
  document.addEventListener("keydown", practiceKey);
  describeTable();
}
