# Shared by the cases' scaffold scripts (sourced; not a case: no case.yaml here).
# A scaffold runs in the run's empty workspace, offline, with nothing but bash, git and python3 on PATH
# (go for the go case); it writes a small repository and commits it, so `git status` starts clean.
set -euo pipefail

# put PATH: write stdin to PATH (folders made as needed)
put() {
  mkdir -p "$(dirname "$1")"
  cat > "$1"
}

# commit_all: one commit of everything written so far, by a neutral author
commit_all() {
  git init -q .
  printf ".venv/\n" >> .git/info/exclude
  git add -A
  git -c user.name=eval -c user.email=eval@example.invalid commit -q -m "scaffold"
}

# scope ISSUE GLOB...: the task's scope as `sidekit scope set --issue ISSUE --allow GLOB...` writes it
# (.sidekit/scope.toml); written by hand so the scaffold needs no sidekit, and both arms get the same tree
scope() {
  local issue=$1
  shift
  mkdir -p .sidekit
  {
    printf 'issue = "%s"\nallow = [\n' "$issue"
    printf '    "%s",\n' "$@"
    printf ']\ndeny = []\n'
  } > .sidekit/scope.toml
  printf '.sidekit/\n' >> .git/info/exclude
}
