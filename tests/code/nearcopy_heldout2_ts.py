"""SECOND held-out TypeScript near-copy set (#34), never tuned on; format in nearcopy_languages.py.

Written by a helper who never read the matcher (sidekit_hooks/code/, sidekit_hooks/detectors/) and
never ran it on these cases: measure them, never tune on them.

Project helpers: @supabase/auth-js 2.65.1 (src/lib/helpers.ts, src/lib/fetch.ts,
src/lib/local-storage.ts) and mobx 6.13.5 (src/utils/utils.ts, src/utils/comparer.ts,
src/types/listen-utils.ts, src/types/intercept-utils.ts, src/types/observablemap.ts), both from npm
with their TypeScript sources; no other set, session or real-project list uses them. Copies are
rewritten as agents do in TypeScript: `.forEach`/`.filter`/`.map`/`.reduce` and `for ... of` loops
with `push`, `.every` and loops that return, `switch` and `if` chains, ternaries and `if`/`else`,
early returns and `else`, private helpers and constants inlined (dec2hex, sha256, base64urlencode,
isObject, plainObjectString, hasGetOwnPropertySymbols, once), reordered independent tests and
operands, renamed locals, a new name and doc comment. Before this commit each case was transpiled
(syntax only, no type check) and every copy run beside its original (both from the package's
sources, the project's other names stubbed) on sample inputs in Node, with the same results.
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "ts"
SUFFIX = ".ts"
PROJECTS = {
    "authjs": Project("ts", "npm", "@supabase/auth-js@2.65.1", "src", (".ts",)),
    "mobx": Project("ts", "npm", "mobx@6.13.5", "src", (".ts",)),
}

COPIES = [
    # -- @supabase/auth-js: src/lib/helpers.ts ------------------------------------------------
    Case(
        "authjs",
        "uuid",
        r"""
/** A random RFC 4122 version 4 identifier. */
export function randomId(): string {
  let out = ''
  for (const ch of 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx') {
    if (ch !== 'x' && ch !== 'y') {
      out += ch
      continue
    }
    const nibble = (Math.random() * 16) | 0
    const digit = ch === 'x' ? nibble : (nibble & 0x3) | 0x8
    out += digit.toString(16)
  }
  return out
}
""",
        "src/lib/helpers.ts: the replace callback as a for...of loop building the string, the "
        "ternary's test flipped, locals renamed",
    ),
    Case(
        "authjs",
        "parseParametersFromURL",
        r"""
/** Reads the parameters of a redirect URL: its fragment first, then its query, which wins. */
export function urlParams(location: string) {
  const params: { [name: string]: string } = {}
  const parsed = new URL(location)
  if (parsed.hash && parsed.hash[0] === '#') {
    try {
      for (const [name, value] of new URLSearchParams(parsed.hash.substring(1))) {
        params[name] = value
      }
    } catch (e: any) {
      // the fragment is not a query string
    }
  }
  for (const [name, value] of parsed.searchParams) {
    params[name] = value
  }
  return params
}
""",
        "src/lib/helpers.ts: both .forEach callbacks as for...of over entries, the hash params "
        "inlined, locals renamed",
    ),
    Case(
        "authjs",
        "decodeBase64URL",
        r"""
export function fromBase64Url(input: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='
  let decoded = ''
  const text = input.replace('-', '+').replace('_', '/')
  for (let pos = 0; pos < text.length; pos += 4) {
    const a = alphabet.indexOf(text.charAt(pos))
    const b = alphabet.indexOf(text.charAt(pos + 1))
    const c = alphabet.indexOf(text.charAt(pos + 2))
    const d = alphabet.indexOf(text.charAt(pos + 3))
    const first = (a << 2) | (b >> 4)
    const second = ((b & 15) << 4) | (c >> 2)
    const third = ((c & 3) << 6) | d
    decoded += String.fromCharCode(first)
    if (c != 64 && second != 0) decoded += String.fromCharCode(second)
    if (d != 64 && third != 0) decoded += String.fromCharCode(third)
  }
  return decoded
}
""",
        "src/lib/helpers.ts: the while with i++ reads as a for loop stepping by 4, locals "
        "renamed and declared where used, the parameter not reassigned",
    ),
    Case(
        "authjs",
        "decodeJWTPayload",
        r"""
/** The claims of a JSON Web Token, checked for shape but not for signature. */
export function jwtClaims(jwt: string) {
  const segments = jwt.split('.')
  if (segments.length !== 3) {
    throw new Error('JWT is not valid: not a JWT structure')
  }
  const [, body] = segments
  const isBase64Url = /^([a-z0-9_-]{4})*($|[a-z0-9_-]{3}=?$|[a-z0-9_-]{2}(==)?$)$/i.test(body)
  if (!isBase64Url) {
    throw new Error('JWT is not valid: payload is not in base64url format')
  }
  return JSON.parse(decodeBase64URL(body))
}
""",
        "src/lib/helpers.ts: the regex constant inlined after the length check, the payload "
        "destructured, a new name",
    ),
    Case(
        "authjs",
        "retryable",
        r"""
export function withRetries<T>(
  run: (attempt: number) => Promise<T>,
  shouldRetry: (attempt: number, error: any | null, result?: T) => boolean
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const loop = async () => {
      let attempt = 0
      while (true) {
        try {
          const value = await run(attempt)
          if (!shouldRetry(attempt, null, value)) {
            return resolve(value)
          }
        } catch (error: any) {
          if (!shouldRetry(attempt, error)) {
            return reject(error)
          }
        }
        attempt += 1
      }
    }
    loop()
  })
}
""",
        "src/lib/helpers.ts: the for to Infinity as while (true) with a counter, the IIFE as a "
        "named arrow, accept/return as return resolve(...)",
    ),
    Case(
        "authjs",
        "generatePKCEVerifier",
        r"""
export function newCodeVerifier() {
  const size = 56
  if (typeof crypto !== 'undefined') {
    const words = new Uint32Array(size)
    crypto.getRandomValues(words)
    return Array.from(words)
      .map((word) => ('0' + word.toString(16)).substr(-2))
      .join('')
  }
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'
  const picked: string[] = []
  for (let n = 0; n < size; n++) {
    picked.push(chars.charAt(Math.floor(Math.random() * chars.length)))
  }
  return picked.join('')
}
""",
        "src/lib/helpers.ts: the branches swapped (crypto first), dec2hex inlined into a .map, "
        "the string += loop as push and join",
    ),
    Case(
        "authjs",
        "generatePKCEChallenge",
        r"""
export async function codeChallengeFor(verifier: string) {
  if (
    typeof TextEncoder === 'undefined' ||
    typeof crypto === 'undefined' ||
    typeof crypto.subtle === 'undefined'
  ) {
    console.warn(
      'WebCrypto API is not supported. Code challenge method will default to use plain ' +
        'instead of sha256.'
    )
    return verifier
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  let binary = ''
  for (const byte of new Uint8Array(digest)) {
    binary += String.fromCharCode(byte)
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
""",
        "src/lib/helpers.ts: sha256 and base64urlencode inlined (map/join as a loop), the "
        "support test negated into one || chain, operands reordered",
    ),
    Case(
        "authjs",
        "getCodeChallengeAndMethod",
        r"""
export async function pkcePair(
  storage: SupportedStorage,
  storageKey: string,
  isPasswordRecovery = false
) {
  const verifier = generatePKCEVerifier()
  const stored = isPasswordRecovery ? `${verifier}/PASSWORD_RECOVERY` : verifier
  await setItemAsync(storage, `${storageKey}-code-verifier`, stored)
  const challenge = await generatePKCEChallenge(verifier)
  return [challenge, challenge === verifier ? 'plain' : 's256']
}
""",
        "src/lib/helpers.ts: the += suffix as a ternary, the method inlined into the returned "
        "pair with its operands swapped",
    ),
    Case(
        "authjs",
        "parseResponseAPIVersion",
        r"""
/** The API version a response declares in its header (2YYY-MM-DD), as a date. */
export function responseApiDate(response: Response) {
  const header = response.headers.get(API_VERSION_HEADER_NAME)
  const pattern = /^2[0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-9]|3[0-1])$/i
  if (!header || !header.match(pattern)) return null
  try {
    return new Date(`${header}T00:00:00.0Z`)
  } catch (e: any) {
    return null
  }
}
""",
        "src/lib/helpers.ts: the regex constant inlined, the two null returns joined with ||, "
        "the date returned directly",
    ),
    # -- @supabase/auth-js: src/lib/fetch.ts, src/lib/local-storage.ts ------------------------
    Case(
        "authjs",
        "_sessionResponse",
        r"""
export function asAuthResponse(data: any): AuthResponse {
  const user: User = data.user ?? (data as User)
  if (!(data.access_token && data.refresh_token && data.expires_in)) {
    return { data: { session: null, user }, error: null }
  }
  const session = { ...data }
  if (!data.expires_at) {
    session.expires_at = expiresAt(data.expires_in)
  }
  return { data: { session, user }, error: null }
}
""",
        "src/lib/fetch.ts: hasSession inlined and negated into an early return, the user read "
        "first, `let session = null` gone",
    ),
    Case(
        "authjs",
        "_sessionResponsePassword",
        r"""
export function passwordSessionResponse(data: any): AuthResponsePassword {
  const response = _sessionResponse(data) as AuthResponsePassword
  const weak = data.weak_password
  if (response.error || !weak || typeof weak !== 'object') return response
  const reasonsOk =
    Array.isArray(weak.reasons) &&
    weak.reasons.length &&
    weak.reasons.every((reason: any) => typeof reason === 'string')
  if (reasonsOk && weak.message && typeof weak.message === 'string') {
    response.data.weak_password = weak
  }
  return response
}
""",
        "src/lib/fetch.ts: the reduce over reasons as .every, the && chain split into an early "
        "return and a named test, weak_password aliased",
    ),
    Case(
        "authjs",
        "_generateLinkResponse",
        r"""
export function linkResponse(data: any): GenerateLinkResponse {
  const properties: any = {}
  const user: any = { ...data }
  for (const key of [
    'action_link',
    'email_otp',
    'hashed_token',
    'redirect_to',
    'verification_type',
  ]) {
    properties[key] = data[key]
    delete user[key]
  }
  return { data: { properties, user }, error: null }
}
""",
        "src/lib/fetch.ts: the rest destructuring as a loop over the five property names that "
        "copies and deletes, the result built inline",
    ),
    Case(
        "authjs",
        "memoryLocalStorageAdapter",
        r"""
/** A storage that keeps its entries in a plain object, for tests and servers. */
export function inMemoryStorage(entries: { [key: string]: string } = {}): SupportedStorage {
  function getItem(key: string) {
    return entries[key] || null
  }
  function setItem(key: string, value: string) {
    entries[key] = value
  }
  function removeItem(key: string) {
    delete entries[key]
  }
  return { getItem, setItem, removeItem }
}
""",
        "src/lib/local-storage.ts: the arrow properties as inner function declarations returned "
        "in shorthand, the store renamed",
    ),
    # -- mobx: src/utils/utils.ts ---------------------------------------------------------------
    Case(
        "mobx",
        "isPlainObject",
        r"""
export function isPojo(value: any) {
    if (typeof value !== "object" || value === null) return false
    const prototype = Object.getPrototypeOf(value)
    if (prototype == null) return true
    const ctor = Object.hasOwnProperty.call(prototype, "constructor") && prototype.constructor
    if (typeof ctor !== "function") return false
    return ctor.toString() === Object.toString()
}
""",
        "src/utils/utils.ts: isObject inlined and negated, plainObjectString inlined, the && "
        "return split into an early return",
    ),
    Case(
        "mobx",
        "isGenerator",
        r"""
/** Whether fn is a generator (declared with `function*`), across realms. */
export function isGeneratorFn(fn: any): boolean {
    const ctor = fn?.constructor
    return (
        !!ctor &&
        (ctor.displayName === "GeneratorFunction" || ctor.name === "GeneratorFunction")
    )
}
""",
        "src/utils/utils.ts: the ifs as one boolean expression, the || operands and the Yoda "
        "comparisons swapped",
    ),
    Case(
        "mobx",
        "getPlainObjectKeys",
        r"""
export function enumerableOwnKeys(object: any): Array<string | symbol> {
    const names = Object.keys(object)
    if (typeof Object.getOwnPropertySymbols === "undefined") return names
    const result: Array<string | symbol> = [...names]
    for (const symbol of Object.getOwnPropertySymbols(object)) {
        if (Object.prototype.propertyIsEnumerable.call(object, symbol)) {
            result.push(symbol)
        }
    }
    return result
}
""",
        "src/utils/utils.ts: hasGetOwnPropertySymbols inlined, the .filter spread as a loop with "
        "push, the empty-symbols early return folded into the loop",
    ),
    Case(
        "mobx",
        "stringifyKey",
        r"""
export function keyAsString(key: any): string {
    switch (typeof key) {
        case "symbol":
            return key.toString()
        case "string":
            return key
        default:
            return new String(key).toString()
    }
}
""",
        "src/utils/utils.ts: the if chain as a switch on typeof, string and symbol cases swapped",
    ),
    Case(
        "mobx",
        "isStringish",
        r"""
export function isPropertyKeyLike(value: any): value is string | number | symbol {
    const kind = typeof value
    return kind === "number" || kind === "string" || kind === "symbol"
}
""",
        "src/utils/utils.ts: the switch with fallthrough as an || chain, operands reordered",
    ),
    Case(
        "mobx",
        "setFlag",
        r"""
export function updateFlag(bits: number, mask: number, on: boolean): number {
    return on ? bits | mask : bits & ~mask
}
""",
        "src/utils/utils.ts: the if/else with compound assignment as a returned ternary",
    ),
    Case(
        "mobx",
        "once",
        r"""
/** Wraps func so that only its first call runs. */
export function onlyOnce(func: Lambda): Lambda {
    let done = false
    return function (this: any) {
        if (!done) {
            done = true
            return (func as any).apply(this, arguments)
        }
        return undefined
    }
}
""",
        "src/utils/utils.ts: the early return as an if block, the flag renamed",
    ),
    Case(
        "mobx",
        "createInstanceofPredicate",
        r"""
export function markedInstanceTest<T>(
    name: string,
    theClass: new (...args: any[]) => T
): (x: any) => x is T {
    const marker = `isMobX${name}`
    theClass.prototype[marker] = true
    const test = (x: any) => x !== null && typeof x === "object" && x[marker] === true
    return test as any
}
""",
        "src/utils/utils.ts: isObject inlined, the returned function expression as an arrow, the "
        "concatenation as a template string",
    ),
    # -- mobx: src/types/*.ts, src/utils/comparer.ts -----------------------------------------------
    Case(
        "mobx",
        "registerListener",
        r"""
export function addListener(target: IListenable, handler: Function): Lambda {
    if (!target.changeListeners_) {
        target.changeListeners_ = []
    }
    const list = target.changeListeners_
    list.push(handler)
    let removed = false
    return () => {
        if (removed) return
        removed = true
        const at = list.indexOf(handler)
        if (at >= 0) list.splice(at, 1)
    }
}
""",
        "src/types/listen-utils.ts: the || assignment as an if, once inlined as a flag in the "
        "returned arrow, `!== -1` as `>= 0`",
    ),
    Case(
        "mobx",
        "notifyListeners",
        r"""
export function emitChange<T>(target: IListenable, change: T) {
    const previous = untrackedStart()
    const current = target.changeListeners_
    if (!current) return
    for (const listener of [...current]) {
        listener(change)
    }
    untrackedEnd(previous)
}
""",
        "src/types/listen-utils.ts: the copied index loop as for...of over a spread copy, "
        "locals renamed",
    ),
    Case(
        "mobx",
        "interceptChange",
        r"""
export function applyInterceptors<T>(
    target: IInterceptable<T | null>,
    change: T | null
): T | null {
    const previous = untrackedStart()
    try {
        for (const interceptor of (target.interceptors_ || []).slice()) {
            change = interceptor(change)
            if (!change) break
            if (!(change as any).type) die(14)
        }
        return change
    } finally {
        untrackedEnd(previous)
    }
}
""",
        "src/types/intercept-utils.ts: the index loop as for...of over a slice, the break test "
        "moved before the type check (a null change never reaches it)",
    ),
    Case(
        "mobx",
        "convertToMap",
        r"""
function asMap(source: any): Map<any, any> {
    if (Array.isArray(source)) return new Map(source)
    if (isObservableMap(source) || isES6Map(source)) return source
    if (!isPlainObject(source)) return die(21, source)
    const result = new Map()
    for (const key in source) {
        result.set(key, source[key])
    }
    return result
}
""",
        "src/types/observablemap.ts: the else-if chain as early returns, the array test first, "
        "the error branch moved up and negated",
    ),
    Case(
        "mobx",
        "defaultComparer",
        r"""
function sameValueCompare(a: any, b: any): boolean {
    if (!Object.is) {
        if (a === b) return a !== 0 || 1 / a === 1 / b
        return a !== a && b !== b
    }
    return Object.is(a, b)
}
""",
        "src/utils/comparer.ts: the test negated with the fallback first, its ternary as an if",
    ),
    Case(
        "mobx",
        "registerInterceptor",
        r"""
export function addInterceptor<T>(
    target: IInterceptable<T>,
    handler: IInterceptor<T>
): Lambda {
    target.interceptors_ ??= []
    const handlers = target.interceptors_
    handlers.push(handler)
    return once(() => {
        const position = handlers.indexOf(handler)
        if (position === -1) return
        handlers.splice(position, 1)
    })
}
""",
        "src/types/intercept-utils.ts: the || assignment as ??=, the if as an early return, "
        "locals renamed",
    ),
]

NEAR_MISSES = [
    Case(
        "authjs",
        "",
        r"""
export function randomToken(): string {
  let out = ''
  for (const ch of 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx') {
    if (ch !== 'x' && ch !== 'y') {
      out += ch
      continue
    }
    const nibble = (Math.random() * 16) | 0
    out += nibble.toString(16)
  }
  return out
}
""",
        "like uuid (src/lib/helpers.ts): 'y' gets any hex digit, not the RFC variant bits",
    ),
    Case(
        "authjs",
        "",
        r"""
export function redirectParams(location: string) {
  const params: { [name: string]: string } = {}
  const parsed = new URL(location)
  parsed.searchParams.forEach((value, name) => {
    params[name] = value
  })
  if (parsed.hash && parsed.hash[0] === '#') {
    new URLSearchParams(parsed.hash.substring(1)).forEach((value, name) => {
      params[name] = value
    })
  }
  return params
}
""",
        "like parseParametersFromURL (src/lib/helpers.ts): the fragment's parameters win over "
        "the query's",
    ),
    Case(
        "authjs",
        "",
        r"""
export function base64UrlDecode(input: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='
  let decoded = ''
  const text = input.replace(/-/g, '+').replace(/_/g, '/')
  for (let pos = 0; pos < text.length; pos += 4) {
    const a = alphabet.indexOf(text.charAt(pos))
    const b = alphabet.indexOf(text.charAt(pos + 1))
    const c = alphabet.indexOf(text.charAt(pos + 2))
    const d = alphabet.indexOf(text.charAt(pos + 3))
    decoded += String.fromCharCode((a << 2) | (b >> 4))
    if (c != 64) decoded += String.fromCharCode(((b & 15) << 4) | (c >> 2))
    if (d != 64) decoded += String.fromCharCode(((c & 3) << 6) | d)
  }
  return decoded
}
""",
        "like decodeBase64URL (src/lib/helpers.ts): every '-' and '_' replaced, zero bytes kept",
    ),
    Case(
        "authjs",
        "",
        r"""
export function jwtHeader(jwt: string) {
  const segments = jwt.split('.')
  if (segments.length < 2) {
    throw new Error('JWT is not valid: not a JWT structure')
  }
  return JSON.parse(decodeBase64URL(segments[0]))
}
""",
        "like decodeJWTPayload (src/lib/helpers.ts): the header, not the payload; two parts are "
        "enough, no base64url check",
    ),
    Case(
        "authjs",
        "",
        r"""
export async function sleepOrAbort(time: number, signal?: AbortSignal): Promise<null> {
  return await new Promise((accept, reject) => {
    const timer = setTimeout(() => accept(null), time)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(new Error('aborted'))
    })
  })
}
""",
        "like sleep (src/lib/helpers.ts): an abort signal rejects the wait early",
    ),
    Case(
        "authjs",
        "",
        r"""
export function retryAtMost<T>(
  fn: (attempt: number) => Promise<T>,
  maxAttempts: number
): Promise<T> {
  return new Promise<T>((accept, reject) => {
    ;(async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          accept(await fn(attempt))
          return
        } catch (e: any) {
          if (attempt + 1 >= maxAttempts) {
            reject(e)
            return
          }
        }
      }
    })()
  })
}
""",
        "like retryable (src/lib/helpers.ts): retries only on errors, a count instead of a "
        "predicate, results never retried",
    ),
    Case(
        "authjs",
        "",
        r"""
export function randomVerifier() {
  const size = 43
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'
  const bytes = new Uint8Array(size)
  crypto.getRandomValues(bytes)
  let verifier = ''
  for (let i = 0; i < size; i++) {
    verifier += chars.charAt(bytes[i] % chars.length)
  }
  return verifier
}
""",
        "like generatePKCEVerifier (src/lib/helpers.ts): 43 characters of the unreserved set, "
        "never hex, no fallback without crypto",
    ),
    Case(
        "authjs",
        "",
        r"""
export async function hexChallenge(verifier: string) {
  if (typeof crypto === 'undefined' || typeof crypto.subtle === 'undefined') {
    return verifier
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  return Array.from(new Uint8Array(digest))
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
}
""",
        "like generatePKCEChallenge (src/lib/helpers.ts): the digest as hex, not base64url, and "
        "no warning",
    ),
    Case(
        "authjs",
        "",
        r"""
export async function plainChallengeAndMethod(storage: SupportedStorage, storageKey: string) {
  const codeVerifier = generatePKCEVerifier()
  await setItemAsync(storage, `${storageKey}-code-verifier`, codeVerifier)
  return [codeVerifier, 'plain']
}
""",
        "like getCodeChallengeAndMethod (src/lib/helpers.ts): always the plain method, the "
        "verifier itself as the challenge, no recovery suffix",
    ),
    Case(
        "authjs",
        "",
        r"""
export function responseDate(response: Response) {
  const header = response.headers.get('date')
  if (!header) return null
  const date = new Date(header)
  if (isNaN(date.getTime())) return null
  return date
}
""",
        "like parseResponseAPIVersion (src/lib/helpers.ts): the Date header in any format, not "
        "the API version header",
    ),
    Case(
        "authjs",
        "",
        r"""
export function sessionFrom(data: any): AuthResponse {
  let session = null
  if (data.access_token) {
    session = { ...data, expires_at: expiresAt(data.expires_in) }
  }
  const user: User = data.user ?? (data as User)
  return { data: { session, user }, error: null }
}
""",
        "like _sessionResponse (src/lib/fetch.ts): an access token alone makes a session, "
        "expires_at always recomputed",
    ),
    Case(
        "authjs",
        "",
        r"""
export function weakPasswordResponse(data: any): AuthResponsePassword {
  const response = _sessionResponse(data) as AuthResponsePassword
  if (data.weak_password) {
    response.data.weak_password = {
      reasons: data.weak_password.reasons || [],
      message: String(data.weak_password.message || ''),
    }
  }
  return response
}
""",
        "like _sessionResponsePassword (src/lib/fetch.ts): any weak_password copied, no checks, "
        "missing fields defaulted",
    ),
    Case(
        "authjs",
        "",
        r"""
export function linkWithUser(data: any): GenerateLinkResponse {
  const { action_link, email_otp, hashed_token, redirect_to, verification_type } = data
  const properties: any = { action_link, email_otp, hashed_token, redirect_to, verification_type }
  return { data: { properties, user: data.user ?? null }, error: null }
}
""",
        "like _generateLinkResponse (src/lib/fetch.ts): the user is data.user, not the rest of "
        "the fields",
    ),
    Case(
        "authjs",
        "",
        r"""
export function snapshotStorage(entries: { [key: string]: string } = {}): SupportedStorage {
  const store = { ...entries }
  return {
    getItem: (key) => (key in store ? store[key] : null),
    setItem: (key, value) => {
      store[key] = value
    },
    removeItem: (key) => {
      delete store[key]
    },
  }
}
""",
        "like memoryLocalStorageAdapter (src/lib/local-storage.ts): works on a copy (the "
        "caller's object never changes) and returns '' values as stored",
    ),
    Case(
        "mobx",
        "",
        r"""
export function isRecordObject(value: any) {
    if (value === null || typeof value !== "object") return false
    const prototype = Object.getPrototypeOf(value)
    if (prototype == null) return true
    return !Array.isArray(value) && typeof prototype.constructor === "function"
}
""",
        "like isPlainObject (src/utils/utils.ts): any non-array object with a constructor, class "
        "instances included",
    ),
    Case(
        "mobx",
        "",
        r"""
export function isAsyncGenerator(fn: any): boolean {
    const ctor = fn?.constructor
    if (!ctor) return false
    return ctor.name === "AsyncGeneratorFunction" || ctor.displayName === "AsyncGeneratorFunction"
}
""",
        "like isGenerator (src/utils/utils.ts): async generator functions only",
    ),
    Case(
        "mobx",
        "",
        r"""
export function allOwnKeys(object: any): Array<string | symbol> {
    const names = Object.keys(object)
    const result: Array<string | symbol> = [...names]
    for (const symbol of Object.getOwnPropertySymbols(object)) {
        result.push(symbol)
    }
    return result
}
""",
        "like getPlainObjectKeys (src/utils/utils.ts): non-enumerable symbols too",
    ),
    Case(
        "mobx",
        "",
        r"""
export function describeKey(key: any): string {
    switch (typeof key) {
        case "string":
            return key
        case "symbol":
            return key.description ?? ""
        default:
            return JSON.stringify(key)
    }
}
""",
        "like stringifyKey (src/utils/utils.ts): a symbol's description without Symbol(), other "
        "keys as JSON",
    ),
    Case(
        "mobx",
        "",
        r"""
export function isPrimitiveKey(value: any): boolean {
    switch (typeof value) {
        case "string":
        case "number":
        case "bigint":
            return true
    }
    return false
}
""",
        "like isStringish (src/utils/utils.ts): bigint counts, symbols do not",
    ),
    Case(
        "mobx",
        "",
        r"""
export function toggleFlag(flags: number, mask: number, enabled: boolean): number {
    if (enabled) {
        flags ^= mask
    } else {
        flags &= ~mask
    }
    return flags
}
""",
        "like setFlag (src/utils/utils.ts): turning on toggles (xor), a set bit goes off",
    ),
    Case(
        "mobx",
        "",
        r"""
export function memoizeFirst(func: Lambda): Lambda {
    let invoked = false
    let result: any
    return function (this: any) {
        if (invoked) {
            return result
        }
        invoked = true
        result = (func as any).apply(this, arguments)
        return result
    }
}
""",
        "like once (src/utils/utils.ts): later calls return the first result, not undefined",
    ),
    Case(
        "mobx",
        "",
        r"""
export function prependListener(listenable: IListenable, handler: Function): Lambda {
    const listeners = listenable.changeListeners_ || (listenable.changeListeners_ = [])
    listeners.unshift(handler)
    return () => {
        listenable.changeListeners_ = listeners.filter((other) => other !== handler)
    }
}
""",
        "like registerListener (src/types/listen-utils.ts): runs first, and disposing replaces "
        "the list and drops every registration of the handler",
    ),
    Case(
        "mobx",
        "",
        r"""
export function notifyUntilHandled<T>(listenable: IListenable, change: T) {
    const listeners = listenable.changeListeners_
    if (!listeners) {
        return
    }
    for (let i = 0, l = listeners.length; i < l; i++) {
        if (listeners[i](change) === true) {
            break
        }
    }
}
""",
        "like notifyListeners (src/types/listen-utils.ts): stops at the first listener that "
        "returns true, tracks reads, no copy of the list",
    ),
    Case(
        "mobx",
        "",
        r"""
export function chainInterceptors<T>(
    interceptable: IInterceptable<T | null>,
    change: T | null
): T | null {
    for (const interceptor of interceptable.interceptors_ || []) {
        const next = interceptor(change)
        if (next) {
            change = next
        }
    }
    return change
}
""",
        "like interceptChange (src/types/intercept-utils.ts): an interceptor's null is ignored "
        "instead of cancelling, no type check",
    ),
    Case(
        "mobx",
        "",
        r"""
function toLookup(source: any): Map<any, any> {
    if (isES6Map(source)) return source
    const result = new Map()
    if (Array.isArray(source)) {
        for (const key of source) result.set(key, true)
        return result
    }
    for (const key of Object.keys(source || {})) {
        result.set(key, source[key])
    }
    return result
}
""",
        "like convertToMap (src/types/observablemap.ts): an array gives its items as keys, any "
        "object is read, nothing throws",
    ),
    Case(
        "mobx",
        "",
        r"""
function looseComparer(a: any, b: any): boolean {
    if (a === b) {
        return true
    }
    return a == b
}
""",
        "like defaultComparer (src/utils/comparer.ts): loose equality, +0 equals -0 and NaN "
        "never equals itself",
    ),
    Case(
        "mobx",
        "",
        r"""
export function instanceTest<T>(
    name: string,
    theClass: new (...args: any[]) => T
): (x: any) => x is T {
    const test = (x: any) => x instanceof theClass && x.constructor.name === name
    return test as any
}
""",
        "like createInstanceofPredicate (src/utils/utils.ts): a real instanceof and a name "
        "check, no marker on the prototype",
    ),
]

HELDOUT2_TS = COPIES + NEAR_MISSES
