"""SECOND held-out JavaScript near-copy set (#34), never tuned on; format in nearcopy_languages.py.

Written by a helper who never read the matcher (sidekit_hooks/code/, sidekit_hooks/detectors/) and
never ran it on these cases: measure them, never tune on them.

Project helpers: d3-array 3.2.4 from npm, its ES modules (`src/<name>.js`, one default-exported
function each; InternSet/InternMap from internmap); no other set, session or real-project list uses
it. Copies are rewritten as agents do in JavaScript: `for ... of` loops and
`.map`/`.filter`/`.forEach`/`.every`, `Array.from` and loops with `push`, the two accessor branches
(with and without `valueof`) merged into one loop, `while (true)` and `for (;;)`, comma expressions
as statements, labelled `continue` as `.every`, arrow functions and inner function declarations,
private helpers (`pair`, `length`, `set`, `flatten`) inlined, reordered independent tests and
operands, renamed locals, `var` and `const`/`let`, a new name and doc comment. Before this commit
every copy was run beside its original (the package installed) on sample inputs in Node, with the
same results.
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "js"
SUFFIX = ".js"
PROJECTS = {"d3array": Project("js", "npm", "d3-array@3.2.4", "src", (".js",))}

COPIES = [
    Case(
        "d3array",
        "every",
        r"""
export function allPass(values, test) {
  if (typeof test !== "function") throw new TypeError("test is not a function");
  let position = 0;
  for (const item of values) {
    if (!test(item, position++, values)) return false;
  }
  return true;
}
""",
        "src/every.js: the pre-increment from -1 as a post-increment from 0, the if block "
        "without braces, locals renamed",
    ),
    Case(
        "d3array",
        "some",
        r"""
/** Whether any value passes the test (called with value, index, values). */
export function anyPass(values, test) {
  if (typeof test !== "function") {
    throw new TypeError("test is not a function");
  }
  let i = 0;
  for (const value of values) {
    const passed = test(value, i, values);
    if (passed) return true;
    i += 1;
  }
  return false;
}
""",
        "src/some.js: the index counted after the call, the test's result named, a doc comment",
    ),
    Case(
        "d3array",
        "filter",
        r"""
export function keepIf(values, test) {
  if (typeof test !== "function") throw new TypeError("test is not a function");
  const kept = [];
  let index = 0;
  for (const value of values) {
    if (!test(value, index++, values)) continue;
    kept.push(value);
  }
  return kept;
}
""",
        "src/filter.js: the if as a negated continue, the index from 0 post-incremented",
    ),
    Case(
        "d3array",
        "difference",
        r"""
export function without(values, ...others) {
  const remaining = new InternSet(values);
  others.forEach((other) => {
    for (const value of other) remaining.delete(value);
  });
  return remaining;
}
""",
        "src/difference.js: the outer for...of as .forEach with an arrow, a new local instead "
        "of reassigning the parameter",
    ),
    Case(
        "d3array",
        "union",
        r"""
export function unionOf(...iterables) {
  const seen = new InternSet();
  iterables.forEach((iterable) => {
    for (const item of iterable) {
      seen.add(item);
    }
  });
  return seen;
}
""",
        "src/union.js: the outer loop as .forEach, locals renamed",
    ),
    Case(
        "d3array",
        "range",
        r"""
/** Evenly spaced numbers from start (inclusive) to stop (exclusive). */
export function numberRange(start, stop, step) {
  const argc = arguments.length;
  if (argc < 2) {
    stop = +start;
    start = 0;
    step = 1;
  } else {
    start = +start;
    stop = +stop;
    step = argc < 3 ? 1 : +step;
  }
  const count = Math.max(0, Math.ceil((stop - start) / step)) | 0;
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    out[i] = start + i * step;
  }
  return out;
}
""",
        "src/range.js: the comma expressions and nested ternary as if/else, the while (++i < n) "
        "as a for loop, locals renamed",
    ),
    Case(
        "d3array",
        "reduce",
        r"""
export function foldValues(values, reducer, value) {
  if (typeof reducer !== "function") throw new TypeError("reducer is not a function");
  let seeded = arguments.length >= 3;
  let index = -1;
  for (const next of values) {
    ++index;
    if (!seeded) {
      value = next;
      seeded = true;
      continue;
    }
    value = reducer(value, next, index, values);
  }
  return value;
}
""",
        "src/reduce.js: the explicit iterator and its first next() as for...of with a seeded "
        "flag (an empty input still gives undefined)",
    ),
    Case(
        "d3array",
        "pairs",
        r"""
export function adjacentPairs(values, pairof = (a, b) => [a, b]) {
  const items = Array.from(values);
  const result = [];
  for (let i = 1; i < items.length; i++) {
    result.push(pairof(items[i - 1], items[i]));
  }
  return result;
}
""",
        "src/pairs.js: the private pair inlined as the default arrow, the first/previous flags "
        "as an index loop over an array copy",
    ),
    Case(
        "d3array",
        "transpose",
        r"""
export function flipMatrix(matrix) {
  const rowCount = matrix.length;
  if (!rowCount) return [];
  const width = min(matrix, (row) => row.length);
  const columns = new Array(width);
  for (let i = 0; i < width; i++) {
    const column = new Array(rowCount);
    for (let j = 0; j < rowCount; j++) column[j] = matrix[j][i];
    columns[i] = column;
  }
  return columns;
}
""",
        "src/transpose.js: the private length inlined as an arrow, the var/comma for loops as "
        "plain counted loops, locals renamed",
    ),
    Case(
        "d3array",
        "count",
        r"""
export function countNumbers(values, valueof) {
  let total = 0;
  let index = -1;
  for (const item of values) {
    let value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null) continue;
    value = +value;
    if (value >= value) total++;
  }
  return total;
}
""",
        "src/count.js: the two branches (with and without valueof) merged into one loop, the "
        "assignment in the test split out, NaN skipped with continue",
    ),
    Case(
        "d3array",
        "sum",
        r"""
export function sumOf(values, valueof) {
  let total = 0;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? +item : +valueof(item, ++index, values);
    if (value) total += value;
  }
  return total;
}
""",
        "src/sum.js: the two loops merged with a ternary, the assignment inside if pulled out",
    ),
    Case(
        "d3array",
        "mean",
        r"""
/** The arithmetic mean of the numeric values, ignoring null, undefined and NaN. */
export function average(values, valueof) {
  let n = 0;
  let total = 0;
  let index = -1;
  for (const item of values) {
    const raw = valueof === undefined ? item : valueof(item, ++index, values);
    if (raw == null) continue;
    const value = +raw;
    if (!(value >= value)) continue;
    n += 1;
    total += value;
  }
  return n ? total / n : undefined;
}
""",
        "src/mean.js: both branches in one loop, the comma increments as statements, the final "
        "if as a ternary",
    ),
    Case(
        "d3array",
        "max",
        r"""
export function largest(values, valueof) {
  let best;
  if (valueof !== undefined) {
    let index = -1;
    for (let value of values) {
      value = valueof(value, ++index, values);
      if (value != null && ((best === undefined && value >= value) || best < value)) {
        best = value;
      }
    }
    return best;
  }
  for (const value of values) {
    if (value != null && ((best === undefined && value >= value) || best < value)) {
      best = value;
    }
  }
  return best;
}
""",
        "src/max.js: the branches swapped (accessor first, returning early), the || operands "
        "swapped, the accessor call out of the test",
    ),
    Case(
        "d3array",
        "min",
        r"""
export function smallest(values, valueof) {
  let low;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null) continue;
    if (low === undefined ? value >= value : low > value) {
      low = value;
    }
  }
  return low;
}
""",
        "src/min.js: the two loops merged, `min > value || (min === undefined && value >= value)` "
        "as a ternary, null skipped with continue",
    ),
    Case(
        "d3array",
        "maxIndex",
        r"""
export function indexOfMax(values, valueof) {
  let best;
  let bestIndex = -1;
  let index = -1;
  for (const item of values) {
    ++index;
    const value = valueof === undefined ? item : valueof(item, index, values);
    if (value != null && (best < value || (best === undefined && value >= value))) {
      best = value;
      bestIndex = index;
    }
  }
  return bestIndex;
}
""",
        "src/maxIndex.js: the two loops merged, the index bumped once at the top, the comma "
        "assignment as two statements",
    ),
    Case(
        "d3array",
        "variance",
        r"""
/** Sample variance (Welford's online algorithm), undefined for fewer than two numbers. */
export function sampleVariance(values, valueof) {
  let n = 0;
  let runningMean = 0;
  let squares = 0;
  let index = -1;
  for (const item of values) {
    let value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null || !((value = +value) >= value)) continue;
    const delta = value - runningMean;
    runningMean += delta / ++n;
    squares += delta * (value - runningMean);
  }
  return n > 1 ? squares / (n - 1) : undefined;
}
""",
        "src/variance.js: the two branches merged, the test negated into continue, delta "
        "declared in the loop, the final if as a ternary",
    ),
    Case(
        "d3array",
        "mode",
        r"""
export function mostCommon(values, valueof) {
  const tally = new InternMap();
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null || !(value >= value)) continue;
    tally.set(value, (tally.get(value) || 0) + 1);
  }
  let winner;
  let winnerCount = 0;
  tally.forEach((count, value) => {
    if (count > winnerCount) {
      winnerCount = count;
      winner = value;
    }
  });
  return winner;
}
""",
        "src/mode.js: the counting branches merged, the last loop as Map.forEach, locals renamed",
    ),
    Case(
        "d3array",
        "extent",
        r"""
export function minAndMax(values, valueof) {
  let low;
  let high;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null) continue;
    if (low !== undefined) {
      if (high < value) high = value;
      if (low > value) low = value;
    } else if (value >= value) {
      low = high = value;
    }
  }
  return [low, high];
}
""",
        "src/extent.js: the branches merged, the undefined test flipped with its branches "
        "swapped, the two independent updates reordered",
    ),
    Case(
        "d3array",
        "greatest",
        r"""
export function greatestBy(values, compare = ascending) {
  let best;
  let found = false;
  if (compare.length !== 1) {
    for (const value of values) {
      const better = found ? compare(value, best) > 0 : compare(value, value) === 0;
      if (better) {
        best = value;
        found = true;
      }
    }
    return best;
  }
  let bestKey;
  for (const element of values) {
    const key = compare(element);
    if (found ? ascending(key, bestKey) > 0 : ascending(key, key) === 0) {
      best = element;
      bestKey = key;
      found = true;
    }
  }
  return best;
}
""",
        "src/greatest.js: the comparator branch first with an early return (test negated), the "
        "ternary named, locals renamed",
    ),
    Case(
        "d3array",
        "greatestIndex",
        r"""
export function indexOfGreatest(values, compare = ascending) {
  if (compare.length === 1) return maxIndex(values, compare);
  let best;
  let bestIndex = -1;
  let index = 0;
  for (const value of values) {
    const better = bestIndex >= 0 ? compare(value, best) > 0 : compare(value, value) === 0;
    if (better) {
      best = value;
      bestIndex = index;
    }
    index++;
  }
  return bestIndex;
}
""",
        "src/greatestIndex.js: `max < 0 ? a : b` as `bestIndex >= 0 ? b : a`, the index counted "
        "at the end of the loop",
    ),
    Case(
        "d3array",
        "intersection",
        r"""
export function commonTo(values, ...others) {
  const result = new InternSet(values);
  const sets = others.map((other) => (other instanceof InternSet ? other : new InternSet(other)));
  for (const value of result) {
    if (!sets.every((set) => set.has(value))) {
      result.delete(value);
    }
  }
  return result;
}
""",
        "src/intersection.js: the labelled continue as .every, the private set helper inlined "
        "as an arrow",
    ),
    Case(
        "d3array",
        "merge",
        r"""
export function concatAll(arrays) {
  const merged = [];
  for (const array of arrays) {
    for (const value of array) merged.push(value);
  }
  return merged;
}
""",
        "src/merge.js: the private flatten generator inlined as nested loops with push",
    ),
    Case(
        "d3array",
        "cumsum",
        r"""
export function runningTotals(values, valueof) {
  const items = Array.from(values);
  const totals = new Float64Array(items.length);
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    const value = valueof === undefined ? +items[i] : +valueof(items[i], i, values);
    total += value || 0;
    totals[i] = total;
  }
  return totals;
}
""",
        "src/cumsum.js: Float64Array.from with two mapping arrows as one counted loop over an "
        "array copy",
    ),
    Case(
        "d3array",
        "map",
        r"""
export function mapIterable(values, mapper) {
  if (typeof values[Symbol.iterator] !== "function") throw new TypeError("values is not iterable");
  if (typeof mapper !== "function") throw new TypeError("mapper is not a function");
  const mapped = [];
  let index = 0;
  for (const value of values) {
    mapped.push(mapper(value, index++, values));
  }
  return mapped;
}
""",
        "src/map.js: Array.from with a mapping arrow as a for...of loop with push",
    ),
    Case(
        "d3array",
        "nice",
        r"""
/** Extends [start, stop] to round tick values, repeating until the step settles. */
export function roundDomain(start, stop, count) {
  let previous;
  for (;;) {
    const step = tickIncrement(start, stop, count);
    if (step === 0 || step === previous || !isFinite(step)) return [start, stop];
    if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    }
    previous = step;
  }
}
""",
        "src/nice.js: while (true) as for (;;), the return's else dropped, the step > 0 and "
        "step < 0 branches swapped, the || operands reordered",
    ),
    Case(
        "d3array",
        "tickStep",
        r"""
export function stepBetween(start, stop, count) {
  start = +start;
  stop = +stop;
  count = +count;
  let inc;
  let sign = 1;
  if (stop < start) {
    inc = tickIncrement(stop, start, count);
    sign = -1;
  } else {
    inc = tickIncrement(start, stop, count);
  }
  const step = inc < 0 ? 1 / -inc : inc;
  return sign * step;
}
""",
        "src/ticks.js: the comma assignments as statements, the reverse ternaries as one if/else "
        "with a sign, the step named",
    ),
    Case(
        "d3array",
        "shuffler",
        r"""
export function makeShuffle(random) {
  function shuffleRange(array, i0 = 0, i1 = array.length) {
    const from = +i0;
    for (let left = i1 - from; left; ) {
      const pick = (random() * left--) | 0;
      const tmp = array[left + from];
      array[left + from] = array[pick + from];
      array[pick + from] = tmp;
    }
    return array;
  }
  return shuffleRange;
}
""",
        "src/shuffle.js: the returned named function expression as an inner declaration, the "
        "while (m) as a for loop, the reassigned i0 as a const",
    ),
]

NEAR_MISSES = [
    Case(
        "d3array",
        "",
        r"""
export function allPassNonEmpty(values, test) {
  let index = 0;
  for (const value of values) {
    if (!test(value, index++, values)) return false;
  }
  return index > 0;
}
""",
        "like every (src/every.js): an empty input fails, and a non-function test is not caught",
    ),
    Case(
        "d3array",
        "",
        r"""
export function countPassing(values, test) {
  if (typeof test !== "function") throw new TypeError("test is not a function");
  let index = -1;
  let passing = 0;
  for (const value of values) {
    if (test(value, ++index, values)) passing++;
  }
  return passing;
}
""",
        "like some (src/some.js): counts the passing values instead of stopping at the first",
    ),
    Case(
        "d3array",
        "",
        r"""
export function splitBy(values, test) {
  if (typeof test !== "function") throw new TypeError("test is not a function");
  const yes = [];
  const no = [];
  let index = -1;
  for (const value of values) {
    (test(value, ++index, values) ? yes : no).push(value);
  }
  return [yes, no];
}
""",
        "like filter (src/filter.js): returns both the passing and the failing values",
    ),
    Case(
        "d3array",
        "",
        r"""
export function symmetricDifference(values, other) {
  const result = new InternSet(values);
  for (const value of other) {
    if (result.has(value)) result.delete(value);
    else result.add(value);
  }
  return result;
}
""",
        "like difference (src/difference.js): values only in the other are added, not just removed",
    ),
    Case(
        "d3array",
        "",
        r"""
export function concatUnique(...others) {
  const seen = new Set();
  const out = [];
  for (const other of others) {
    for (const o of other) {
      if (!seen.has(o)) {
        seen.add(o);
        out.push(o);
      }
    }
  }
  return out;
}
""",
        "like union (src/union.js): an array, and identity (not value) equality for dates",
    ),
    Case(
        "d3array",
        "",
        r"""
export function inclusiveRange(start, stop, step = 1) {
  const out = [];
  for (let value = +start; value <= +stop; value += +step) {
    out.push(value);
  }
  return out;
}
""",
        "like range (src/range.js): stop included, one argument is not the stop, accumulated "
        "floating error",
    ),
    Case(
        "d3array",
        "",
        r"""
export function foldRight(values, reducer, value) {
  if (typeof reducer !== "function") throw new TypeError("reducer is not a function");
  const items = Array.from(values);
  let index = items.length;
  if (arguments.length < 3) {
    if (!index) return;
    value = items[--index];
  }
  while (index-- > 0) {
    value = reducer(value, items[index], index, values);
  }
  return value;
}
""",
        "like reduce (src/reduce.js): from the last value to the first",
    ),
    Case(
        "d3array",
        "",
        r"""
export function circularPairs(values) {
  const items = Array.from(values);
  const result = [];
  for (let i = 0; i < items.length; i++) {
    result.push([items[i], items[(i + 1) % items.length]]);
  }
  return result;
}
""",
        "like pairs (src/pairs.js): wraps around (the last pairs with the first), one pair for "
        "one value",
    ),
    Case(
        "d3array",
        "",
        r"""
export function transposePadded(matrix) {
  const rowCount = matrix.length;
  if (!rowCount) return [];
  const width = Math.max(...Array.from(matrix, (row) => row.length));
  const columns = [];
  for (let i = 0; i < width; i++) {
    columns.push(Array.from(matrix, (row) => row[i]));
  }
  return columns;
}
""",
        "like transpose (src/transpose.js): as wide as the longest row, short rows give undefined",
    ),
    Case(
        "d3array",
        "",
        r"""
export function countDefined(values, valueof) {
  let total = 0;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value !== undefined) total++;
  }
  return total;
}
""",
        "like count (src/count.js): null, NaN and non-numbers count; only undefined is skipped",
    ),
    Case(
        "d3array",
        "",
        r"""
export function sumNumbers(values, valueof) {
  let total = 0;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    if (typeof value === "number") total += value;
  }
  return total;
}
""",
        "like sum (src/sum.js): numeric strings are skipped and NaN poisons the total",
    ),
    Case(
        "d3array",
        "",
        r"""
export function averageOrZero(values, valueof) {
  let n = 0;
  let total = 0;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    n += 1;
    total += +value || 0;
  }
  return n ? total / n : 0;
}
""",
        "like mean (src/mean.js): missing values count as zeros, an empty input gives 0",
    ),
    Case(
        "d3array",
        "",
        r"""
export function largestNumber(values, valueof) {
  let best = -Infinity;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    best = Math.max(best, +value);
  }
  return best;
}
""",
        "like max (src/max.js): compares as numbers, NaN wins, an empty input gives -Infinity",
    ),
    Case(
        "d3array",
        "",
        r"""
export function smallestIndex(values, valueof) {
  let low;
  let lowIndex = -1;
  let index = -1;
  for (const item of values) {
    ++index;
    const value = valueof === undefined ? item : valueof(item, index, values);
    if (value == null) continue;
    if (low === undefined ? value >= value : low >= value) {
      low = value;
      lowIndex = index;
    }
  }
  return lowIndex;
}
""",
        "like min (src/min.js): the index, and the last of equal minimums",
    ),
    Case(
        "d3array",
        "",
        r"""
export function populationVariance(values, valueof) {
  let n = 0;
  let runningMean = 0;
  let squares = 0;
  let index = -1;
  for (const item of values) {
    let value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null || !((value = +value) >= value)) continue;
    const delta = value - runningMean;
    runningMean += delta / ++n;
    squares += delta * (value - runningMean);
  }
  return n > 0 ? squares / n : undefined;
}
""",
        "like variance (src/variance.js): divides by n (population), defined for one value",
    ),
    Case(
        "d3array",
        "",
        r"""
export function lastMostCommon(values, valueof) {
  const tally = new InternMap();
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null || !(value >= value)) continue;
    tally.set(value, (tally.get(value) || 0) + 1);
  }
  let winner;
  let winnerCount = 0;
  tally.forEach((count, value) => {
    if (count >= winnerCount) {
      winnerCount = count;
      winner = value;
    }
  });
  return winner;
}
""",
        "like mode (src/mode.js): on a tie the value seen last wins, not the first",
    ),
    Case(
        "d3array",
        "",
        r"""
export function spread(values, valueof) {
  let low;
  let high;
  let index = -1;
  for (const item of values) {
    const value = valueof === undefined ? item : valueof(item, ++index, values);
    if (value == null) continue;
    if (low === undefined) {
      if (value >= value) low = high = value;
    } else {
      if (low > value) low = value;
      if (high < value) high = value;
    }
  }
  return low === undefined ? 0 : high - low;
}
""",
        "like extent (src/extent.js): the width of the range, not its bounds",
    ),
    Case(
        "d3array",
        "",
        r"""
export function firstGreatest(values, compare = ascending) {
  let best;
  let found = false;
  for (const value of values) {
    if (!found || compare(value, best) >= 0) {
      best = value;
      found = true;
    }
  }
  return best;
}
""",
        "like greatest (src/greatest.js): the last of equal values wins, an accessor is used as "
        "a comparator, undefined values are kept",
    ),
    Case(
        "d3array",
        "",
        r"""
export function indexOfLeast(values, compare = ascending) {
  let best;
  let bestIndex = -1;
  let index = 0;
  for (const value of values) {
    const better = bestIndex >= 0 ? compare(value, best) < 0 : compare(value, value) === 0;
    if (better) {
      best = value;
      bestIndex = index;
    }
    index++;
  }
  return bestIndex;
}
""",
        "like greatestIndex (src/greatestIndex.js): the least value's index, and no accessor form",
    ),
    Case(
        "d3array",
        "",
        r"""
export function inAny(values, ...others) {
  const result = new InternSet();
  const sets = others.map((other) => new InternSet(other));
  for (const value of values) {
    if (sets.some((set) => set.has(value))) {
      result.add(value);
    }
  }
  return result;
}
""",
        "like intersection (src/intersection.js): values found in any other, not in every other",
    ),
    Case(
        "d3array",
        "",
        r"""
export function flattenDeep(arrays) {
  const merged = [];
  for (const item of arrays) {
    if (Array.isArray(item)) merged.push(...flattenDeep(item));
    else merged.push(item);
  }
  return merged;
}
""",
        "like merge (src/merge.js): flattens every level, and non-array items are kept as they are",
    ),
    Case(
        "d3array",
        "",
        r"""
export function runningTotalsResetting(values, valueof) {
  const items = Array.from(values);
  const totals = new Float64Array(items.length);
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    const value = valueof === undefined ? +items[i] : +valueof(items[i], i, values);
    total = value >= value ? total + value : 0;
    totals[i] = total;
  }
  return totals;
}
""",
        "like cumsum (src/cumsum.js): a missing value restarts the total at zero",
    ),
    Case(
        "d3array",
        "",
        r"""
export function mapToMap(values, mapper) {
  if (typeof mapper !== "function") throw new TypeError("mapper is not a function");
  const mapped = new Map();
  let index = 0;
  for (const value of values) {
    mapped.set(value, mapper(value, index++, values));
  }
  return mapped;
}
""",
        "like map (src/map.js): a Map from each value to its result (duplicates collapse)",
    ),
    Case(
        "d3array",
        "",
        r"""
export function roundDomainOnce(start, stop, count) {
  const step = tickIncrement(start, stop, count);
  if (step > 0) {
    return [Math.floor(start / step) * step, Math.ceil(stop / step) * step];
  }
  if (step < 0) {
    return [Math.ceil(start * step) / step, Math.floor(stop * step) / step];
  }
  return [start, stop];
}
""",
        "like nice (src/nice.js): one pass, never repeated until the step settles",
    ),
    Case(
        "d3array",
        "",
        r"""
export function shuffledCopy(random) {
  return function (array) {
    const copy = array.slice();
    for (let left = copy.length; left > 0; ) {
      const pick = (random() * left--) | 0;
      [copy[left], copy[pick]] = [copy[pick], copy[left]];
    }
    return copy;
  };
}
""",
        "like shuffler (src/shuffle.js): shuffles a copy (the input is untouched), no sub-range",
    ),
    Case(
        "d3array",
        "",
        r"""
export function stepMagnitude(start, stop, count) {
  const lo = Math.min(+start, +stop);
  const hi = Math.max(+start, +stop);
  const inc = tickIncrement(lo, hi, +count);
  return inc < 0 ? 1 / -inc : inc;
}
""",
        "like tickStep (src/ticks.js): always positive, a reversed domain keeps its sign",
    ),
]

HELDOUT2_JS = COPIES + NEAR_MISSES
