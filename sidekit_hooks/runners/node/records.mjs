// sidekit's record of a `node --test` run: one JSON line per test that ended (and the run's counts),
// written to the destination sidekit names (`--test-reporter-destination`). The runner's own events
// only: no file of the project is read, nothing is sent anywhere.
const MAX_STACK = 4000;

function fullName(names, nesting, name) {
  names.length = nesting;
  names[nesting] = name;
  return names.slice(0, nesting + 1).join(" > ");
}

// file -> for each nesting level, whether the test open there has subtests (then they are the records)
function opened(parents, nesting) {
  parents.length = nesting;
  parents[nesting] = false;
  if (nesting > 0) parents[nesting - 1] = true;
}

function failure(error) {
  const cause = error && error.cause !== undefined ? error.cause : error;
  if (cause === null || cause === undefined) return { type: "Error", message: "", stack: "" };
  const type = cause.name || (cause.constructor && cause.constructor.name) || typeof cause;
  const message = cause.message !== undefined ? String(cause.message) : String(cause);
  const stack = typeof cause.stack === "string" ? cause.stack : "";
  return { type, message, stack: stack.slice(0, MAX_STACK), kind: error && error.failureType };
}

export default async function* records(source) {
  const names = new Map(); // file -> the names of the tests open at each nesting level
  const parents = new Map();
  for await (const event of source) {
    const data = event.data || {};
    const file = data.file || "";
    if (!names.has(file)) {
      names.set(file, []);
      parents.set(file, []);
    }
    if (event.type === "test:start") {
      fullName(names.get(file), data.nesting || 0, data.name);
      opened(parents.get(file), data.nesting || 0);
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const details = data.details || {};
    const record = {
      name: fullName(names.get(file), data.nesting || 0, data.name),
      file,
      line: data.line || 0,
      duration: details.duration_ms || 0,
      suite: details.type === "suite" || parents.get(file)[data.nesting || 0] === true,
      outcome: event.type === "test:pass" ? (data.skip !== undefined ? "skipped" : data.todo !== undefined ? "skipped" : "passed") : "failed",
    };
    if (event.type === "test:fail") Object.assign(record, failure(details.error));
    yield JSON.stringify(record) + "\n";
  }
}
