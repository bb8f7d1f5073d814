// The board's words for what steps did. The rules (splut-board's events,
// in the state and in the hint, review and threat answers) say what each
// step did: who moved, what was pushed, pulled or levitated, where a
// thrown rock flew and whom it crushed, who went out. This file only puts
// those events in words; it holds no rule of movement. A module of the
// page with no state of its own.

export const SEAT_NAME = { r: "Red", y: "Yellow", g: "Green", b: "Blue" };
export const KIND_NAME = { S: "sorcerer", D: "dwarf", T: "troll" };
export const DIR_NAME = { n: "north", e: "east", s: "south", w: "west" };
export const ORDINAL = ["", "1st", "2nd", "3rd", "4th"];

export function pieceName(code) {
  return code === "R" ? "a rock" : `${SEAT_NAME[code[0]]}'s ${KIND_NAME[code[1]]}`;
}

export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}

// The pieces a push moved, in words ("Green's troll and a rock").
export function pushedWords(ev) {
  return listWords(ev.pushed.map((p) => pieceName(p.piece)));
}

// An event in a sentence: "Blue's troll f7→f6 throws the rock west: …".
// `places` (seat → place) names the place of a seat that goes out.
export function sentence(ev, places) {
  if (ev.type === "pass") return `${SEAT_NAME[ev.seat] || ev.seat} cannot move and passes.`;
  const who = `${SEAT_NAME[ev.seat]}'s ${KIND_NAME[ev.kind] || "piece"}`;
  let s = `${who} ${ev.from}→${ev.to}`;
  if (ev.type === "push") s += `, pushing ${pushedWords(ev)} ${DIR_NAME[ev.dir]}`;
  if (ev.type === "pull") s += `, pulling the rock ${ev.rock[0]}→${ev.rock[1]}`;
  if (ev.type === "levitate") s += `, levitating the rock ${ev.rock[0]}→${ev.rock[1]}`;
  if (ev.type === "throw") {
    s += ` throws the rock ${DIR_NAME[ev.throw]}`;
    if (ev.crushed && ev.crushed[1] === "S") {
      s += `: ${pieceName(ev.crushed)} is crushed on ${ev.landing}`;
    } else if (ev.crushed) {
      s += `: it lands on ${ev.landing}, crushing ${pieceName(ev.crushed)} (SPLUT!)`;
    } else s += `; it lands on ${ev.landing}`;
  }
  for (const o of ev.out) {
    const place = places && places[o] ? ` (${ORDINAL[places[o]]})` : "";
    s += `, ${SEAT_NAME[o]} is out${place}`;
  }
  return s + ".";
}

// A turn's events in sentences; a piece's plain steps one after another
// are told as one walk ("Red's dwarf e2→e3→e4.").
export function turnSentences(events, places) {
  const out = [];
  let walk = null;
  for (const ev of events) {
    const plain = ev.type === "step" && !ev.out.length;
    if (plain && walk && walk.seat === ev.seat && walk.kind === ev.kind && walk.squares[walk.squares.length - 1] === ev.from) {
      walk.squares.push(ev.to);
      out[out.length - 1] = `${SEAT_NAME[ev.seat]}'s ${KIND_NAME[ev.kind]} ${walk.squares.join("→")}.`;
      continue;
    }
    walk = plain ? { seat: ev.seat, kind: ev.kind, squares: [ev.from, ev.to] } : null;
    out.push(sentence(ev, places));
  }
  return out.join(" ");
}

// A few words beside a step's notation: "troll f3→f4, throws north".
export function stepWords(ev) {
  if (ev.type === "pass") return "pass";
  let s = `${KIND_NAME[ev.kind] || "piece"} ${ev.from}→${ev.to}`;
  if (ev.type === "push") s += `, pushes ${pushedWords(ev)}`;
  if (ev.type === "pull") s += `, pulls the rock from ${ev.rock[0]}`;
  if (ev.type === "levitate") s += `, lifts the rock ${ev.rock[0]}→${ev.rock[1]}`;
  if (ev.type === "throw") {
    s += `, throws ${DIR_NAME[ev.throw]}`;
    if (ev.crushed) s += ` crushing ${pieceName(ev.crushed)} on ${ev.landing}`;
    else s += ` to ${ev.landing}`;
  }
  return s;
}

// A turn's events (a hint's, a threat's, a better turn's) in words.
export function turnWords(events) {
  return (events || []).map(stepWords).join("; ");
}

// The game's events by turn, from the state's turns ({seat, steps,
// events}): [{seat, index, events}], and the order seats went out. The
// places are the rules' own: the state's `places` (Game::places).
export function narrateGame(turns) {
  const outOrder = [];
  const told = turns.map((t, index) => {
    const events = t.events || [];
    for (const ev of events) outOrder.push(...ev.out);
    return { seat: t.seat, index, events };
  });
  return { turns: told, places: {}, outOrder };
}
