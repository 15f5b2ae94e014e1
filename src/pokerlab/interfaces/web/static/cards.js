// Cards as the protocol writes them ("As", "Td", "2c"), drawn as text with suit symbols.
import { h } from "./dom.js";

const SUITS = { s: ["\u2660", "spades"], h: ["\u2665", "hearts"], d: ["\u2666", "diamonds"], c: ["\u2663", "clubs"] };
const RANKS = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

/** One card face up ("As"), or face down when `code` is null. */
export function card(code) {
  if (!code) return h("span", { class: "card back", role: "img", "aria-label": "face-down card" });
  const rank = code[0].toUpperCase();
  const [symbol, suitName] = SUITS[code[1].toLowerCase()] || ["?", "unknown suit"];
  const red = suitName === "hearts" || suitName === "diamonds";
  return h(
    "span",
    { class: `card ${red ? "red" : "black"}`, role: "img", "aria-label": `${RANKS[rank] || rank} of ${suitName}`, "data-card": code },
    h("span", { "aria-hidden": "true" }, rank === "T" ? "10" : rank, symbol),
  );
}

/** A row of cards; `codes` may hold nulls for face-down ones. */
export function cards(codes, label) {
  return h("span", { class: "cards", role: "group", "aria-label": label || null }, codes.map(card));
}
