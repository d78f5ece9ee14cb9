# A compacted `cargo test` (see runners/cargo/adapter.py): each test binary and each doc-test run of one
# cargo run goes through here, as cargo's runner (`bin`) or as cargo's rustdoc (`doc`, through the
# small wrapper the hook writes). POSIX sh and awk only: no interpreter starts per binary.
#
#   sh cargo_tee.sh bin PYTHON MODE BINARY ARGS...     MODE letters: f = fail-fast, d = doc tests may follow
#   sh cargo_tee.sh doc PYTHON MODE RUSTDOC-ARGS...
#
# The unit's output goes to .sidekit/cargo/run-<cargo pid>-<start>.<N>.out. A unit holds its
# output while a later one will speak for the run: a doc-test run (always last) or a red binary when
# cargo stops at it (fail-fast). The speaker prints everything held as it was (2 KB at most, cargo's
# `Running` lines written back), else one compact answer for the whole run so far (cargo_answer.awk:
# an earlier speaker's red unit counts in it too) and where the raw output is kept. Without a
# doc-test run to come, every binary speaks for itself. The exit status is the unit's own (a signal
# is raised again). The run's first speaker starts one detached writer (cargo/run.py) that puts the
# whole run into the cache once cargo has ended.

kind=$1 python=$2 mode=$3
shift 3
here=${0%/*}

# cargo passes --quiet to tests because the hook set term.quiet (cargo's own lines): drop it
dropped=
for arg; do
    shift
    if [ -z "$dropped" ] && [ "$arg" = --quiet ]; then
        dropped=1
        if [ "$kind" = bin ]; then continue; fi
        arg=--format=pretty # rustdoc: the value of `--test-args`
    fi
    set -- "$@" "$arg"
done

as_is() {
    if [ "$kind" = doc ]; then exec rustdoc "$@"; fi
    exec "$@"
}

if [ "$kind" = bin ]; then
    case $1 in */deps/*) ;; *) exec "$@" ;; esac # doc-test executables, `cargo run`: as they are
    for arg; do
        case $arg in --list | --format* | --help | -h | --nocapture | --show-output | --bench) exec "$@" ;; esac
    done
else
    case " $* " in *" --test "*) ;; *) exec rustdoc "$@" ;; esac
fi
case ${SIDEKIT_RAW:-0} in 0 | '') ;; *) as_is "$@" ;; esac

# The workspace whose .sidekit/ holds the cache (status.cache.workspace_root)
root=
case ${CLAUDE_PROJECT_DIR:-} in
/*) case $PWD/ in "${CLAUDE_PROJECT_DIR%/}"/*) root=${CLAUDE_PROJECT_DIR%/} ;; esac ;;
esac
folder=$PWD
while [ -z "$root" ] && [ -n "$folder" ]; do
    if [ -d "$folder/.sidekit" ] || [ -e "$folder/.git" ]; then root=$folder; fi
    folder=${folder%/*}
done
[ -n "$root" ] || root=$PWD

# This cargo run: its pid and start time (pids are reused)
stat=
read -r stat <"/proc/$PPID/stat" 2>/dev/null || as_is "$@"
started_at() { shift 19 && started=$1; }
set -f
started_at ${stat##*) } || as_is "$@"
set +f
state=$root/.sidekit/cargo
run=$state/run-$PPID-$started
for folder in "$root/.sidekit" "$state"; do # never through a link out of the project
    [ -L "$folder" ] && as_is "$@"
    [ -d "$folder" ] || mkdir "$folder" 2>/dev/null || [ -d "$folder" ] || as_is "$@"
done

n=0
[ -f "$run.seq" ] && read -r n <"$run.seq"
n=$((n + 1))
printf '%s\n' "$n" >"$run.seq"
# cargo's own words, for the cache to tell a filtered run (`cargo test name`, `--lib`) from a full one
[ "$n" = 1 ] && cat "/proc/$PPID/cmdline" >"$run.argv" 2>/dev/null

# What cargo would have printed before the unit's output (term.quiet keeps it from doing so)
if [ "$kind" = bin ]; then
    name=${1##*/}
    stem=${name%-*}
    label=$stem
    for source in "tests/$stem.rs" "tests/$stem/main.rs" "src/bin/$stem.rs" src/lib.rs src/main.rs; do
        if [ -f "$source" ]; then label=$source && break; fi
    done
    case $label in src/*) shown_label="unittests $label" ;; *) shown_label=$label ;; esac
    case $1 in "$root"/*) shown=${1#"$root"/} ;; *) shown=$1 ;; esac
    header="     Running $shown_label ($shown)"
    case $PWD in "$root"/*) label=${PWD#"$root"/}/$label ;; esac # a workspace member's: under its folder
else
    label=doc previous=
    for arg; do
        if [ "$previous" = --crate-name ]; then label=$arg; fi
        previous=$arg
    done
    header="   Doc-tests $label"
fi
printf '%s\n' "$header" >"$run.$n.head"

caught=
trap 'caught=TERM' TERM
trap 'caught=INT' INT
trap 'caught=HUP' HUP
if [ "$kind" = doc ]; then rustdoc "$@" >"$run.$n.out" 2>&1; else "$@" >"$run.$n.out" 2>&1; fi
code=$?
printf '%s\t%s\t%s\n' "$kind" "$code" "$label" >"$run.$n.meta"

# Does a later unit speak for this one? A doc-test run of this package, when it has a plain lib
# (asked once per package and run: the answer is kept in $run.lib).
doc_follows=
case $kind$mode in bin*d*)
    known= answer=
    [ -f "$run.lib" ] && IFS='	' read -r known answer <"$run.lib"
    if [ "$known" = "$PWD" ]; then
        doc_follows=$answer
    else
        [ -f src/lib.rs ] && doc_follows=1
        while IFS= read -r line || [ -n "$line" ]; do # a lib with its own doc-test settings: unsure, so no
            case $line in
            '[lib]'*) doc_follows=1 ;;
            *doctest* | *crate-type* | *crate_type* | *proc-macro* | *autolib*) doc_follows= && break ;;
            esac
        done 2>/dev/null <Cargo.toml
        printf '%s\t%s\n' "$PWD" "$doc_follows" >"$run.lib"
    fi
    ;;
esac
speak=
if [ "$kind" = doc ] || [ -z "$doc_follows" ] || [ -n "$caught" ] || [ "$code" -gt 128 ]; then speak=1; fi
if [ "$code" != 0 ]; then case $mode in *f*) speak=1 ;; esac; fi

if [ -n "$speak" ]; then
    first=1 printed=0 unit=
    [ -f "$run.spoken" ] && read -r first <"$run.spoken"
    [ -f "$run.printed" ] && read -r printed <"$run.printed"
    set -- # every unit of the run: the answer is the run's (an earlier speaker's red counts too)
    unit=1
    while [ "$unit" -le "$n" ]; do
        set -- "$@" "$run.$unit.meta" "$run.$unit.head" "$run.$unit.out"
        unit=$((unit + 1))
    done
    placed=
    while :; do
        LC_ALL=C awk -v printed="$printed" -v root="$root" -v run="$run" -v state="$state" -v spoken="$first" \
            -v placed="$placed" -f "$here/cargo_answer.awk" "$@"
        said=$?
        [ "$said" = 4 ] && [ -z "$placed" ] || break
        if [ -n "$caught" ]; then # interrupted: the answer at once, unplaced, then the signal
            placed=/dev/null
            continue
        fi
        # failures at two spots or more: those in test code go to the crate function they share
        # (runners/cargo/exercised.py, its time and bytes bounded), then the answer again
        rm -f "$run.placed" # never an earlier speaker's, should this step die before writing
        "$python" -I -S "$here/run.py" --place "$run" </dev/null >/dev/null 2>&1
        placed=$run.placed
    done
    if [ "$said" = 3 ]; then # short: as it was
        set --
        unit=$first
        while [ "$unit" -le "$n" ]; do
            set -- "$@" "$run.$unit.head" "$run.$unit.out"
            unit=$((unit + 1))
        done
        cat "$@"
    fi
    printf '%s\n' "$((n + 1))" >"$run.spoken"
    if [ ! -f "$run.writer" ]; then # the run's writer: waits for cargo to end, then caches every unit
        : >"$run.writer"
        detach= low= # its own session; below the run's priority while cargo ends
        command -v setsid >/dev/null 2>&1 && detach=setsid
        command -v nice >/dev/null 2>&1 && low="nice -n 10"
        $detach $low "$python" -I -S "$here/run.py" "$run" </dev/null >/dev/null 2>&1 &
    fi
fi

trap - TERM INT HUP
if [ -n "$caught" ]; then kill -s "$caught" $$; fi
if [ "$code" -gt 128 ] && [ "$code" -lt 160 ]; then kill "-$((code - 128))" $$ 2>/dev/null; fi
exit "$code"
