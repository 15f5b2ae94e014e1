// The table drawn from a plain picture of it; the live table and the replayer both build such a picture.
//
// picture = {
//   seats: [{seat, name, kind: "human"|"bot"|"empty", agent, stack, connected, bet, cards: [code|null]|null,
//            folded, action, handName, winner, net}],
//   you: seat|null, button: seat|null, board: [code], pot: chips, turn: seat|null, deadline: ms|null,
// }
import { card, cards } from "./cards.js";
import { chips, h, signed } from "./dom.js";

/** Where seat number `index` of `count` sits, in percent of the table's box; index 0 is bottom centre. */
function place(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count; // clockwise on screen (y grows downwards)
  return { left: `${50 + 44 * Math.cos(angle)}%`, top: `${50 + 40 * Math.sin(angle)}%` };
}

/** Seconds left until `deadline` (epoch ms), never negative. */
function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

function seatBox(s, picture) {
  const classes = ["seat"];
  if (s.kind === "empty") classes.push("empty");
  if (s.folded) classes.push("folded");
  if (s.winner) classes.push("winner");
  if (picture.turn === s.seat) classes.push("turn");
  if (picture.you === s.seat) classes.push("you");
  const title = s.kind === "empty" ? `Seat ${s.seat + 1}: empty` : `Seat ${s.seat + 1}: ${s.name}`;
  return h(
    "section",
    { class: classes.join(" "), "aria-label": title, "data-seat": s.seat, "data-testid": `seat-${s.seat}` },
    h(
      "h3",
      { class: "seat-name" },
      s.kind === "empty" ? "empty seat" : s.name,
      s.kind === "bot" ? h("span", { class: "badge bot", title: s.agent ? `bot: ${s.agent}` : "bot" }, "bot") : null,
      picture.you === s.seat ? h("span", { class: "badge me" }, "you") : null,
      picture.button === s.seat ? h("span", { class: "dealer", title: "the button", "aria-label": "button" }, "D") : null,
      s.connected === false && s.kind === "human" ? h("span", { class: "badge away" }, "away") : null,
    ),
    s.stack !== undefined && s.stack !== null && s.kind !== "empty"
      ? h("p", { class: "stack" }, "stack ", h("span", { "data-testid": `stack-${s.seat}` }, chips(s.stack)))
      : null,
    s.cards ? cards(s.cards, `${s.name}'s cards`) : null,
    s.action ? h("p", { class: "last-action", "data-testid": `action-${s.seat}` }, s.action) : null,
    s.handName ? h("p", { class: "hand-name" }, s.handName) : null,
    s.net !== undefined && s.net !== null ? h("p", { class: s.net >= 0 ? "net up" : "net down" }, signed(s.net)) : null,
    s.winner ? h("p", { class: "won" }, "winner") : null,
    picture.turn === s.seat && picture.deadline
      ? h("p", { class: "timer", "data-deadline": picture.deadline, "aria-hidden": "true" }, `${secondsLeft(picture.deadline)} s`)
      : null,
    s.bet ? h("p", { class: "bet", "aria-label": `bet ${s.bet} this round` }, chips(s.bet)) : null,
  );
}

/** The whole table as a new element. */
export function felt(picture) {
  const seats = [...picture.seats].sort((a, b) => a.seat - b.seat);
  const bottom = Math.max(0, seats.findIndex((s) => s.seat === picture.you));
  const middle = h(
    "div",
    { class: "middle" },
    h("div", { class: "board", "data-testid": "board", "aria-label": "board" },
      picture.board.length ? picture.board.map(card) : h("span", { class: "muted" }, "no board yet")),
    h("p", { class: "pot" }, picture.potWon ? "pot won " : "pot ", h("strong", { "data-testid": "pot" }, chips(picture.pot || 0))),
  );
  const oval = h("div", { class: "felt", role: "group", "aria-label": "the table" }, middle);
  seats.forEach((s, i) => {
    const box = seatBox(s, picture);
    Object.assign(box.style, place((i - bottom + seats.length) % seats.length, seats.length));
    oval.append(box);
  });
  return oval;
}

/** Refreshes the countdowns under `root` (call it from a timer). */
export function tick(root) {
  for (const el of root.querySelectorAll(".timer[data-deadline]")) {
    const left = secondsLeft(Number(el.dataset.deadline));
    el.textContent = `${left} s`;
    el.classList.toggle("urgent", left <= 5);
  }
}
