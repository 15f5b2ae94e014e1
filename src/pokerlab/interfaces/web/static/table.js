// The live table: one WebSocket (docs/web-protocol.md), the picture drawn by felt.js, the action buttons
// and keys, a log of every action, the showdown, the bankroll after each hand, and reconnection.
import { api, tableSocketUrl } from "./api.js";
import { chips, h, signed, typingIn } from "./dom.js";
import { felt, tick } from "./felt.js";

const BOARD_SIZE = { preflop: 0, flop: 3, turn: 4, river: 5 };
const PAST = { fold: "folds", check: "checks", call: "calls", bet: "bets", raise: "raises" };
const LOG_LINES = 200;

/** A round's name as this page keeps it: "pre-flop" (the engine's spelling) and "preflop" are one. */
export function roundName(round) {
  return round === "pre-flop" ? "preflop" : round;
}

/** The round a board of `n` cards belongs to. */
function roundOf(boardSize) {
  return boardSize >= 5 ? "river" : boardSize === 4 ? "turn" : boardSize >= 3 ? "flop" : "preflop";
}

/** The state of one table as the frames tell it; `apply(frame)` moves it on, `picture()` draws it. */
export class TableState {
  constructor() {
    this.info = null; // {table, level, small_bet, big_bet, you}
    this.seats = new Map(); // seat -> {seat, name, kind, stack, connected}
    this.hand = null;
  }

  name(seat) {
    const s = this.seats.get(Number(seat));
    return s && s.kind !== "empty" ? s.name : `Seat ${Number(seat) + 1}`;
  }

  /** Whether the table stands still: it pauses without people, and none sits here. */
  get paused() {
    return Boolean(this.info && this.info.pauses && ![...this.seats.values()].some((s) => s.kind === "human"));
  }

  get you() {
    return this.info ? this.info.you : null;
  }

  /** The bet (and raise) size of the round now being played. */
  betUnit() {
    const round = this.hand ? this.hand.round : "preflop";
    return round === "turn" || round === "river" ? this.info.big_bet : this.info.small_bet;
  }

  /** What the fold / call / raise buttons say now: {fold, call, raise}. */
  labels(toCall) {
    const unit = this.betUnit();
    const top = this.hand ? Math.max(0, ...Object.values(this.hand.bets)) : 0;
    return {
      fold: "Fold",
      call: toCall > 0 ? `Call ${chips(toCall)}` : "Check",
      raise: top > 0 ? `Raise to ${chips(top + unit)}` : `Bet ${chips(unit)}`,
    };
  }

  startHand(start, fromSnapshot) {
    this.hand = {
      id: start.hand,
      button: start.button,
      seatsIn: new Set((start.seats_in || []).map(Number)),
      hole: start.hole || null,
      board: [],
      round: "preflop",
      pot: 0,
      bets: {},
      acted: {},
      folded: new Set(),
      turn: null,
      shown: {},
      handNames: {},
      winners: [],
      nets: null,
      over: false,
    };
    for (const [seat, amount] of Object.entries(start.blinds || {})) {
      this.hand.bets[seat] = amount;
      this.hand.acted[seat] = amount === Math.max(...Object.values(start.blinds)) ? `big blind ${amount}` : `small blind ${amount}`;
      this.hand.pot += amount;
      const s = this.seats.get(Number(seat));
      if (s && !fromSnapshot && typeof s.stack === "number") s.stack -= amount;
    }
  }

  /** Applies one server frame; returns the log lines it makes. */
  apply(frame) {
    const lines = [];
    switch (frame.type) {
      case "table": {
        this.info = {
          table: frame.table, level: frame.level, small_bet: frame.small_bet, big_bet: frame.big_bet, you: frame.you, pauses: frame.pauses,
        };
        this.seats = new Map(frame.seats.map((s) => [Number(s.seat), { ...s, seat: Number(s.seat) }]));
        this.hand = null;
        if (frame.hand) {
          this.startHand(frame.hand, true);
          const board = frame.hand.board || [];
          for (const action of frame.hand.actions || []) {
            const round = roundName(action.round);
            if (round in BOARD_SIZE && round !== this.hand.round) this.newRound(round, board.slice(0, BOARD_SIZE[round]));
            this.act(action, true);
          }
          if (roundOf(board.length) !== this.hand.round) this.newRound(roundOf(board.length), board);
          this.hand.board = [...board];
          if (frame.hand.turn) this.apply({ type: "turn", ...frame.hand.turn });
          lines.push(`Hand ${frame.hand.hand} is in progress.`);
          if (frame.hand.hole) lines.push(`Your cards: ${frame.hand.hole.join(" ")}.`);
        }
        break;
      }
      case "hand_start":
        this.startHand(frame, false);
        lines.push(`Hand ${frame.hand} begins; ${this.name(frame.button)} has the button.`);
        for (const [seat, amount] of Object.entries(frame.blinds || {})) lines.push(`${this.name(seat)} posts ${chips(amount)}.`);
        if (frame.hole) lines.push(`Your cards: ${frame.hole.join(" ")}.`);
        break;
      case "turn":
        if (!this.hand) break;
        this.hand.turn = { seat: Number(frame.seat), deadline: frame.deadline, toCall: frame.to_call, legal: frame.legal || null };
        break;
      case "action":
        if (!this.hand) break;
        lines.push(this.act(frame, false));
        break;
      case "board":
        if (!this.hand) break;
        this.newRound(frame.round, frame.cards);
        lines.push(`${frame.round[0].toUpperCase()}${frame.round.slice(1)}: ${frame.cards.join(" ")}.`);
        break;
      case "hand_end":
        lines.push(...this.end(frame));
        break;
      case "error":
        lines.push(`The server says: ${frame.message}`);
        break;
      default:
        break;
    }
    return lines;
  }

  newRound(round, board) {
    this.hand.round = roundName(round) in BOARD_SIZE ? roundName(round) : roundOf(board.length);
    this.hand.board = [...board];
    this.hand.bets = {};
    for (const seat of Object.keys(this.hand.acted)) if (!this.hand.folded.has(Number(seat))) delete this.hand.acted[seat];
  }

  act(frame, fromSnapshot) {
    const seat = Number(frame.seat);
    const amount = Number(frame.amount || 0);
    const hand = this.hand;
    if (frame.action === "fold") hand.folded.add(seat);
    hand.bets[seat] = (hand.bets[seat] || 0) + amount;
    if (typeof frame.pot === "number") hand.pot = frame.pot;
    else hand.pot += amount;
    const s = this.seats.get(seat);
    // a snapshot's seats already carry the stacks of now; a live action brings the actor's new stack
    if (s && !fromSnapshot) s.stack = typeof frame.stack === "number" ? frame.stack : s.stack - amount;
    const shown = frame.action === "fold" || frame.action === "check" ? frame.action : `${frame.action} ${chips(amount)}`;
    hand.acted[seat] = shown;
    if (hand.turn && hand.turn.seat === seat) hand.turn = null;
    const verb = PAST[frame.action] || frame.action;
    return frame.action === "fold" || frame.action === "check"
      ? `${this.name(seat)} ${verb}.`
      : `${this.name(seat)} ${verb} ${chips(amount)}.`;
  }

  end(frame) {
    const hand = this.hand || { seatsIn: new Set(), bets: {}, acted: {}, folded: new Set(), board: [] };
    this.hand = hand;
    hand.over = true;
    hand.turn = null;
    hand.shown = frame.shown || {};
    hand.handNames = frame.hand_names || {};
    hand.winners = (frame.winners || []).map(Number);
    hand.nets = frame.nets || {};
    hand.bets = {};
    for (const [seat, stack] of Object.entries(frame.stacks || {})) {
      const s = this.seats.get(Number(seat));
      if (s) s.stack = stack;
    }
    const lines = [];
    for (const [seat, codes] of Object.entries(hand.shown)) {
      const name = hand.handNames[seat];
      lines.push(`${this.name(seat)} shows ${codes.join(" ")}${name ? ` (${name})` : ""}.`);
    }
    for (const seat of hand.winners) {
      const net = hand.nets[seat];
      const name = hand.handNames[seat];
      lines.push(`${this.name(seat)} wins${net !== undefined ? ` (${signed(net)})` : ""}${name ? ` with ${name}` : ""}.`);
    }
    lines.push(`Hand ${frame.hand} is over.`);
    return lines;
  }

  /** The picture felt.js draws. */
  picture() {
    const hand = this.hand;
    const seats = [...this.seats.values()].map((s) => {
      const seat = s.seat;
      const key = String(seat);
      const playing = hand && hand.seatsIn.has(seat);
      let cards = null;
      if (playing) {
        if (hand.shown[key]) cards = hand.shown[key];
        else if (seat === this.you && hand.hole) cards = hand.hole;
        else if (!hand.folded.has(seat)) cards = [null, null];
      }
      return {
        ...s,
        cards,
        folded: playing && hand.folded.has(seat),
        bet: playing ? hand.bets[key] || 0 : 0,
        action: playing ? hand.acted[key] || null : null,
        handName: hand && hand.over ? hand.handNames[key] || null : null,
        winner: hand && hand.over && hand.winners.includes(seat),
        net: hand && hand.over && hand.nets && key in hand.nets ? hand.nets[key] : null,
      };
    });
    return {
      seats,
      you: this.you,
      button: hand ? hand.button : null,
      board: hand ? hand.board : [],
      pot: hand ? hand.pot : 0, // after the hand: the pot just won, not 0
      potWon: Boolean(hand && hand.over),
      turn: hand && hand.turn ? hand.turn.seat : null,
      deadline: hand && hand.turn ? hand.turn.deadline : null,
    };
  }
}

export function showTable(root, session, tableId) {
  const state = new TableState();
  const status = h("p", { class: "connection", role: "status", "data-testid": "connection" }, "Connecting…");
  const heading = h("h2", {}, `Table ${tableId}`);
  const area = h("div", { class: "felt-area" });
  const log = h("ul", { class: "log", "data-testid": "log", "aria-live": "polite" });
  const result = h("p", { class: "hand-result", role: "status", "aria-live": "polite", "data-testid": "hand-result" });
  const prompt = h("p", { class: "prompt", "aria-live": "assertive", "data-testid": "prompt" });
  const buttons = {};
  for (const [action, key] of [["fold", "f"], ["call", "c"], ["raise", "r"]]) {
    buttons[action] = h("button", {
      type: "button",
      class: `act act-${action}`,
      disabled: true,
      "aria-keyshortcuts": key,
      "data-testid": `act-${action}`,
      onclick: () => send(action),
    }, action);
  }
  const leave = h("button", { type: "button", class: "leave", onclick: leaveTable }, "Leave the table");
  const controls = h(
    "section",
    { class: "controls", "aria-label": "Your actions" },
    prompt,
    h("div", { class: "buttons" }, buttons.fold, buttons.call, buttons.raise),
    h("p", { class: "keys" }, "Keys: ", h("kbd", {}, "f"), " fold, ", h("kbd", {}, "c"), " check or call, ", h("kbd", {}, "r"), " bet or raise."),
    leave,
  );
  root.append(
    heading,
    status,
    h("div", { class: "table-layout" },
      area,
      h("div", { class: "side" },
        controls,
        result,
        h("section", { class: "log-box", "aria-label": "What happened" }, h("h3", {}, "Log"), log))),
  );

  let socket = null;
  let closing = false;
  let retry = 0;
  let retryTimer = null;
  let pingTimer = null;

  function logLines(lines) {
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    for (const line of lines) log.append(h("li", {}, line));
    while (log.children.length > LOG_LINES) log.firstElementChild.remove();
    if (atEnd) log.scrollTop = log.scrollHeight; // follow the play unless the reader scrolled back
  }

  function draw() {
    area.replaceChildren(felt(state.picture()));
    if (state.info) {
      heading.textContent = `Table ${state.info.table}: limit ${state.info.level}`;
      leave.hidden = state.you === null || state.you === undefined;
    }
    const turn = state.hand && state.hand.turn;
    const mine = turn && turn.seat === state.you && Array.isArray(turn.legal);
    const labels = state.info ? state.labels(turn ? turn.toCall : 0) : { fold: "Fold", call: "Check or call", raise: "Bet or raise" };
    for (const [action, button] of Object.entries(buttons)) {
      button.textContent = labels[action];
      button.disabled = !(mine && turn.legal.includes(action));
    }
    controls.dataset.deadline = mine ? turn.deadline : ""; // tells one turn of mine from the next
    if (mine) prompt.textContent = "Your turn.";
    else if (turn) prompt.textContent = `${state.name(turn.seat)} to act.`;
    else if (state.paused) prompt.textContent = "Nobody sits here, so the table pauses: play resumes when a person sits down.";
    else if (state.you === null || state.you === undefined) prompt.textContent = "You are watching this table.";
    else prompt.textContent = "";
  }

  function send(action) {
    const turn = state.hand && state.hand.turn;
    if (!socket || socket.readyState !== WebSocket.OPEN || !turn || !turn.legal || !turn.legal.includes(action)) return;
    socket.send(JSON.stringify({ type: "act", action }));
    for (const button of Object.values(buttons)) button.disabled = true;
  }

  async function afterHand(frame) {
    const you = state.you;
    if (you === null || you === undefined || !frame.nets || !(String(you) in frame.nets)) return;
    const net = frame.nets[String(you)];
    const me = await session.refresh().catch(() => null);
    result.textContent = `Hand ${frame.hand}: ${net > 0 ? "you won" : net < 0 ? "you lost" : "you broke even"}`
      + `${net ? ` ${chips(Math.abs(net))}` : ""}.${me ? ` Bankroll: ${chips(me.bankroll)}.` : ""}`;
    result.dataset.net = net;
    result.dataset.hand = frame.hand;
    if (me) result.dataset.bankroll = me.bankroll;
  }

  function connect() {
    socket = new WebSocket(tableSocketUrl(tableId));
    socket.addEventListener("open", () => {
      retry = 0;
      status.textContent = "Connected.";
      status.dataset.state = "open";
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === "pong") return;
      logLines(state.apply(frame));
      if (frame.type === "error") session.notice(`The server says: ${frame.message}`, "error");
      if (frame.type === "hand_end") afterHand(frame);
      if (frame.type === "hand_start") result.textContent = "";
      draw();
    });
    socket.addEventListener("close", async (event) => {
      socket = null;
      if (closing) return;
      if (state.hand) state.hand.turn = null; // no acting on a closed socket
      draw();
      if (event.code === 1008 || event.code >= 4000) {
        status.textContent = `The server closed the table: ${event.reason || `code ${event.code}`}.`;
        status.dataset.state = "refused";
        return;
      }
      // the server refuses the handshake of a socket without a session: after a log-out, log in again
      const me = await session.refresh().catch(() => undefined);
      if (closing) return;
      if (me === null) {
        status.textContent = "You are logged out.";
        status.dataset.state = "refused";
        location.hash = "#/login";
        return;
      }
      const wait = Math.min(8, 2 ** retry);
      retry += 1;
      status.textContent = `Connection lost; reconnecting in ${wait} s…`;
      status.dataset.state = "lost";
      retryTimer = setTimeout(connect, wait * 1000);
    });
  }

  async function leaveTable() {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(tableId)}/leave`);
      session.notice("You leave the table after this hand.");
      location.hash = "#/lobby";
      session.settle(); // the header's bankroll follows once the hand you left is booked
    } catch (err) {
      session.notice(err.message, "error");
    }
  }

  function onKey(event) {
    if (typingIn(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    const action = { f: "fold", c: "call", r: "raise" }[event.key.toLowerCase()];
    if (action && !buttons[action].disabled) {
      event.preventDefault();
      send(action);
    }
  }

  document.addEventListener("keydown", onKey);
  const clock = setInterval(() => tick(area), 250);
  pingTimer = setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, 20000);
  draw();
  connect();

  return () => {
    closing = true;
    document.removeEventListener("keydown", onKey);
    clearInterval(clock);
    clearInterval(pingTimer);
    clearTimeout(retryTimer);
    if (socket) socket.close(1000, "left the page");
  };
}
