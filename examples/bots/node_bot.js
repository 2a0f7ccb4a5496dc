#!/usr/bin/env node
// A Take 5 bot that speaks the take5-player protocol (version 1), with node's built-ins only.
//
//     take5rules arena cautious "cmd:node examples/bots/node_bot.js"
//
// One JSON object a line on stdin and stdout. Strategy: the card that fits closest above the
// last card of a row that is not yet full; else the lowest card. A low card takes the row with
// the fewest bull heads; a draft takes the card of fewest bull heads, the lowest on a tie.
"use strict";
const readline = require("node:readline");

const HELLO = {type: "hello", protocol: 1, name: "node-bot", author: "take5rules examples",
               variants: ["standard", "tactics", "logic", "tournament"]};

// The bull heads of a card: 7 for 55, 5 for a double, 3 for tens, 2 for fives, else 1.
function heads(card) {
  if (card === 55) return 7;
  if (card % 11 === 0) return 5;
  return card % 10 === 0 ? 3 : card % 5 === 0 ? 2 : 1;
}

// The card closest above the last card of a row of fewer than five; else the lowest.
function chooseCard(hand, rows) {
  let best = null;
  for (const card of hand) {
    const below = rows.filter((row) => row[row.length - 1] < card);
    if (below.length === 0) continue;
    const row = below.reduce((a, b) => (a[a.length - 1] > b[b.length - 1] ? a : b));
    const gap = card - row[row.length - 1];
    const closer = best === null || gap < best.gap || (gap === best.gap && card < best.card);
    if (row.length < 5 && closer) best = {gap, card};
  }
  return best !== null ? best.card : Math.min(...hand);
}

// The row (0..3) with the fewest bull heads; the first on a tie.
function cheapestRow(rows) {
  const costs = rows.map((row) => row.reduce((sum, card) => sum + heads(card), 0));
  return costs.indexOf(Math.min(...costs));
}

// The reply to a message, or null for information (and for types this bot does not know).
function answer(message) {
  switch (message.type) {
    case "hello":
      return HELLO;
    case "card":
      return {type: "card", id: message.id, card: chooseCard(message.hand, message.rows)};
    case "row":
      return {type: "row", id: message.id, row: cheapestRow(message.rows)};
    case "draft": {
      const pool = [...message.pool].sort((a, b) => heads(a) - heads(b) || a - b);
      return {type: "draft", id: message.id, card: pool[0]};
    }
    default:
      return null;
  }
}

const input = readline.createInterface({input: process.stdin, terminal: false});
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "quit") {
    input.close();
    process.exit(0);
  }
  const reply = answer(message);
  if (reply !== null) process.stdout.write(JSON.stringify(reply) + "\n");
});
input.on("close", () => process.exit(0));
