// The leaderboard and a player's bankroll curve (mine unless a name is given).
import { api } from "./api.js";
import { lineChart } from "./chart.js";
import { chips, h } from "./dom.js";

const START = 1000;

function number(value, digits) {
  return value === null || value === undefined ? "" : Number(value).toFixed(digits);
}

function percent(value) {
  return value === null || value === undefined ? "" : `${(100 * Number(value)).toFixed(0)}%`;
}

export async function showLeaderboard(root, session, name) {
  const player = name || session.me.name;
  const [board, curve] = await Promise.all([
    api("GET", "/api/leaderboard"),
    api("GET", `/api/players/${encodeURIComponent(player)}/bankroll`),
  ]);
  // a person's account starts with 1,000 chips, a bot's books with 0 (docs/web-protocol.md): the curve
  // starts there, at hand 0
  const row = board.find((r) => r.name === player);
  const first = row && row.kind === "bot" ? 0 : START;
  const points = [{ x: 0, y: first }, ...curve.map((p, i) => ({ x: i + 1, y: p.bankroll }))];
  const last = points.length ? points[points.length - 1].y : 0;
  const summary = curve.length
    ? `${curve.length} hands, from ${chips(first)} to ${chips(last)}.`
    : "No finished hands yet.";
  root.append(
    h("h2", {}, "Leaderboard"),
    h(
      "table",
      { class: "leaderboard", "data-testid": "leaderboard" },
      h("caption", {}, "Players by chips won (a person starts with 1,000, a bot's books with 0). VPIP: voluntarily put chips in pre-flop; PFR: pre-flop raise; sb/hand: small bets won per hand."),
      h("thead", {}, h("tr", {}, ["#", "Player", "Won", "Bankroll", "Hands", "sb/hand", "VPIP", "PFR", "Aggression"].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        board.map((row, i) =>
          h(
            "tr",
            { class: row.name === session.me.name ? "mine" : null },
            h("td", {}, `${i + 1}`),
            h("th", { scope: "row" }, h("a", { href: `#/leaderboard/${encodeURIComponent(row.name)}` }, row.name)),
            h("td", { class: "num" }, chips(row.net)),
            h("td", { class: "num" }, chips(row.bankroll)),
            h("td", { class: "num" }, chips(row.hands)),
            h("td", { class: "num" }, number(row.sb_per_hand, 2)),
            h("td", { class: "num" }, percent(row.vpip)),
            h("td", { class: "num" }, percent(row.pfr)),
            h("td", { class: "num" }, number(row.aggression, 2)),
          ),
        ),
      ),
    ),
    h(
      "section",
      { "aria-labelledby": "curve-heading" },
      h("h3", { id: "curve-heading" }, `${player === session.me.name ? "My" : `${player}'s`} bankroll`),
      h("p", {}, summary),
      h("figure", { class: "curve", "data-testid": "bankroll-chart" },
        lineChart(points, {
          title: `Bankroll of ${player} after each hand`, summary, xLabel: "hands played", yLabel: "bankroll (chips)", baseline: first,
        })),
    ),
  );
}
