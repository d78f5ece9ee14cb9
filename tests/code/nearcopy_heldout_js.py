"""HELD-OUT JavaScript near-copy set (#34, #35), never tuned on; format in nearcopy_languages.py.

Project helpers: underscore 1.13.7 from npm, its ES modules (`modules/<name>.js`, one exported
function each; private helpers in `modules/_<name>.js`). Copies are rewritten as agents do in
JavaScript: `for` loops and `.map`/`.filter`/`.forEach`/`.reduce`, `.some`/`.every` and loops that
return, `while` and `for`, `var` and `const`/`let`, private helpers (`getLength`, `_has`, `toPath`,
`cb`) inlined, reordered independent tests, early returns and `else`, a new name.
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "js"
SUFFIX = ".js"
PROJECTS = {"underscore": Project("js", "npm", "underscore@1.13.7", "modules", (".js",))}

COPIES = [
    Case(
        "underscore",
        "chunk",
        """
export function splitIntoGroups(array, count) {
  const groups = [];
  if (count == null || count < 1) return groups;
  for (let start = 0; start < array.length; start += count) {
    groups.push(Array.prototype.slice.call(array, start, start + count));
  }
  return groups;
}
""",
        "modules/chunk.js: the while with `i += count` inside the call as a for loop, the result "
        "made first",
    ),
    Case(
        "underscore",
        "uniq",
        """
export function dedupe(array, isSorted, iteratee, context) {
  if (typeof isSorted !== 'boolean' && !(isSorted instanceof Boolean)) {
    context = iteratee;
    iteratee = isSorted;
    isSorted = false;
  }
  if (iteratee != null) iteratee = cb(iteratee, context);
  const out = [];
  let seen = [];
  const length = array == null ? void 0 : array.length;
  for (let i = 0; i < length; i++) {
    const value = array[i];
    const computed = iteratee ? iteratee(value, i, array) : value;
    if (iteratee) {
      if (!seen.includes(computed)) {
        seen.push(computed);
        out.push(value);
      }
    } else if (isSorted) {
      if (!i || seen !== computed) out.push(value);
      seen = computed;
    } else if (!out.includes(value)) {
      out.push(value);
    }
  }
  return out;
}
""",
        "modules/uniq.js: the sorted and iteratee branches reordered, contains as includes, "
        "getLength inlined",
    ),
    Case(
        "underscore",
        "range",
        """
export function numberSequence(start, stop, step) {
  if (stop == null) {
    stop = start || 0;
    start = 0;
  }
  step = step || (stop < start ? -1 : 1);
  const count = Math.max(Math.ceil((stop - start) / step), 0);
  const out = [];
  for (let i = 0, value = start; i < count; i++, value += step) {
    out.push(value);
  }
  return out;
}
""",
        "modules/range.js: the step's if as ||, the preallocated array as push, a separate "
        "running value",
    ),
    Case(
        "underscore",
        "unzip",
        """
export function transpose(arrays) {
  let width = 0;
  if (arrays) {
    width = max(arrays, getLength).length || 0;
  }
  const columns = [];
  for (let col = 0; col < width; col++) {
    columns.push(pluck(arrays, col));
  }
  return columns;
}
""",
        "modules/unzip.js: the && || expression as an if, Array(length) as push",
    ),
    Case(
        "underscore",
        "object",
        """
export function toObject(list, values) {
  const out = {};
  const length = list == null ? void 0 : list.length;
  for (let i = 0; i < length; i++) {
    if (!values) {
      const pair = list[i];
      out[pair[0]] = pair[1];
      continue;
    }
    out[list[i]] = values[i];
  }
  return out;
}
""",
        "modules/object.js: the branches swapped with continue, getLength inlined",
    ),
    Case(
        "underscore",
        "sortedIndex",
        """
export function insertionPoint(array, obj, iteratee, context) {
  const key = cb(iteratee, context, 1);
  const target = key(obj);
  let lo = 0;
  let hi = getLength(array);
  while (hi > lo) {
    const middle = (lo + hi) >>> 1;
    if (key(array[middle]) < target) {
      lo = middle + 1;
      continue;
    }
    hi = middle;
  }
  return lo;
}
""",
        "modules/sortedIndex.js: the else as continue, Math.floor as >>> 1, locals renamed",
    ),
    Case(
        "underscore",
        "intersection",
        """
export function commonItems(array, ...others) {
  const shared = [];
  const length = getLength(array);
  for (let i = 0; i < length; i++) {
    const item = array[i];
    if (shared.includes(item)) continue;
    if (others.every((other) => contains(other, item))) shared.push(item);
  }
  return shared;
}
""",
        "modules/intersection.js: arguments as rest, the inner loop with break as .every, "
        "contains on the result as includes",
    ),
    Case(
        "underscore",
        "max",
        """
export function largest(obj, iteratee, context) {
  let best = -Infinity;
  let bestComputed = -Infinity;
  const plain = iteratee == null || (typeof iteratee == 'number' && typeof obj[0] != 'object' && obj != null);
  if (!plain) {
    const fn = cb(iteratee, context);
    each(obj, (v, index, list) => {
      const computed = fn(v, index, list);
      if ((computed === -Infinity && best === -Infinity) || computed > bestComputed) {
        best = v;
        bestComputed = computed;
      }
    });
    return best;
  }
  const list = isArrayLike(obj) ? obj : values(obj);
  for (let i = 0; i < list.length; i++) {
    if (list[i] != null && list[i] > best) best = list[i];
  }
  return best;
}
""",
        "modules/max.js: the branches swapped with an early return, the test named, || operands "
        "swapped",
    ),
    Case(
        "underscore",
        "createEscaper",
        """
export function makeEscaper(map) {
  const pattern = '(?:' + Object.keys(map).join('|') + ')';
  const probe = new RegExp(pattern);
  const everywhere = new RegExp(pattern, 'g');
  return function (string) {
    const text = string == null ? '' : '' + string;
    if (!probe.test(text)) return text;
    return text.replace(everywhere, (match) => map[match]);
  };
}
""",
        "modules/_createEscaper.js: the escaper function inlined as an arrow, the ternary as an "
        "early return",
    ),
    Case(
        "underscore",
        "times",
        """
export function repeatCall(n, iteratee, context) {
  const fn = optimizeCb(iteratee, context, 1);
  const results = new Array(Math.max(0, n));
  let i = 0;
  while (i < n) {
    results[i] = fn(i);
    i++;
  }
  return results;
}
""",
        "modules/times.js: the for loop as while, the parameter reassignment as a new local",
    ),
    Case(
        "underscore",
        "sample",
        """
export function pickRandom(obj, n, guard) {
  if (n != null && !guard) {
    const items = toArray(obj);
    const length = getLength(items);
    const take = Math.max(Math.min(n, length), 0);
    for (let i = 0; i < take; i++) {
      const j = random(i, length - 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items.slice(0, take);
  }
  const list = isArrayLike(obj) ? obj : values(obj);
  return list[random(list.length - 1)];
}
""",
        "modules/sample.js: the single-pick case last (condition negated), the swap as "
        "destructuring",
    ),
    Case(
        "underscore",
        "memoize",
        """
export function cached(func, hasher) {
  const wrapper = function (key) {
    const store = wrapper.cache;
    const address = '' + (hasher ? hasher.apply(this, arguments) : key);
    if (Object.prototype.hasOwnProperty.call(store, address)) return store[address];
    store[address] = func.apply(this, arguments);
    return store[address];
  };
  wrapper.cache = {};
  return wrapper;
}
""",
        "modules/memoize.js: _has inlined, the negated test as an early return of the cached value",
    ),
    Case(
        "underscore",
        "before",
        """
export function limitCalls(times, func) {
  let last;
  return function () {
    times -= 1;
    if (times > 0) last = func.apply(this, arguments);
    if (times <= 1) func = null;
    return last;
  };
}
""",
        "modules/before.js: the pre-decrement as its own statement, locals renamed",
    ),
    Case(
        "underscore",
        "isEmpty",
        """
export function hasNothing(obj) {
  if (obj == null) return true;
  const length = getLength(obj);
  const listLike = isString(obj) || isArray(obj) || isArguments(obj);
  if (listLike && typeof length == 'number') return length === 0;
  return keys(obj).length === 0;
}
""",
        "modules/isEmpty.js: the type tests named and reordered, getLength(keys()) as .length",
    ),
    Case(
        "underscore",
        "result",
        """
export function resolvePath(obj, path, fallback) {
  const parts = Array.isArray(path) ? path : [path];
  if (parts.length === 0) {
    return typeof fallback === 'function' ? fallback.call(obj) : fallback;
  }
  for (const part of parts) {
    let prop = obj == null ? void 0 : obj[part];
    const missing = prop === void 0;
    if (missing) prop = fallback;
    obj = typeof prop === 'function' ? prop.call(obj) : prop;
    if (missing) break;
  }
  return obj;
}
""",
        "modules/result.js: toPath and isFunction inlined, `i = length` as break, for...of",
    ),
    Case(
        "underscore",
        "deepGet",
        """
function readPath(obj, path) {
  if (!path.length) return void 0;
  let current = obj;
  for (const key of path) {
    if (current == null) return void 0;
    current = current[key];
  }
  return current;
}
""",
        "modules/_deepGet.js: the empty path tested first, for...of",
    ),
    Case(
        "underscore",
        "has",
        """
export function hasPath(obj, path) {
  const parts = Array.isArray(path) ? path : [path];
  if (parts.length === 0) return false;
  let current = obj;
  for (const key of parts) {
    if (current == null || !Object.prototype.hasOwnProperty.call(current, key)) return false;
    current = current[key];
  }
  return true;
}
""",
        "modules/has.js: toPath and the private _has inlined, !!length as an early return",
    ),
    Case(
        "underscore",
        "invert",
        """
export function swapKeysAndValues(obj) {
  return keys(obj).reduce((out, key) => {
    out[obj[key]] = key;
    return out;
  }, {});
}
""",
        "modules/invert.js: the index loop as .reduce",
    ),
    Case(
        "underscore",
        "pairs",
        """
export function entriesOf(obj) {
  const result = [];
  const names = keys(obj);
  names.forEach((name) => {
    result.push([name, obj[name]]);
  });
  return result;
}
""",
        "modules/pairs.js: the preallocated index loop as .forEach with push",
    ),
]

NEAR_MISSES = [
    Case(
        "underscore",
        "",
        """
export function splitEvenly(array, parts) {
  const groups = [];
  if (parts == null || parts < 1) return groups;
  const size = Math.ceil(array.length / parts);
  for (let start = 0; start < array.length; start += size) {
    groups.push(array.slice(start, start + size));
  }
  return groups;
}
""",
        "like chunk (modules/chunk.js): the argument is the number of groups, not their size",
    ),
    Case(
        "underscore",
        "",
        """
export function runLengths(array, iteratee) {
  const out = [];
  let previous;
  for (let i = 0; i < array.length; i++) {
    const value = array[i];
    const computed = iteratee ? iteratee(value) : value;
    if (i > 0 && computed === previous) {
      out[out.length - 1][1]++;
    } else {
      out.push([value, 1]);
    }
    previous = computed;
  }
  return out;
}
""",
        "like uniq (modules/uniq.js): each run of equal neighbours as [value, count], not the "
        "distinct values",
    ),
    Case(
        "underscore",
        "",
        """
export function inclusiveRange(start, stop, step) {
  if (stop == null) {
    stop = start || 0;
    start = 0;
  }
  step = step || 1;
  const out = [];
  for (let value = start; value <= stop; value += step) {
    out.push(value);
  }
  return out;
}
""",
        "like range (modules/range.js): includes stop, never counts down",
    ),
    Case(
        "underscore",
        "",
        """
export function zipShortest(arrays) {
  let width = Infinity;
  for (const array of arrays) width = Math.min(width, array.length);
  if (width === Infinity) width = 0;
  const columns = [];
  for (let col = 0; col < width; col++) {
    columns.push(arrays.map((array) => array[col]));
  }
  return columns;
}
""",
        "like unzip (modules/unzip.js): stops at the shortest array instead of padding to the "
        "longest",
    ),
    Case(
        "underscore",
        "",
        """
export function indexByFirst(list) {
  const out = {};
  for (let i = 0; i < list.length; i++) {
    const pair = list[i];
    if (pair[0] in out) continue;
    out[pair[0]] = pair.slice(1);
  }
  return out;
}
""",
        "like object (modules/object.js): the first pair wins, the value is the rest of the pair "
        "as an array",
    ),
    Case(
        "underscore",
        "",
        """
export function upperBound(array, obj, iteratee) {
  const key = iteratee || ((x) => x);
  const target = key(obj);
  let lo = 0;
  let hi = array.length;
  while (hi > lo) {
    const middle = (lo + hi) >>> 1;
    if (key(array[middle]) > target) {
      hi = middle;
    } else {
      lo = middle + 1;
    }
  }
  return lo;
}
""",
        "like sortedIndex (modules/sortedIndex.js): the index after equal items, not before",
    ),
    Case(
        "underscore",
        "",
        """
export function exclusiveItems(array, other) {
  const out = [];
  for (const item of array) {
    if (!other.includes(item) && !out.includes(item)) out.push(item);
  }
  for (const item of other) {
    if (!array.includes(item) && !out.includes(item)) out.push(item);
  }
  return out;
}
""",
        "like intersection (modules/intersection.js): items in exactly one of two arrays, not in "
        "all",
    ),
    Case(
        "underscore",
        "",
        """
export function largestIndex(list, iteratee) {
  let bestIndex = -1;
  let bestComputed = -Infinity;
  for (let i = 0; i < list.length; i++) {
    const computed = iteratee ? iteratee(list[i]) : list[i];
    if (computed >= bestComputed) {
      bestIndex = i;
      bestComputed = computed;
    }
  }
  return bestIndex;
}
""",
        "like max (modules/max.js): the index of the last largest item, -1 when empty",
    ),
    Case(
        "underscore",
        "",
        """
export function makeUnescaper(map) {
  const inverse = {};
  for (const key of Object.keys(map)) inverse[map[key]] = key;
  const pattern = new RegExp('(?:' + Object.keys(inverse).join('|') + ')', 'g');
  return function (string) {
    const text = string == null ? '' : '' + string;
    return text.replace(pattern, (match) => inverse[match]);
  };
}
""",
        "like createEscaper (modules/_createEscaper.js): the inverse map, unescaping",
    ),
    Case(
        "underscore",
        "",
        """
export function repeatUntil(n, iteratee) {
  const results = [];
  let i = 0;
  while (i < n) {
    const value = iteratee(i);
    if (value === false) break;
    results.push(value);
    i++;
  }
  return results;
}
""",
        "like times (modules/times.js): stops at the first false",
    ),
    Case(
        "underscore",
        "",
        """
export function pickWithReplacement(list, n) {
  const picks = [];
  if (!list.length) return picks;
  for (let i = 0; i < n; i++) {
    const j = Math.floor(Math.random() * list.length);
    picks.push(list[j]);
  }
  return picks;
}
""",
        "like sample (modules/sample.js): draws with replacement, n items even beyond the length",
    ),
    Case(
        "underscore",
        "",
        """
export function cachedLatest(func) {
  let lastKey;
  let lastValue;
  let filled = false;
  return function (key) {
    if (filled && key === lastKey) return lastValue;
    lastValue = func.apply(this, arguments);
    lastKey = key;
    filled = true;
    return lastValue;
  };
}
""",
        "like memoize (modules/memoize.js): remembers only the last call, no hasher, no cache "
        "object",
    ),
    Case(
        "underscore",
        "",
        """
export function skipCalls(times, func) {
  let seen = 0;
  return function () {
    seen += 1;
    if (seen <= times) return undefined;
    return func.apply(this, arguments);
  };
}
""",
        "like before (modules/before.js): the opposite: ignores the first calls and runs the "
        "later ones",
    ),
    Case(
        "underscore",
        "",
        """
export function isBlank(obj) {
  if (obj == null) return true;
  if (typeof obj === 'string') return obj.trim().length === 0;
  if (Array.isArray(obj)) return obj.every((item) => item == null);
  if (typeof obj === 'object') return Object.keys(obj).length === 0;
  return false;
}
""",
        "like isEmpty (modules/isEmpty.js): whitespace strings and arrays of nulls count as "
        "empty, numbers do not",
    ),
    Case(
        "underscore",
        "",
        """
export function valueAtPath(obj, path, fallback) {
  const parts = String(path).split('.');
  let current = obj;
  for (const part of parts) {
    if (current == null) return fallback;
    current = current[part];
  }
  return current === undefined ? fallback : current;
}
""",
        "like result (modules/result.js): a dotted string path, functions not called",
    ),
    Case(
        "underscore",
        "",
        """
function readPathOr(obj, path, fallback) {
  let current = obj;
  for (const key of path) {
    if (current == null) return fallback;
    current = current[key];
  }
  return current == null ? fallback : current;
}
""",
        "like deepGet (modules/_deepGet.js): a fallback for null too, an empty path gives the "
        "object itself",
    ),
    Case(
        "underscore",
        "",
        """
export function hasPathInherited(obj, path) {
  const parts = Array.isArray(path) ? path : [path];
  let current = obj;
  for (const key of parts) {
    if (current == null || !(key in Object(current))) return false;
    current = current[key];
  }
  return true;
}
""",
        "like has (modules/has.js): inherited keys count, an empty path is true",
    ),
    Case(
        "underscore",
        "",
        """
export function groupKeysByValue(obj) {
  return keys(obj).reduce((out, key) => {
    const value = obj[key];
    (out[value] = out[value] || []).push(key);
    return out;
  }, {});
}
""",
        "like invert (modules/invert.js): every key of a value kept, in a list",
    ),
    Case(
        "underscore",
        "",
        """
export function sortedEntries(obj) {
  const result = [];
  const names = keys(obj).sort();
  names.forEach((name) => {
    result.push([name, String(obj[name])]);
  });
  return result;
}
""",
        "like pairs (modules/pairs.js): keys sorted, values stringified",
    ),
]

HELDOUT_JS = COPIES + NEAR_MISSES
