"""Restructured copies in TypeScript, JavaScript, Go, Rust and Java, written for tuning the rewrites
`code.languages.behaviour` undoes (not the held-out sets): (language, helper, copy, near miss), the
helper first in its file. The copy does what the helper does, one rewrite away; the near miss is the
copy with one condition, separator or edge case done otherwise."""

from __future__ import annotations

TS_SOME = """export function hasHeader(headers: string[], wanted: string): boolean {
  const key = wanted.toLowerCase();
  return headers.some((header) => header.trim().toLowerCase() === key);
}
"""
# `.some` written as a loop that returns, the locals renamed
TS_SOME_COPY = """export function containsHeader(list: string[], name: string): boolean {
  const lowered = name.toLowerCase();
  for (const item of list) {
    if (item.trim().toLowerCase() === lowered) {
      return true;
    }
  }
  return false;
}
"""
TS_SOME_MISS = TS_SOME_COPY.replace("return true;\n", "return false;\n").replace(
    "  return false;\n}", "  return true;\n}"
)  # every item other: the other answer

JS_MAP = """function headerLines(headers, prefix) {
  const names = Object.keys(headers);
  return names
    .filter((name) => headers[name] !== undefined)
    .map((name) => prefix + name + ": " + String(headers[name]));
}
"""
# `.filter().map()` written as a loop that pushes
JS_MAP_COPY = """function formatHeaders(map, lead) {
  const out = [];
  for (const key of Object.keys(map)) {
    if (map[key] === undefined) {
      continue;
    }
    out.push(lead + key + ": " + String(map[key]));
  }
  return out;
}
"""
JS_MAP_MISS = JS_MAP_COPY.replace('": "', '" = "')  # another separator

TS_MIRROR = """export function clampPage(page: number, pages: number): number {
  if (page < 1) {
    return 1;
  }
  if (page > pages) {
    return pages;
  }
  return Math.floor(page);
}
"""
# comparisons mirrored, early returns as else branches
TS_MIRROR_COPY = """export function boundedPage(p: number, total: number): number {
  if (1 > p) {
    return 1;
  } else if (total < p) {
    return total;
  } else {
    return Math.floor(p);
  }
}
"""
TS_MIRROR_MISS = TS_MIRROR_COPY.replace("total < p", "p < total")  # the other end

GO_LOOP = """package text

import "strings"

// CountPrefixed counts the lines that start with prefix once trimmed.
func CountPrefixed(lines []string, prefix string) int {
\tcount := 0
\tfor i := 0; i < len(lines); i++ {
\t\tif strings.HasPrefix(strings.TrimSpace(lines[i]), prefix) {
\t\t\tcount++
\t\t}
\t}
\treturn count
}
"""
# an index loop as a range loop, the test mirrored into a guard
GO_LOOP_COPY = """package web

import "strings"

func numWithPrefix(rows []string, p string) int {
\tn := 0
\tfor _, row := range rows {
\t\tif !strings.HasPrefix(strings.TrimSpace(row), p) {
\t\t\tcontinue
\t\t}
\t\tn++
\t}
\treturn n
}
"""
GO_LOOP_MISS = GO_LOOP_COPY.replace("strings.HasPrefix", "strings.HasSuffix")

RUST_ANY = """pub fn has_flag(args: &[String], flag: &str) -> bool {
    let wanted = flag.trim_start_matches('-');
    args.iter().any(|arg| arg.trim_start_matches('-') == wanted)
}
"""
# `.iter().any()` as a loop that returns
RUST_ANY_COPY = """pub fn flag_given(list: &[String], name: &str) -> bool {
    let bare = name.trim_start_matches('-');
    for item in list {
        if item.trim_start_matches('-') == bare {
            return true;
        }
    }
    false
}
"""
RUST_ANY_MISS = RUST_ANY_COPY.replace("'-'", "'/'")  # another separator

JAVA_ANY = """package app.util;

import java.util.List;

public final class Roles {
    public static boolean hasRole(List<String> roles, String role) {
        String wanted = role.trim();
        return roles.stream().anyMatch(r -> r.trim().equalsIgnoreCase(wanted));
    }
}
"""
# a stream's `anyMatch` as a loop that returns
JAVA_ANY_COPY = """package app.web;

import java.util.List;

public final class Access {
    static boolean roleGranted(List<String> granted, String name) {
        String target = name.trim();
        for (String g : granted) {
            if (g.trim().equalsIgnoreCase(target)) {
                return true;
            }
        }
        return false;
    }
}
"""
JAVA_ANY_MISS = JAVA_ANY_COPY.replace("equalsIgnoreCase", "equals")

JS_EACH = """function collectIds(records, field) {
  const ids = [];
  records.forEach((record) => {
    if (record && record[field] != null) {
      ids.push(String(record[field]).trim());
    }
  });
  return ids;
}
"""
# `.forEach` as a for-of loop, the test turned into a guard (`!a || b == null`: De Morgan)
JS_EACH_COPY = """function idsOf(rows, key) {
  const result = [];
  for (const row of rows) {
    if (!row || row[key] == null) continue;
    result.push(String(row[key]).trim());
  }
  return result;
}
"""
JS_EACH_MISS = JS_EACH_COPY.replace(
    "!row || row", "!row && row"
)  # the guard not turned: another test

TS_INLINE = """export function cacheKey(method: string, url: string, params: Record<string, string>): string {
  const names = Object.keys(params).sort();
  const query = names.map((name) => encodeURIComponent(name) + "=" + encodeURIComponent(params[name]));
  return normalizeMethod(method) + " " + url + "?" + query.join("&");
}

function normalizeMethod(method: string): string {
  return method.trim().toUpperCase();
}
"""
# the private helper written inline, the map as a loop
TS_INLINE_COPY = """export function requestKey(verb: string, target: string, args: Record<string, string>): string {
  const keys = Object.keys(args).sort();
  const parts: string[] = [];
  for (const key of keys) {
    parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(args[key]));
  }
  return verb.trim().toUpperCase() + " " + target + "?" + parts.join("&");
}
"""
TS_INLINE_MISS = TS_INLINE_COPY.replace("verb.trim().toUpperCase()", "verb.trim().toLowerCase()")

GO_ORDER = """package text

import "strings"

// Initials gives the first letter of each word of at least min letters, upper-cased.
func Initials(name string, min int) string {
\tvar out strings.Builder
\twords := strings.Fields(name)
\tif len(words) > 8 {
\t\treturn ""
\t}
\tfor _, word := range words {
\t\tif len(word) >= min {
\t\t\tout.WriteString(strings.ToUpper(word[:1]))
\t\t}
\t}
\treturn out.String()
}
"""
# the locals declared in the other order, the test mirrored
GO_ORDER_COPY = """package web

import "strings"

func shortName(full string, least int) string {
\tparts := strings.Fields(full)
\tvar b strings.Builder
\tif 8 < len(parts) {
\t\treturn ""
\t}
\tfor _, p := range parts {
\t\tif least <= len(p) {
\t\t\tb.WriteString(strings.ToUpper(p[:1]))
\t\t}
\t}
\treturn b.String()
}
"""
GO_ORDER_MISS = GO_ORDER_COPY.replace(
    "least <= len(p)", "least >= len(p)"
)  # the short words instead

TS_FOUND = """export function isAllowedOrigin(origin: string, allowed: string[]): boolean {
  const host = origin.replace(/^https?:\\/\\//, "").toLowerCase();
  if (allowed.indexOf(host) !== -1) {
    return true;
  }
  return allowed.some((entry) => entry.startsWith("*.") && host.endsWith(entry.slice(1)));
}
"""
# the search's position tested as found, the wildcard test as a loop
TS_FOUND_COPY = """export function originPermitted(url: string, list: string[]): boolean {
  const name = url.replace(/^https?:\\/\\//, "").toLowerCase();
  if (list.includes(name)) {
    return true;
  }
  for (const item of list) {
    if (item.startsWith("*.") && name.endsWith(item.slice(1))) {
      return true;
    }
  }
  return false;
}
"""
# another edge: a number, not a condition, differs
TS_FOUND_MISS = TS_FOUND_COPY.replace(
    "name.endsWith(item.slice(1))", "name.endsWith(item.slice(2))"
)
GO_FOUND = """package text

import "strings"

// HasWord reports whether the trimmed, lower-cased text holds word.
func HasWord(text string, word string) bool {
\tcleaned := strings.ToLower(strings.TrimSpace(text))
\tif cleaned == "" {
\t\treturn false
\t}
\treturn strings.Index(cleaned, strings.ToLower(word)) >= 0
}
"""
# `strings.Index(...) >= 0` as `strings.Contains`, the locals renamed
GO_FOUND_COPY = """package web

import "strings"

func containsWord(s string, w string) bool {
\tt := strings.ToLower(strings.TrimSpace(s))
\tif t == "" {
\t\treturn false
\t}
\treturn strings.Contains(t, strings.ToLower(w))
}
"""
GO_FOUND_MISS = GO_FOUND_COPY.replace("strings.Contains(t,", "strings.HasPrefix(t,")

JAVA_MAP = """package app.util;

import java.util.List;
import java.util.stream.Collectors;

public final class Names {
    public static List<String> upperNames(List<String> names, String prefix) {
        return names.stream()
            .filter(n -> n.startsWith(prefix))
            .map(n -> n.substring(prefix.length()).toUpperCase())
            .collect(Collectors.toList());
    }
}
"""
# a stream's filter/map/collect as a loop that adds
JAVA_MAP_COPY = """package app.web;

import java.util.ArrayList;
import java.util.List;

public final class Labels {
    static List<String> stripAndUpper(List<String> items, String p) {
        List<String> out = new ArrayList<>();
        for (String item : items) {
            if (item.startsWith(p)) {
                out.add(item.substring(p.length()).toUpperCase());
            }
        }
        return out;
    }
}
"""
JAVA_MAP_MISS = JAVA_MAP_COPY.replace("item.startsWith(p)", "item.endsWith(p)")

RUST_MAP = """pub fn non_empty_lines(text: &str, indent: usize) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| format!("{}{}", " ".repeat(indent), line.trim_end()))
        .collect()
}
"""
# an iterator chain as a loop that pushes
RUST_MAP_COPY = """pub fn indented_lines(input: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in input.lines() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(format!("{}{}", " ".repeat(width), line.trim_end()));
    }
    out
}
"""
RUST_MAP_MISS = RUST_MAP_COPY.replace("line.trim_end()", "line.trim()")

# language, helper path, helper, copy path, copy, near miss, helper's name
TS_FIRST = """export function firstWhere(items: Iterable<string>, test: (item: string) => boolean): string | undefined {
  let result: string | undefined = undefined;
  for (const item of items) {
    if (test(item)) {
      result = item;
      break;
    }
  }
  return result;
}
"""
# the test as a guard that continues, the locals renamed
TS_FIRST_COPY = """export function pickFirst(source: Iterable<string>, ok: (value: string) => boolean): string | undefined {
  let found: string | undefined = undefined;
  for (const value of source) {
    if (!ok(value)) continue;
    found = value;
    break;
  }
  return found;
}
"""
# the loop goes on: the last match, not the first
TS_FIRST_MISS = TS_FIRST_COPY.replace("    break;\n", "")

TS_SKIP = """export function isSkippedLine(line: string, marker: string): boolean {
  const text = line.trim().toLowerCase();
  if (text.length === 0) {
    return true;
  }
  return text.startsWith(marker) || text.startsWith("//") || text.endsWith(";");
}
"""
# the `||` chain as early returns that say true, its operands in another order
TS_SKIP_COPY = """export function skippable(row: string, prefix: string): boolean {
  const t = row.trim().toLowerCase();
  if (t.length === 0) return true;
  if (t.startsWith("//")) return true;
  if (t.endsWith(";")) return true;
  return t.startsWith(prefix);
}
"""
# an early return that says false: a line is skipped only when it also starts with the prefix
TS_SKIP_MISS = TS_SKIP_COPY.replace(
    'if (t.endsWith(";")) return true;', 'if (!t.endsWith(";")) return false;'
)

JAVA_THROW = """package app.util;

public final class Failures {
    public static void rethrowUnchecked(Throwable error) {
        java.util.Objects.requireNonNull(error);
        if (error instanceof RuntimeException) {
            throw (RuntimeException) error;
        }
        if (error instanceof Error) {
            throw (Error) error;
        }
    }
}
"""
# the two tests in the other order
JAVA_THROW_COPY = """package app.web;

public final class Errors {
    static void propagateIfUnchecked(Throwable t) {
        java.util.Objects.requireNonNull(t);
        if (t instanceof Error) {
            throw (Error) t;
        }
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
    }
}
"""
# says whether it would throw, and throws nothing
JAVA_THROW_MISS = """package app.web;

public final class Errors {
    static boolean propagateIfUnchecked(Throwable t) {
        java.util.Objects.requireNonNull(t);
        if (t instanceof Error) {
            return true;
        }
        if (t instanceof RuntimeException) {
            return true;
        }
        return false;
    }
}
"""

TS_TYPED = """export function currentValue(state: any, key: string): unknown {
  const source: DraftBase = state.modified ? state.copy : state.base;
  if (!source) {
    return undefined;
  }
  const found = Object.prototype.hasOwnProperty.call(source, key);
  return found ? source[key] : state.parent?.lookup(key);
}
"""
# the local's type left out, the guard as an else
TS_TYPED_COPY = """export function readCurrent(s: any, name: string): unknown {
  const source = s.modified ? s.copy : s.base;
  if (source) {
    const found = Object.prototype.hasOwnProperty.call(source, name);
    return found ? source[name] : s.parent?.lookup(name);
  }
  return undefined;
}
"""
# reads the state as it was finalized, not as modified
TS_TYPED_MISS = TS_TYPED_COPY.replace("s.modified ?", "s.finalized ?")

TS_LAZY = """export function labelOrElse(label: string | undefined, fallback: () => string): string {
  if (label !== undefined && label.trim() !== "") {
    return label.trim().toLowerCase().replace(/\\s+/g, "-");
  }
  return fallback().toLowerCase().replace(/\\s+/g, "-");
}
"""
# the locals renamed, the last return as an else
TS_LAZY_COPY = """export function slugOr(text: string | undefined, make: () => string): string {
  if (text !== undefined && text.trim() !== "") {
    return text.trim().toLowerCase().replace(/\\s+/g, "-");
  } else {
    return make().toLowerCase().replace(/\\s+/g, "-");
  }
}
"""
# given the fallback itself, not a function that makes it: nothing is called
TS_LAZY_MISS = TS_LAZY_COPY.replace("make: () => string", "make: string").replace(
    "make().toLowerCase()", "make.toLowerCase()"
)

CASES = [
    ("ts", "src/label.ts", TS_LAZY, "src/copy.ts", TS_LAZY_COPY, TS_LAZY_MISS, "labelOrElse"),
    ("ts", "src/state.ts", TS_TYPED, "src/copy.ts", TS_TYPED_COPY, TS_TYPED_MISS, "currentValue"),
    ("ts", "src/first.ts", TS_FIRST, "src/copy.ts", TS_FIRST_COPY, TS_FIRST_MISS, "firstWhere"),
    ("ts", "src/skip.ts", TS_SKIP, "src/copy.ts", TS_SKIP_COPY, TS_SKIP_MISS, "isSkippedLine"),
    (
        "java",
        "src/main/java/app/util/Failures.java",
        JAVA_THROW,
        "src/main/java/app/web/Errors.java",
        JAVA_THROW_COPY,
        JAVA_THROW_MISS,
        "Failures.rethrowUnchecked",
    ),
    ("ts", "src/headers.ts", TS_SOME, "src/copy.ts", TS_SOME_COPY, TS_SOME_MISS, "hasHeader"),
    ("js", "lib/headers.js", JS_MAP, "lib/copy.js", JS_MAP_COPY, JS_MAP_MISS, "headerLines"),
    ("ts", "src/pages.ts", TS_MIRROR, "src/copy.ts", TS_MIRROR_COPY, TS_MIRROR_MISS, "clampPage"),
    ("go", "text/count.go", GO_LOOP, "web/count.go", GO_LOOP_COPY, GO_LOOP_MISS, "CountPrefixed"),
    ("rust", "src/flags.rs", RUST_ANY, "src/copy.rs", RUST_ANY_COPY, RUST_ANY_MISS, "has_flag"),
    (
        "java",
        "src/main/java/app/util/Roles.java",
        JAVA_ANY,
        "src/main/java/app/web/Access.java",
        JAVA_ANY_COPY,
        JAVA_ANY_MISS,
        "Roles.hasRole",
    ),
    (
        "java",
        "src/main/java/app/util/Names.java",
        JAVA_MAP,
        "src/main/java/app/web/Labels.java",
        JAVA_MAP_COPY,
        JAVA_MAP_MISS,
        "Names.upperNames",
    ),
    ("go", "text/initials.go", GO_ORDER, "web/short.go", GO_ORDER_COPY, GO_ORDER_MISS, "Initials"),
    (
        "ts",
        "src/origin.ts",
        TS_FOUND,
        "src/copy.ts",
        TS_FOUND_COPY,
        TS_FOUND_MISS,
        "isAllowedOrigin",
    ),
    ("go", "text/word.go", GO_FOUND, "web/word.go", GO_FOUND_COPY, GO_FOUND_MISS, "HasWord"),
    ("ts", "src/keys.ts", TS_INLINE, "src/copy.ts", TS_INLINE_COPY, TS_INLINE_MISS, "cacheKey"),
    ("js", "lib/ids.js", JS_EACH, "lib/copy.js", JS_EACH_COPY, JS_EACH_MISS, "collectIds"),
    (
        "rust",
        "src/lines.rs",
        RUST_MAP,
        "src/copy.rs",
        RUST_MAP_COPY,
        RUST_MAP_MISS,
        "non_empty_lines",
    ),
]
