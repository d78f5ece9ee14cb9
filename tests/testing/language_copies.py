"""A project helper per language, a restructured copy of it, and a near miss (one step done
otherwise): what the tools sidecar must name, and must not (`code.language_copies`)."""

from __future__ import annotations

TS_HELPER = """export function withTrailingSlash(input = "", respectQueryAndFragment?: boolean): string {
  if (!respectQueryAndFragment) {
    return input.endsWith("/") ? input : input + "/";
  }
  let path = input;
  let fragment = "";
  const fragmentIndex = input.indexOf("#");
  if (fragmentIndex >= 0) {
    path = input.slice(0, fragmentIndex);
    fragment = input.slice(fragmentIndex);
  }
  const [s0, ...s] = path.split("?");
  return s0 + "/" + (s.length > 0 ? `?${s.join("?")}` : "") + fragment;
}
"""
# branches swapped, every local renamed, the function renamed
TS_COPY = """export function ensureSlash(url = "", keepQuery?: boolean): string {
  if (keepQuery) {
    let base = url;
    let hash = "";
    const hashAt = url.indexOf("#");
    if (hashAt >= 0) {
      base = url.slice(0, hashAt);
      hash = url.slice(hashAt);
    }
    const [head, ...rest] = base.split("?");
    return head + "/" + (rest.length > 0 ? `?${rest.join("?")}` : "") + hash;
  }
  return url.endsWith("/") ? url : url + "/";
}
"""
TS_NEAR_MISS = TS_COPY.replace(
    ".endsWith", ".startsWith"
)  # looks at the other end: other behaviour

GO_HELPER = """package text

import "strings"

// Slugify lower-cases s and joins its words with dashes.
func Slugify(s string) string {
\tvar words []string
\tfor _, word := range strings.Fields(strings.ToLower(s)) {
\t\tword = strings.Trim(word, ".,;:!?")
\t\tif word != "" {
\t\t\twords = append(words, word)
\t\t}
\t}
\treturn strings.Join(words, "-")
}
"""
GO_COPY = """package web

import "strings"

func makeSlug(title string) string {
\tparts := []string{}
\tfor _, p := range strings.Fields(strings.ToLower(title)) {
\t\tp = strings.Trim(p, ".,;:!?")
\t\tif p == "" {
\t\t\tcontinue
\t\t}
\t\tparts = append(parts, p)
\t}
\treturn strings.Join(parts, "-")
}
"""
GO_NEAR_MISS = GO_COPY.replace("strings.ToLower", "strings.ToUpper")

RUST_HELPER = """pub fn parse_pair(text: &str, separator: char) -> Option<(String, String)> {
    let index = text.find(separator)?;
    let key = text[..index].trim().to_string();
    let value = text[index + 1..].trim().to_string();
    if key.is_empty() {
        return None;
    }
    Some((key, value))
}
"""
RUST_COPY = """pub fn split_entry(line: &str, sep: char) -> Option<(String, String)> {
    let at = line.find(sep)?;
    let name = line[..at].trim().to_string();
    if name.is_empty() {
        return None;
    }
    let rest = line[at + 1..].trim().to_string();
    Some((name, rest))
}
"""
RUST_NEAR_MISS = RUST_COPY.replace(".trim()", ".trim_start()")

JAVA_HELPER = """package app.util;

public final class Strings {
    public static String capitalizeWords(String text, String separator) {
        StringBuilder out = new StringBuilder();
        for (String word : text.split(separator)) {
            if (word.isEmpty()) {
                continue;
            }
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1)).append(" ");
        }
        return out.toString().trim();
    }
}
"""
JAVA_COPY = """package app.web;

public final class Titles {
    static String titleCase(String s, String sep) {
        StringBuilder b = new StringBuilder();
        for (String w : s.split(sep)) {
            if (!w.isEmpty()) {
                b.append(Character.toUpperCase(w.charAt(0))).append(w.substring(1)).append(" ");
            }
        }
        return b.toString().trim();
    }
}
"""
JAVA_NEAR_MISS = JAVA_COPY.replace("toUpperCase", "toLowerCase")

JS_HELPER = """function chunk(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}
module.exports = { chunk };
"""
JS_COPY = """export function inGroups(list, n) {
  const groups = [];
  let start = 0;
  while (start < list.length) {
    groups.push(list.slice(start, start + n));
    start += n;
  }
  return groups;
}
"""
JS_NEAR_MISS = JS_COPY.replace("list.slice(start, start + n)", "list.splice(start, start + n)")
