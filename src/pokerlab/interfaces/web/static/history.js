// My hands: the list, PHH downloads, and a replayer stepping through one hand with what the bots logged.
import { api } from "./api.js";
import { chips, h, signed, typingIn, when } from "./dom.js";
import { felt } from "./felt.js";
import { roundName } from "./table.js";

const BOARD_SIZE = { preflop: 0, flop: 3, turn: 4, river: 5 };

function phhLink(href, text, filename) {
  return h("a", { href, download: filename, class: "download" }, text);
}

export async function showHistory(root) {
  const hands = await api("GET", "/api/hands");
  root.append(
    h("h2", {}, "My hands"),
    h("p", {}, phhLink("/api/hands/phh", "Download all my hands as PHH", "my-hands.phhs"),
      " (PokerKit's hand-history format; one .phhs file)."),
  );
  if (!hands.length) {
    root.append(h("p", {}, "No finished hands yet. ", h("a", { href: "#/lobby" }, "Sit down at a table"), "."));
    return;
  }
  root.append(
    h(
      "table",
      { class: "hands", "data-testid": "hands" },
      h("caption", {}, `${hands.length} hands, newest first`),
      h("thead", {}, h("tr", {}, ["Hand", "Table", "Level", "Ended", "Net", "PHH"].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        hands.map((hand) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, h("a", { href: `#/hands/${hand.id}`, "data-testid": `replay-${hand.id}` }, `Hand ${hand.id}`)),
            h("td", {}, `${hand.table}`),
            h("td", {}, hand.level),
            h("td", {}, when(hand.ended)),
            h("td", { class: `num ${hand.net >= 0 ? "up" : "down"}` }, signed(hand.net)),
            h("td", {}, phhLink(`/api/hands/${hand.id}/phh`, "PHH", `hand-${hand.id}.phh`)),
          ),
        ),
      ),
    ),
  );
}

/** A bot's logged thoughts (any JSON) as nested definition lists, numbers to three decimals. */
function thoughts(info) {
  if (info === null || info === undefined) return h("span", {}, "—");
  if (typeof info === "number") return h("span", {}, Number.isInteger(info) ? String(info) : info.toFixed(3));
  if (Array.isArray(info)) {
    return info.every((v) => typeof v !== "object" || v === null)
      ? h("span", {}, info.map((v) => (typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : String(v))).join(", "))
      : h("ol", {}, info.map((v) => h("li", {}, thoughts(v))));
  }
  if (typeof info === "object") {
    return h("dl", { class: "info" }, Object.entries(info).map(([key, value]) => [h("dt", {}, key.replaceAll("_", " ")), h("dd", {}, thoughts(value))]));
  }
  return h("span", {}, String(info));
}

/** The picture of a replay after its first `k` steps (k = steps.length: the end, with the showdown). */
export function replayPicture(replay, k, viewerSeat) {
  const steps = replay.steps.slice(0, k);
  const end = k >= replay.steps.length;
  const round = end ? "river" : steps.length ? roundName(steps[steps.length - 1].round) : "preflop";
  const folded = new Set();
  const bets = {};
  const acted = {};
  let current = "preflop";
  for (const step of steps) {
    if (roundName(step.round) !== current) {
      current = roundName(step.round);
      for (const key of Object.keys(bets)) delete bets[key];
      for (const key of Object.keys(acted)) if (!folded.has(Number(key))) delete acted[key];
    }
    const amount = Number(step.amount || 0);
    bets[step.seat] = (bets[step.seat] || 0) + amount;
    acted[step.seat] = amount ? `${step.action} ${chips(amount)}` : step.action;
    if (step.action === "fold") folded.add(Number(step.seat));
  }
  const boardSize = end ? replay.board.length : BOARD_SIZE[round] ?? 0;
  const shown = replay.shown || {};
  const holes = replay.holes || {};
  return {
    seats: replay.seats.map((s) => {
      const key = String(s.seat);
      const own = Number(s.seat) === viewerSeat;
      let cards = null;
      if ((end && shown[key]) || (own && holes[key])) cards = shown[key] || holes[key];
      else if (!folded.has(Number(s.seat))) cards = [null, null];
      return {
        ...s,
        cards,
        folded: folded.has(Number(s.seat)),
        bet: end ? 0 : bets[key] || 0,
        action: acted[key] || null,
        handName: end && replay.hand_names ? replay.hand_names[key] || null : null,
        winner: end && replay.nets ? replay.nets[key] > 0 : false,
        net: end && replay.nets && key in replay.nets ? replay.nets[key] : null,
      };
    }),
    you: viewerSeat,
    button: replay.button,
    board: replay.board.slice(0, boardSize),
    pot: steps.length ? steps[steps.length - 1].pot : 0,
    turn: end ? null : Number(replay.steps[k].seat),
    deadline: null,
  };
}

export async function showReplay(root, session, id) {
  const replay = await api("GET", `/api/hands/${encodeURIComponent(id)}`);
  const mine = replay.seats.find((s) => s.name === session.me.name);
  const viewer = mine ? Number(mine.seat) : null;
  const name = (seat) => (replay.seats.find((s) => Number(s.seat) === Number(seat)) || { name: `Seat ${Number(seat) + 1}` }).name;
  let k = 0;
  const area = h("div", { class: "felt-area" });
  const position = h("p", { class: "position", "aria-live": "polite", "data-testid": "replay-position" });
  const notes = h("section", { class: "notes", "aria-label": "What the bot thought", "data-testid": "replay-info" });
  const list = h(
    "ol",
    { class: "steps" },
    replay.steps.map((step, i) =>
      h("li", {}, h("button", { type: "button", class: "linklike", onclick: () => go(i + 1) },
        `${step.round}: ${name(step.seat)} ${step.action}${step.amount ? ` ${chips(step.amount)}` : ""}`)),
    ),
  );
  const controls = {
    start: h("button", { type: "button", onclick: () => go(0), "aria-keyshortcuts": "Home" }, "« Start"),
    back: h("button", { type: "button", onclick: () => go(k - 1), "aria-keyshortcuts": "ArrowLeft", "data-testid": "replay-back" }, "◀ Back"),
    forward: h("button", { type: "button", onclick: () => go(k + 1), "aria-keyshortcuts": "ArrowRight", "data-testid": "replay-forward" }, "Forward ▶"),
    end: h("button", { type: "button", onclick: () => go(replay.steps.length), "aria-keyshortcuts": "End" }, "End »"),
  };

  function go(to) {
    k = Math.max(0, Math.min(replay.steps.length, to));
    area.replaceChildren(felt(replayPicture(replay, k, viewer)));
    controls.start.disabled = controls.back.disabled = k === 0;
    controls.forward.disabled = controls.end.disabled = k === replay.steps.length;
    list.querySelectorAll("li").forEach((li, i) => {
      if (i === k - 1) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    });
    position.dataset.step = k;
    if (k === 0) {
      position.textContent = `Start: the cards are dealt (${replay.steps.length} actions follow).`;
      notes.replaceChildren();
      return;
    }
    const step = replay.steps[k - 1];
    position.textContent = `Action ${k} of ${replay.steps.length} (${step.round}): ${name(step.seat)} ${step.action}`
      + `${step.amount ? ` ${chips(step.amount)}` : ""}; pot ${chips(step.pot)}.`
      + (k === replay.steps.length ? " The hand is over." : "");
    const seat = replay.seats.find((s) => Number(s.seat) === Number(step.seat));
    notes.replaceChildren(
      h("h3", {}, `What ${name(step.seat)} thought`),
      step.info
        ? thoughts(step.info)
        : h("p", {}, seat && seat.kind === "bot" ? "This bot logged nothing for this decision." : "A person's decision: nothing logged."),
    );
  }

  function onKey(event) {
    if (typingIn(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: replay.steps.length }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      go(to);
    }
  }

  const net = viewer !== null && replay.nets ? replay.nets[String(viewer)] : null;
  root.append(
    h("h2", {}, `Hand ${replay.id}`),
    h("p", {}, `Limit ${replay.level}.`, net !== null && net !== undefined ? ` Your net: ${signed(net)}.` : "", " ",
      phhLink(`/api/hands/${encodeURIComponent(replay.id)}/phh`, "Download this hand as PHH", `hand-${replay.id}.phh`),
      " · ", h("a", { href: "#/history" }, "Back to my hands")),
    h("div", { class: "table-layout" },
      area,
      h("div", { class: "side" },
        h("section", { class: "replay-controls", "aria-label": "Step through the hand" },
          position,
          h("div", { class: "buttons" }, controls.start, controls.back, controls.forward, controls.end),
          h("p", { class: "keys" }, "Keys: ", h("kbd", {}, "←"), " back, ", h("kbd", {}, "→"), " forward, ",
            h("kbd", {}, "Home"), " start, ", h("kbd", {}, "End"), " end.")),
        notes,
        h("section", { "aria-label": "All actions" }, h("h3", {}, "Actions"), list))),
  );
  document.addEventListener("keydown", onKey);
  go(0);
  return () => document.removeEventListener("keydown", onKey);
}
