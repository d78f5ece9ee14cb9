"""HELD-OUT TypeScript near-copy set (#34, #35), never tuned on; format in nearcopy_languages.py.

Project helpers: immer 10.1.1 (src/utils/common.ts) and @reduxjs/toolkit 2.3.0 (src/utils.ts,
src/serializableStateInvariantMiddleware.ts, src/query/utils/*.ts, src/query/fetchBaseQuery.ts),
both from npm with their TypeScript sources (no TanStack package: the code index's real projects use
query-core). Copies are rewritten as agents do in TypeScript: `.forEach`/`.some`/`.every` and `for
... of` loops that return, nested ternaries and `if` chains, early returns and `else`, inlined
private helpers and regex constants, reordered independent tests, renamed locals, a new name.
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "ts"
SUFFIX = ".ts"
PROJECTS = {
    "immer": Project("ts", "npm", "immer@10.1.1", "src", (".ts",)),
    "rtk": Project("ts", "npm", "@reduxjs/toolkit@2.3.0", "src", (".ts",)),
}

COPIES = [
    # -- immer: src/utils/common.ts
    # ------------------------------------------------------------------
    Case(
        "immer",
        "isDraftable",
        """
export function canBeDrafted(value: any): boolean {
  if (!value) return false
  if (isMap(value) || isSet(value)) return true
  if (Array.isArray(value) || isPlainObject(value)) return true
  if (value[DRAFTABLE]) return true
  return !!value.constructor?.[DRAFTABLE]
}
""",
        "src/utils/common.ts: one || chain as early returns, operands reordered",
    ),
    Case(
        "immer",
        "isPlainObject",
        """
export function isPojo(value: any): boolean {
  if (typeof value !== "object" || !value) return false
  const prototype = Object.getPrototypeOf(value)
  if (prototype === null) return true
  const ctor = Object.hasOwnProperty.call(prototype, "constructor") && prototype.constructor
  if (ctor === Object) return true
  if (typeof ctor != "function") return false
  return Function.toString.call(ctor) === objectCtorString
}
""",
        "src/utils/common.ts: getPrototypeOf alias inlined, the last && as an early return, || "
        "operands swapped",
    ),
    Case(
        "immer",
        "each",
        """
export function forEachEntry(obj: any, visit: any) {
  if (getArchtype(obj) !== ArchType.Object) {
    obj.forEach((entry: any, index: any) => visit(index, entry, obj))
    return
  }
  for (const key of Reflect.ownKeys(obj)) {
    visit(key, obj[key], obj)
  }
}
""",
        "src/utils/common.ts: branches swapped with an early return, .forEach over keys as "
        "for...of",
    ),
    Case(
        "immer",
        "getArchtype",
        """
export function kindOf(thing: any): ArchType {
  const state: undefined | ImmerState = thing[DRAFT_STATE]
  if (state) return state.type_
  if (Array.isArray(thing)) return ArchType.Array
  if (thing instanceof Map) return ArchType.Map
  if (thing instanceof Set) return ArchType.Set
  return ArchType.Object
}
""",
        "src/utils/common.ts: the nested ternary as an if chain, isMap/isSet inlined as instanceof",
    ),
    Case(
        "immer",
        "set",
        """
export function assignProp(thing: any, prop: PropertyKey, value: any) {
  const kind = getArchtype(thing)
  if (kind === ArchType.Set) {
    thing.add(value)
    return
  }
  if (kind === ArchType.Map) {
    thing.set(prop, value)
    return
  }
  thing[prop] = value
}
""",
        "src/utils/common.ts: Map and Set branches swapped, else-if as early returns",
    ),
    Case(
        "immer",
        "is",
        """
export function sameValue(a: any, b: any): boolean {
  if (a === b) {
    if (a !== 0) return true
    return 1 / a === 1 / b
  }
  const aIsNaN = a !== a
  const bIsNaN = b !== b
  return aIsNaN && bIsNaN
}
""",
        "src/utils/common.ts: the || split into an early return, the else dropped, the NaN tests "
        "named",
    ),
    Case(
        "immer",
        "freeze",
        """
export function deepFreeze<T>(obj: any, deep: boolean = false): T {
  if (Object.isFrozen(obj) || isDraft(obj) || !isDraftable(obj)) return obj
  const kind = getArchtype(obj)
  if (kind === ArchType.Map || kind === ArchType.Set) {
    obj.set = obj.add = obj.clear = obj.delete = dontMutateFrozenCollections as any
  }
  Object.freeze(obj)
  if (deep) {
    for (const [, value] of Object.entries(obj)) deepFreeze(value, true)
  }
  return obj
}
""",
        "src/utils/common.ts: isFrozen inlined, `> 1` spelled as Map or Set, .forEach as for...of",
    ),
    # -- @reduxjs/toolkit
    # ------------------------------------------------------------------------------
    Case(
        "immer",
        "shallowCopy",
        """
export function cloneShallow(base: any, strict: StrictMode) {
  if (Array.isArray(base)) return Array.prototype.slice.call(base)
  if (isSet(base)) return new Set(base)
  if (isMap(base)) return new Map(base)
  const plain = isPlainObject(base)
  const strictCopy = strict === true || (strict === "class_only" && !plain)
  if (!strictCopy) {
    const proto = getPrototypeOf(base)
    if (proto !== null && plain) {
      return {...base}
    }
    return Object.assign(Object.create(proto), base)
  }
  const descriptors = Object.getOwnPropertyDescriptors(base)
  delete descriptors[DRAFT_STATE as any]
  for (const key of Reflect.ownKeys(descriptors) as any[]) {
    const desc = descriptors[key]
    if (desc.writable === false) {
      desc.writable = true
      desc.configurable = true
    }
    if (desc.get || desc.set) {
      descriptors[key] = {configurable: true, writable: true, enumerable: desc.enumerable, value: base[key]}
    }
  }
  return Object.create(getPrototypeOf(base), descriptors)
}
""",
        "src/utils/common.ts: the collection tests reordered, the sloppy copy first (if/else "
        "swapped), the index loop as for...of",
    ),
    Case(
        "rtk",
        "isFSA",
        """
export function isFluxStandardAction(action: unknown): boolean {
  if (!isAction(action)) return false
  for (const key of Object.keys(action)) {
    if (!['type', 'payload', 'error', 'meta'].includes(key)) return false
  }
  return true
}
""",
        "src/createAction.ts: .every(isValidKey) as a loop that returns, isValidKey inlined "
        "(indexOf > -1 as includes)",
    ),
    Case(
        "rtk",
        "joinUrls",
        """
export function buildUrl(base: string | undefined, url: string | undefined): string {
  if (!base) return url!
  if (!url) return base
  if (/(^|:)\\/\\//.test(url)) return url
  const separator = !url.startsWith('?') || base.endsWith('/') ? '/' : ''
  const head = base.replace(/\\/$/, '')
  const tail = url.replace(/^\\//, '')
  return head + separator + tail
}
""",
        "src/query/utils/joinUrls.ts: isAbsoluteUrl and both slash helpers inlined, || operands "
        "swapped",
    ),
    Case(
        "rtk",
        "copyWithStructuralSharing",
        """
export function shareUnchanged(previous: any, next: any): any {
  const bothArrays = Array.isArray(previous) && Array.isArray(next)
  const bothObjects = isPlainObject(previous) && isPlainObject(next)
  if (previous === next || !(bothObjects || bothArrays)) {
    return next
  }
  const keys = Object.keys(next)
  let unchanged = keys.length === Object.keys(previous).length
  const merged: any = Array.isArray(next) ? [] : {}
  for (const key of keys) {
    merged[key] = shareUnchanged(previous[key], next[key])
    unchanged = unchanged && previous[key] === merged[key]
  }
  return unchanged ? previous : merged
}
""",
        "src/query/utils/copyWithStructuralSharing.ts: the guard's tests named, the if as &&, "
        "locals renamed",
    ),
    Case(
        "rtk",
        "find",
        """
export function findFirst<T>(source: Iterable<T>, test: (item: T) => boolean): T | undefined {
  let found: T | undefined = undefined
  for (const candidate of source) {
    if (!test(candidate)) continue
    found = candidate
    break
  }
  return found
}
""",
        "src/utils.ts: the return inside the loop as a result variable and break",
    ),
    Case(
        "rtk",
        "emplace",
        """
export function upsert<K extends object, V>(map: WeakMap<K, V>, key: K, handler: WeakMapEmplaceHandler<K, V>): V {
  if (!map.has(key)) {
    if (!handler.insert) {
      throw new Error('No insert provided for key not already in map')
    }
    const created = handler.insert(key, map)
    map.set(key, created)
    return created
  }
  const current = map.get(key) as V
  if (!handler.update) return current
  const updated = handler.update(current, key, map)
  map.set(key, updated)
  return updated
}
""",
        "src/utils.ts: the missing-key case first, the update test inverted into an early return",
    ),
    Case(
        "rtk",
        "isPlain",
        """
export function isJsonLike(val: any) {
  if (val === null || val === undefined) return true
  switch (typeof val) {
    case 'string':
    case 'number':
    case 'boolean':
      return true
  }
  return isPlainObject(val) || Array.isArray(val)
}
""",
        "src/serializableStateInvariantMiddleware.ts: == null split, the typeof tests as a "
        "switch, operands swapped",
    ),
    Case(
        "rtk",
        "isNestedFrozen",
        """
export function deeplyFrozen(value: object): boolean {
  return (
    Object.isFrozen(value) &&
    Object.values(value).every(
      (nested) => typeof nested !== 'object' || nested === null || deeplyFrozen(nested),
    )
  )
}
""",
        "src/serializableStateInvariantMiddleware.ts: the loop with continue and return false as "
        ".every",
    ),
    Case(
        "rtk",
        "findNonSerializableValue",
        """
export function locateUnserializable(
  value: unknown,
  path: string = '',
  isSerializable: (value: unknown) => boolean = isPlain,
  getEntries?: (value: unknown) => [string, any][],
  ignoredPaths: IgnorePaths = [],
  cache?: WeakSet<object>,
): NonSerializableValue | false {
  if (!isSerializable(value)) return { keyPath: path || '<root>', value }
  if (typeof value !== 'object' || value === null) return false
  if (cache?.has(value)) return false
  const entries = getEntries == null ? Object.entries(value) : getEntries(value)
  for (const [key, nested] of entries) {
    const nestedPath = path ? `${path}.${key}` : key
    let ignored = false
    for (const pattern of ignoredPaths) {
      if (pattern instanceof RegExp ? pattern.test(nestedPath) : nestedPath === pattern) {
        ignored = true
        break
      }
    }
    if (ignored) continue
    if (!isSerializable(nested)) return { keyPath: nestedPath, value: nested }
    if (typeof nested === 'object') {
      const found = locateUnserializable(nested, nestedPath, isSerializable, getEntries, ignoredPaths, cache)
      if (found) return found
    }
  }
  if (cache && isNestedFrozen(value)) cache.add(value)
  return false
}
""",
        "src/serializableStateInvariantMiddleware.ts: ignoredPaths.some as a loop with a flag, "
        "the != null test flipped",
    ),
    Case(
        "rtk",
        "stripUndefined",
        """
function withoutUndefined(obj: any) {
  if (!isPlainObject(obj)) return obj
  const result: Record<string, any> = { ...obj }
  Object.keys(result).forEach((key) => {
    if (result[key] === undefined) delete result[key]
  })
  return result
}
""",
        "src/query/fetchBaseQuery.ts: for...of over entries as .forEach over keys",
    ),
]

NEAR_MISSES = [
    Case(
        "immer",
        "",
        """
export function cloneLoose(base: any) {
  if (Array.isArray(base)) return [...base]
  if (isSet(base)) return new Set(base)
  if (isMap(base)) return new Map(base)
  const copy: any = {}
  for (const key of Object.keys(base)) {
    copy[key] = base[key]
  }
  return copy
}
""",
        "like shallowCopy (src/utils/common.ts): a plain object always (the prototype lost), only "
        "enumerable string keys",
    ),
    Case(
        "rtk",
        "",
        """
export function isPayloadAction(action: unknown): boolean {
  if (!isAction(action)) return false
  for (const key of ['type', 'payload']) {
    if (!Object.keys(action).includes(key)) return false
  }
  return true
}
""",
        "like isFSA (src/createAction.ts): requires a payload key and allows any other keys",
    ),
    Case(
        "immer",
        "",
        """
export function isContainer(value: any): boolean {
  if (!value) return false
  if (Array.isArray(value)) return true
  if (isPlainObject(value)) return true
  if (value[DRAFTABLE]) return true
  return typeof value === "object"
}
""",
        "like isDraftable (src/utils/common.ts): any object counts, the constructor's marker and "
        "Map/Set tests gone",
    ),
    Case(
        "immer",
        "",
        """
export function isObjectRecord(value: any): boolean {
  if (typeof value !== "object" || !value) return false
  const prototype = Object.getPrototypeOf(value)
  if (prototype === null) return true
  if (Array.isArray(value)) return true
  return prototype === Object.prototype || prototype === Array.prototype
}
""",
        "like isPlainObject (src/utils/common.ts): arrays count, another realm's objects do not",
    ),
    Case(
        "immer",
        "",
        """
export function forEachValue(obj: any, visit: any) {
  if (obj instanceof Map || obj instanceof Set || Array.isArray(obj)) {
    obj.forEach((entry: any, index: any) => visit(entry, index))
    return
  }
  for (const key of Object.keys(obj)) {
    visit(obj[key], key)
  }
}
""",
        "like each (src/utils/common.ts): value before key, no source argument, only enumerable "
        "string keys",
    ),
    Case(
        "immer",
        "",
        """
export function shapeOf(thing: any): ArchType {
  if (thing instanceof Set) return ArchType.Set
  if (thing instanceof Map) return ArchType.Map
  if (typeof thing.length === "number") return ArchType.Array
  if (thing[DRAFT_STATE]) return ArchType.Object
  return ArchType.Object
}
""",
        "like getArchtype (src/utils/common.ts): a draft's own type ignored, any array-like "
        "counts as an array",
    ),
    Case(
        "immer",
        "",
        """
export function addOrAssign(thing: any, prop: PropertyKey, value: any) {
  const kind = getArchtype(thing)
  if (kind === ArchType.Set) {
    thing.add(prop)
    return
  }
  if (kind === ArchType.Map) {
    thing.set(value, prop)
    return
  }
  thing[prop] = value
}
""",
        "like set (src/utils/common.ts): a Set gets the key, a Map gets key and value swapped",
    ),
    Case(
        "immer",
        "",
        """
export function sameValueZero(a: any, b: any): boolean {
  if (a === b) {
    return true
  }
  const aIsNaN = a !== a
  const bIsNaN = b !== b
  return aIsNaN && bIsNaN
}
""",
        "like is (src/utils/common.ts): +0 and -0 are equal (SameValueZero, not Object.is)",
    ),
    Case(
        "immer",
        "",
        """
export function freezeAll<T>(obj: any, deep: boolean = true): T {
  if (obj === null || typeof obj !== "object" || Object.isFrozen(obj)) return obj
  Object.freeze(obj)
  if (deep) {
    for (const [, value] of Object.entries(obj)) freezeAll(value, true)
  }
  return obj
}
""",
        "like freeze (src/utils/common.ts): deep by default, class instances and drafts frozen, "
        "Map/Set left writable",
    ),
    Case(
        "rtk",
        "",
        """
export function joinPath(base: string | undefined, url: string | undefined): string {
  if (!base) return url ?? ''
  if (!url) return base
  const head = base.replace(/\\/+$/, '')
  const tail = url.replace(/^\\/+/, '')
  return head + '/' + tail
}
""",
        "like joinUrls (src/query/utils/joinUrls.ts): absolute urls joined too, always a slash "
        "even before '?'",
    ),
    Case(
        "rtk",
        "",
        """
export function mergeShallow(previous: any, next: any): any {
  if (previous === next || !isPlainObject(previous) || !isPlainObject(next)) {
    return next
  }
  const merged: any = {}
  for (const key of Object.keys(next)) {
    merged[key] = previous[key] === next[key] ? previous[key] : next[key]
  }
  return merged
}
""",
        "like copyWithStructuralSharing (...copyWithStructuralSharing.ts): one level, never "
        "returns the old object",
    ),
    Case(
        "rtk",
        "",
        """
export function findLast<T>(source: Iterable<T>, test: (item: T) => boolean): T | undefined {
  let found: T | undefined = undefined
  for (const candidate of source) {
    if (!test(candidate)) continue
    found = candidate
  }
  return found
}
""",
        "like find (src/utils.ts): the last match, not the first",
    ),
    Case(
        "rtk",
        "",
        """
export function getOr<K extends object, V>(map: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  if (!map.has(key)) {
    const created = make(key)
    return created
  }
  const current = map.get(key) as V
  return current
}
""",
        "like emplace (src/utils.ts): a missing key's default is returned, never stored; no "
        "update, no throw",
    ),
    Case(
        "rtk",
        "",
        """
export function isPrimitiveValue(val: any) {
  if (val === null || val === undefined) return false
  switch (typeof val) {
    case 'string':
    case 'number':
    case 'boolean':
      return true
  }
  return false
}
""",
        "like isPlain (src/serializableStateInvariantMiddleware.ts): null/undefined and "
        "containers are not",
    ),
    Case(
        "rtk",
        "",
        """
export function frozenOneLevel(value: object): boolean {
  return (
    Object.isFrozen(value) &&
    Object.values(value).every(
      (nested) => typeof nested !== 'object' || nested === null || Object.isSealed(nested),
    )
  )
}
""",
        "like isNestedFrozen (...serializableStateInvariantMiddleware.ts): one level deep, sealed "
        "counts as enough",
    ),
    Case(
        "rtk",
        "",
        """
export function listUnserializable(
  value: unknown,
  path: string = '',
  isSerializable: (value: unknown) => boolean = isPlain,
): string[] {
  if (!isSerializable(value)) return [path || '<root>']
  if (typeof value !== 'object' || value === null) return []
  const found: string[] = []
  for (const [key, nested] of Object.entries(value)) {
    const nestedPath = path ? `${path}/${key}` : key
    found.push(...listUnserializable(nested, nestedPath, isSerializable))
  }
  return found
}
""",
        "like findNonSerializableValue (...): every path, slash separated, no ignored paths, no "
        "cache",
    ),
    Case(
        "rtk",
        "",
        """
function withoutEmpty(obj: any) {
  if (!isPlainObject(obj)) return obj
  const result: Record<string, any> = { ...obj }
  Object.keys(result).forEach((key) => {
    if (result[key] == null || result[key] === '') delete result[key]
  })
  return result
}
""",
        "like stripUndefined (src/query/fetchBaseQuery.ts): drops null and '' too",
    ),
]

HELDOUT_TS = COPIES + NEAR_MISSES
