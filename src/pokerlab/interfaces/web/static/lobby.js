// The lobby: tables by level, their free seats, which levels are open to me, sit down or watch.
import { api } from "./api.js";
import { chips, h } from "./dom.js";

const tableHash = (id) => `#/table/${encodeURIComponent(id)}`;

/** "Sit down" at table `id` (disabled unless `can`); the server's refusal goes to the notice line. */
function sitButton(session, id, can) {
  const button = h("button", {
    type: "button",
    disabled: !can,
    "data-testid": `sit-${id}`,
    onclick: async () => {
      button.disabled = true;
      try {
        await api("POST", `/api/tables/${encodeURIComponent(id)}/sit`, {});
        location.hash = tableHash(id);
      } catch (err) {
        session.notice(err.message, "error");
        button.disabled = false;
      }
    },
  }, "Sit down");
  return button;
}

/** Back to the table where I sit. */
function backButton(id) {
  return h("button", { type: "button", "data-testid": `sit-${id}`, onclick: () => (location.hash = tableHash(id)) }, "Back to your seat");
}

export async function showLobby(root, session) {
  const [me, tables] = await Promise.all([session.refresh(), api("GET", "/api/tables")]);
  const open = new Set(me.levels || []);
  const levels = new Map();
  for (const table of tables) {
    if (!levels.has(table.level)) levels.set(table.level, []);
    levels.get(table.level).push(table);
  }
  root.append(h("h2", {}, "Lobby"));
  if (tables.some((t) => t.practice)) {
    root.append(h("p", { class: "practice", role: "note", "data-testid": "practice" },
      "Practice: deals are reproducible (this server was started with --seed); play here for nothing that matters."));
  }
  if (!tables.length) root.append(h("p", {}, "The server has no tables."));
  for (const [level, list] of levels) {
    const first = list[0];
    const isOpen = open.has(level) || first.open === true;
    const status = isOpen
      ? h("span", { class: "open" }, "open to you")
      : h("span", { class: "closed" }, `opens at a bankroll of ${chips(first.threshold)} (you have ${chips(me.bankroll)}; ${chips(first.threshold - me.bankroll)} to go)`);
    const rows = list.map((table) => {
      // a person may take any seat that is not a person's: an empty one or a bot's
      const bots = table.seats.filter((s) => s.kind === "bot");
      const people = table.seats.filter((s) => s.kind === "human");
      const free = table.seats.length - people.length;
      const sit = String(me.table) === String(table.id) ? backButton(table.id) : sitButton(session, table.id, isOpen && free > 0);
      return h(
        "tr",
        {},
        h("th", { scope: "row" }, `Table ${table.id}`),
        h("td", {}, `${table.seats.length}`),
        h("td", {}, `${free}`),
        h("td", {}, people.map((s) => s.name).join(", ") || "none"),
        h("td", {}, bots.map((s) => (s.agent && s.agent !== s.name ? `${s.name} (${s.agent})` : s.name)).join(", ") || "none"),
        h("td", { class: "actions" }, sit, " ", h("a", { href: tableHash(table.id) }, "Watch")),
      );
    });
    root.append(
      h(
        "section",
        { class: "level", "aria-labelledby": `level-${level}` },
        h("h3", { id: `level-${level}` }, `Limit ${level} `, status),
        h(
          "table",
          {},
          h("caption", {}, `Small bet ${chips(first.small_bet)}, big bet ${chips(first.big_bet)}`),
          h("thead", {}, h("tr", {}, ["Table", "Seats", "Free for people", "People", "Bots", ""].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows),
        ),
      ),
    );
  }
}
