// The page: who is logged in, the header, and a view per address (#/lobby, #/table/3, #/history, ...).
import { api, ApiError } from "./api.js";
import { showAuth } from "./auth.js";
import { chips } from "./dom.js";
import { showHistory, showReplay } from "./history.js";
import { showLeaderboard } from "./leaderboard.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const main = document.getElementById("main");
let me = null; // {name, bankroll, levels} or null
let leaveView = () => {};

/** The session shared by every view. */
export const session = {
  get me() {
    return me;
  },
  /** Asks the server who we are; null when not logged in. */
  async refresh() {
    try {
      me = await api("GET", "/api/me");
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      me = null;
    }
    header();
    return me;
  },
  /** Refreshes until I sit nowhere (a hand I left is booked), at most a minute. */
  async settle() {
    for (let i = 0; i < 60; i += 1) {
      const who = await this.refresh().catch(() => null);
      if (!who || who.table === null) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  },
  loggedIn(who) {
    me = { levels: [], ...who };
    header();
  },
  notice,
};

function header() {
  document.getElementById("nav").hidden = !me;
  document.getElementById("who").hidden = !me;
  if (me) {
    document.getElementById("me-name").textContent = me.name;
    document.getElementById("me-bankroll").textContent = chips(me.bankroll);
  }
}

/** A line under the header for what went wrong (or right); empty text hides it. */
export function notice(text, kind = "info") {
  const el = document.getElementById("notice");
  el.textContent = text || "";
  el.dataset.kind = kind;
  el.hidden = !text;
}

const routes = [
  [/^#\/login$/, () => showAuth(main, session, "login")],
  [/^#\/signup$/, () => showAuth(main, session, "signup")],
  [/^#\/lobby$/, () => showLobby(main, session)],
  [/^#\/table\/([^/]+)$/, (id) => showTable(main, session, id)],
  [/^#\/history$/, () => showHistory(main, session)],
  [/^#\/hands\/([^/]+)$/, (id) => showReplay(main, session, id)],
  [/^#\/leaderboard$/, () => showLeaderboard(main, session)],
  [/^#\/leaderboard\/([^/]+)$/, (name) => showLeaderboard(main, session, decodeURIComponent(name))],
];

async function route() {
  leaveView();
  leaveView = () => {};
  notice("");
  main.replaceChildren();
  const hash = location.hash || "#/lobby";
  const open = hash === "#/login" || hash === "#/signup";
  if (!open && !me) {
    location.hash = "#/login";
    return;
  }
  for (const [pattern, show] of routes) {
    const match = hash.match(pattern);
    if (match) {
      try {
        leaveView = (await show(...match.slice(1))) || (() => {});
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          me = null;
          header();
          location.hash = "#/login";
          return;
        }
        notice(err.message, "error");
      }
      const heading = main.querySelector("h2");
      if (heading) document.title = `${heading.textContent} · pokerlab`;
      // a new view: keyboard and screen-reader users start at its top (unless a field took the focus)
      if (!main.contains(document.activeElement)) main.focus({ preventScroll: true });
      return;
    }
  }
  location.hash = "#/lobby";
}

/** Log out here (`/api/logout`) or everywhere (`/api/logout-everywhere`). */
async function logOut(path, words) {
  try {
    await api("POST", path);
  } catch (err) {
    notice(err.message, "error");
    return;
  }
  me = null;
  header();
  location.hash = "#/login";
  notice(words);
}

document.getElementById("logout").addEventListener("click", () => logOut("/api/logout", "You are logged out."));
document.getElementById("logout-everywhere").addEventListener("click", () =>
  logOut("/api/logout-everywhere", "You are logged out on every device."));

window.addEventListener("hashchange", route);
session.refresh().then(route, (err) => notice(`The server did not answer: ${err.message}`, "error"));
