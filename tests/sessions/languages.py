"""Two sessions of issue #34 outside Python, on projects this repository had never used (written by
build.py).

- querypersist: @tanstack/query-persist-client-core 5.59.0 from npm (TypeScript; its package ships
  src/ with its vitest tests), in the plugin form;
- goversion: github.com/hashicorp/go-version v1.7.0 from the Go module proxy (`go test`), in the
  settings form.

Each is a small task a model would be given in that project, played at a model's pace, with the
corpus' three cases at the steps its `covers` names:
- copy: a new private helper that re-implements one the project already has, renamed and
  restructured (querypersist: `withoutOldestQuery()` is `removeOldestQuery()` with the sort turned
  into a loop that keeps the oldest, the filter into a loop with push, the empty case first;
  goversion: `preTagOrder()` is `comparePrereleases()` with the splits in a helper, the padding
  folded into the loop, the temporaries gone);
- red_run: a raw `npx vitest run` / `go test ./...` through Bash after an edit that breaks something
  (the sort goes the wrong way in both), then a fix and a green run;
- out_of_scope: an edit of a file the scope set at the start leaves out (package.json's test script,
  left in; CHANGELOG.md, undone).
goversion's new file also names a function in snake_case (`split_tag`), which no other function in
the module does.

The search steps use grep through Bash: the pinned CLI, as the tests drive it, has no Grep tool (it
answers "No such tool available: Grep" and points the model to grep via Bash).

No labels here: a reviewer who did not write these sessions labels them in
tests/sessions/<name>.labels.json.
"""

from __future__ import annotations

from typing import Any

from build import bash, edit, read

P = "${PROJECT}/"


def write(path: str, content: str) -> dict[str, Any]:
    return {"tool": "Write", "input": {"file_path": P + path, "content": content}}


# --- @tanstack/query-persist-client-core (TypeScript, vitest): removeOldestMutation, plugin form
# ------------

REMOVE_OLDEST_QUERY_END = """  return undefined
}
"""

REMOVE_OLDEST_MUTATION = """
/**
 * Drops the oldest mutation (by `submittedAt`) when persisting fails; with no
 * mutation left to drop, drops the oldest query instead.
 */
export const removeOldestMutation: PersistRetryer = ({ persistedClient }) => {
  const mutations = [...persistedClient.clientState.mutations]
  if (mutations.length === 0) {
    return withoutOldestQuery(persistedClient)
  }

  // sort mutations by submittedAt (oldest first)
  const oldestMutation = [...mutations].sort(
    (a, b) => b.state.submittedAt - a.state.submittedAt,
  )[0]

  return {
    ...persistedClient,
    clientState: {
      queries: [...persistedClient.clientState.queries],
      mutations: mutations.filter((m) => m !== oldestMutation),
    },
  }
}

function withoutOldestQuery(
  persisted: PersistedClient,
): PersistedClient | undefined {
  const queries = persisted.clientState.queries
  if (!queries.length) {
    return undefined
  }

  let oldest = queries[0]!
  for (const query of queries) {
    if (query.state.dataUpdatedAt < oldest.state.dataUpdatedAt) {
      oldest = query
    }
  }

  const kept: typeof queries = []
  for (const query of queries) {
    if (query !== oldest) {
      kept.push(query)
    }
  }
  return {
    ...persisted,
    clientState: { mutations: [...persisted.clientState.mutations], queries: kept },
  }
}
"""

RETRY_TESTS = """import { describe, expect, test } from 'vitest'
import { removeOldestMutation } from '../retryStrategies'
import type { PersistedClient } from '../persist'

function persistedClient(
  queryTimes: Array<number>,
  mutationTimes: Array<number>,
): PersistedClient {
  return {
    timestamp: 1,
    buster: '',
    clientState: {
      queries: queryTimes.map((dataUpdatedAt, i) => ({
        queryHash: `["q${i}"]`,
        queryKey: [`q${i}`],
        state: { dataUpdatedAt } as any,
      })),
      mutations: mutationTimes.map((submittedAt, i) => ({
        mutationKey: [`m${i}`],
        state: { submittedAt } as any,
      })),
    },
  }
}

const error = new Error('QuotaExceededError')

describe('removeOldestMutation', () => {
  test('drops the oldest mutation first', () => {
    const result = removeOldestMutation({
      persistedClient: persistedClient([5], [30, 10, 20]),
      error,
      errorCount: 1,
    })

    expect(result?.clientState.mutations.map((m) => m.state.submittedAt)).toEqual(
      [30, 20],
    )
    expect(result?.clientState.queries).toHaveLength(1)
  })

  test('leaves the persisted client it was given as it was', () => {
    const client = persistedClient([5], [30, 10, 20])
    removeOldestMutation({ persistedClient: client, error, errorCount: 1 })

    expect(client.clientState.mutations).toHaveLength(3)
  })

  test('gives up when there is nothing left to drop', () => {
    expect(
      removeOldestMutation({
        persistedClient: persistedClient([], []),
        error,
        errorCount: 1,
      }),
    ).toBeUndefined()
  })
})
"""

QUERY_FALLBACK_TEST = """
  test('drops the oldest query when there is no mutation', () => {
    const result = removeOldestMutation({
      persistedClient: persistedClient([40, 15, 25], []),
      error,
      errorCount: 2,
    })

    expect(result?.clientState.queries.map((q) => q.state.dataUpdatedAt)).toEqual(
      [40, 25],
    )
  })
"""

QUERYPERSIST = {
    "registry": "npm",
    "package": "@tanstack/query-persist-client-core@5.59.0",
    "requirements": [
        "vitest@2"
    ],  # the runner the TanStack monorepo's root brings; the package's own dependency
    "wiring": "plugin",
    "prompt": "Add a retry strategy removeOldestMutation next to removeOldestQuery in "
    "src/retryStrategies.ts: when "
    "persisting fails, drop the oldest mutation (by submittedAt), and when there is no mutation, "
    "drop the oldest "
    "query instead. Tests in src/__tests__/retryStrategies.test.ts.",
    "scope": {
        "issue": "TQ-812",
        "allow": ["src/retryStrategies.ts", "src/__tests__/retryStrategies.test.ts"],
    },
    "covers": {"copy": 9, "red_run": 11, "out_of_scope": 15},
    "steps": [
        bash("ls; ls src src/__tests__", "layout"),
        read("package.json"),
        read("src/index.ts"),
        read("src/retryStrategies.ts"),
        bash(
            "grep -rnE 'removeOldestQuery|PersistRetryer' src", "where the retry strategy is used"
        ),
        read("src/persist.ts", 1, 60),
        read("src/__tests__/utils.ts"),
        bash("npx vitest run", "run the tests first"),
        bash(
            "grep -n submittedAt node_modules/@tanstack/query-core/src/mutation.ts",
            "the mutation's timestamp",
        ),
        edit(
            "src/retryStrategies.ts",
            REMOVE_OLDEST_QUERY_END,
            REMOVE_OLDEST_QUERY_END + REMOVE_OLDEST_MUTATION,
        ),
        write("src/__tests__/retryStrategies.test.ts", RETRY_TESTS),
        bash("npx vitest run", "run the whole suite"),
        read("src/retryStrategies.ts", 30, 40),
        edit(
            "src/retryStrategies.ts",
            "    (a, b) => b.state.submittedAt - a.state.submittedAt,",
            "    (a, b) => a.state.submittedAt - b.state.submittedAt,",
        ),
        bash("npx vitest run src/__tests__/retryStrategies.test.ts", "run the new tests"),
        edit("package.json", '  "scripts": {}', '  "scripts": {\n    "test": "vitest run"\n  }'),
        bash("git diff --stat", "what changed"),
        bash("npm test", "the suite through the new script"),
        edit(
            "src/__tests__/retryStrategies.test.ts",
            "  test('gives up when there is nothing left to drop', () => {",
            QUERY_FALLBACK_TEST.lstrip("\n")
            + "\n  test('gives up when there is nothing left to drop', () => {",
        ),
        bash("sidekit test src/__tests__/retryStrategies.test.ts", "run the new tests"),
        bash("grep -rn removeOldest src", "the strategies"),
        read("src/retryStrategies.ts", 30, 70),
        bash("git status --short", "status"),
        bash("sidekit status", "the test status"),
        bash("npx vitest run", "the whole suite"),
        bash("git diff src/retryStrategies.ts", "the change"),
        bash("git diff package.json", "the script"),
    ],
}

# --- github.com/hashicorp/go-version (Go, go test): SortPrereleases, settings form
# ---------------------------

PRERELEASE_GO = """// Copyright (c) HashiCorp, Inc.
// SPDX-License-Identifier: MPL-2.0

package version

import (
	"sort"
	"strings"
)

// SortPrereleases sorts prerelease tags such as "alpha.10" or "rc.1" in place,
// in the order Version.Compare puts versions that differ only by them.
func SortPrereleases(tags []string) {
	sort.SliceStable(tags, func(i, j int) bool {
		return preTagOrder(tags[i], tags[j]) > 0
	})
}

// preTagOrder compares two prerelease tags part by part: -1, 0 or 1.
func preTagOrder(a, b string) int {
	if a == b {
		return 0
	}
	left, right := split_tag(a), split_tag(b)
	n := len(left)
	if len(right) > n {
		n = len(right)
	}
	for i := 0; i < n; i++ {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		if c := comparePart(l, r); c != 0 {
			return c
		}
	}
	return 0
}

func split_tag(tag string) []string {
	return strings.Split(tag, ".")
}
"""

PRERELEASE_TEST_GO = """// Copyright (c) HashiCorp, Inc.
// SPDX-License-Identifier: MPL-2.0

package version

import (
	"reflect"
	"testing"
)

func TestSortPrereleases(t *testing.T) {
	cases := []struct {
		tags     []string
		expected []string
	}{
		{
			[]string{"rc.1", "beta.2", "alpha.10", "alpha.2", "alpha"},
			[]string{"alpha", "alpha.2", "alpha.10", "beta.2", "rc.1"},
		},
		{[]string{"alpha", "1"}, []string{"1", "alpha"}},
		{[]string{"beta"}, []string{"beta"}},
		{[]string{}, []string{}},
	}

	for _, tc := range cases {
		tags := append([]string{}, tc.tags...)
		SortPrereleases(tags)
		if !reflect.DeepEqual(tags, tc.expected) {
			t.Fatalf("SortPrereleases(%#v) = %#v, expected %#v", tc.tags, tags, tc.expected)
		}
	}
}
"""

AGREES_WITH_COMPARE_TEST = """

func TestSortPrereleasesAgreesWithCompare(t *testing.T) {
	tags := []string{"rc.1", "beta.11", "beta.2", "alpha.beta", "alpha.1", "alpha"}
	SortPrereleases(tags)

	for i := 1; i < len(tags); i++ {
		lower := Must(NewVersion("1.0.0-" + tags[i-1]))
		higher := Must(NewVersion("1.0.0-" + tags[i]))
		if !lower.LessThan(higher) {
			t.Fatalf("%s sorted before %s, but Compare says otherwise", lower, higher)
		}
	}
}
"""

CHANGELOG_TOP = "# 1.7.0 (May 24, 2024)\n"

GOVERSION = {
    "registry": "go",
    "package": "github.com/hashicorp/go-version@v1.7.0",
    "prompt": "Add SortPrereleases(tags []string) to go-version: sort prerelease tags such as "
    '"rc.1", "alpha", '
    '"alpha.10", "beta.2" in place, in the order the package compares prereleases (numeric parts '
    "numerically, a "
    "shorter tag first). Put it in a new file prerelease.go, with tests in prerelease_test.go.",
    "scope": {"issue": "GV-141", "allow": ["prerelease.go", "prerelease_test.go"]},
    "covers": {"copy": 8, "red_run": 10, "out_of_scope": 15},
    "steps": [
        bash("ls; cat go.mod", "layout"),
        read("version.go", 1, 60),
        bash(
            "grep -n 'func comparePrereleases\\|func comparePart' *.go", "the prerelease comparison"
        ),
        read("version.go", 200, 100),
        read("version_collection.go"),
        read("version_collection_test.go"),
        bash("go test ./...", "run the tests first"),
        read("CHANGELOG.md", 1, 30),
        write("prerelease.go", PRERELEASE_GO),
        write("prerelease_test.go", PRERELEASE_TEST_GO),
        bash("go test ./...", "run the whole suite"),
        read("prerelease.go", 1, 20),
        edit(
            "prerelease.go",
            "		return preTagOrder(tags[i], tags[j]) > 0",
            "		return preTagOrder(tags[i], tags[j]) < 0",
        ),
        bash("go test ./...", "run the whole suite again"),
        bash("go vet ./...", "vet"),
        edit(
            "CHANGELOG.md",
            CHANGELOG_TOP,
            "# Unreleased\n\nFEATURES:\n\n- Add `SortPrereleases` to sort prerelease tags in the "
            "order versions "
            "compare\n\n" + CHANGELOG_TOP,
        ),
        bash("git diff --stat", "what changed"),
        edit(
            "prerelease_test.go",
            "		}\n	}\n}\n",
            "		}\n	}\n}" + AGREES_WITH_COMPARE_TEST,
        ),
        bash("go test -run TestSortPrereleases -v .", "the new tests"),
        bash("sidekit test", "run the tests"),
        bash("grep -rn 'SortPrereleases\\|preTagOrder' --include=*.go .", "the new names"),
        bash("git status --short", "status"),
        bash("git checkout -- CHANGELOG.md", "the changelog is the maintainers' to write"),
        bash("sidekit status", "the test status"),
        bash("gofmt -l .", "formatting"),
        read("prerelease.go"),
        bash("go test ./...", "the whole suite"),
        bash("git diff --stat; git status --short", "the change"),
    ],
}

SESSIONS = {"querypersist": QUERYPERSIST, "goversion": GOVERSION}
