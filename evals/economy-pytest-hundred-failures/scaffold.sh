#!/usr/bin/env bash
# A loud red suite: 6 x 20 failing tests (about 60 KB of pytest output), one root cause.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../_lib/repo.sh"
. "$here/../_lib/pytest_project.sh"
red_cascade 6 20
commit_all
