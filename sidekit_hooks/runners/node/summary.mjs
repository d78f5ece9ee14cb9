// sidekit's compact console answer to a raw `node --test` run: the counts, then each distinct failure
// once (its type, message and first frame in the project, with how many tests fail so), at most a few.
// The full records go to sidekit's other reporter (records.mjs); `sidekit failures` shows them.
const SHOWN = 5;
const MESSAGE = 160;

function spot(stack) {
  for (const line of String(stack || "").split("\n")) {
    const found = line.match(/\(?((?:\/|file:\/\/)[^()\s]+?):(\d+):\d+\)?\s*$/);
    if (found && !found[1].includes("node_modules") && !found[1].startsWith("node:")) {
      return `${found[1].replace(/^file:\/\//, "").replace(process.cwd() + "/", "")}:${found[2]}`;
    }
  }
  return "";
}

export default async function* summary(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const causes = new Map();
  const parents = new Map(); // file -> for each nesting level, whether the test open there has subtests
  for await (const event of source) {
    const data = event.data || {};
    const details = data.details || {};
    const nesting = data.nesting || 0;
    if (!parents.has(data.file || "")) parents.set(data.file || "", []);
    const open = parents.get(data.file || "");
    if (event.type === "test:start") {
      open.length = nesting;
      open[nesting] = false;
      if (nesting > 0) open[nesting - 1] = true;
      continue;
    }
    if (details.type === "suite" || open[nesting] === true) continue; // its subtests are counted themselves
    if (event.type === "test:pass") counts[data.skip !== undefined || data.todo !== undefined ? "skipped" : "passed"] += 1;
    if (event.type !== "test:fail") continue;
    const error = details.error || {};
    if (error.failureType === "subtestsFailed") continue; // its subtests are counted themselves
    counts.failed += 1;
    const cause = error.cause !== undefined ? error.cause : error;
    const type = (cause && (cause.name || (cause.constructor && cause.constructor.name))) || "Error";
    const message = String((cause && cause.message) || cause || "").split("\n")[0].slice(0, MESSAGE);
    const key = `${type}: ${message} at ${spot(cause && cause.stack)}`;
    const seen = causes.get(key) || { count: 0, first: data.name };
    seen.count += 1;
    causes.set(key, seen);
  }
  const total = counts.passed + counts.failed + counts.skipped;
  let text = `node --test: ${counts.failed} failed, ${counts.passed} passed, ${counts.skipped} skipped (${total} tests)\n`;
  const ordered = [...causes.entries()].sort((a, b) => b[1].count - a[1].count);
  for (const [key, seen] of ordered.slice(0, SHOWN)) {
    text += `  ${seen.count} x ${key} (first: ${seen.first})\n`;
  }
  if (ordered.length > SHOWN) text += `  (+${ordered.length - SHOWN} more causes)\n`;
  if (counts.failed) text += "details: sidekit failures\n";
  yield text;
}
