import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const lines = readFileSync("vectors/turns.jsonl", "utf8").split("\n").filter(Boolean);
let failed = 0;
for (const line of lines) {
  const { request, expected, description } = JSON.parse(line);
  const reply = resolve(request);
  const same = expected.error
    ? reply.error?.rule === expected.error.rule
    : isDeepStrictEqual(reply, expected);
  if (!same) {
    failed += 1;
    console.log(`FAIL ${description}`);
  }
}
console.log(`${lines.length - failed} passed, ${failed} failed`);
