# `go test -exec '/bin/sh <package>/runners/go/goexec.sh <python>'`: one package's test binary, with
# no Python start-up unless its output has to be compacted (runners/go/goexec.py, what go/adapter.py describes).
#
# go runs `sh goexec.sh PYTHON BINARY ARGS...` in the package's folder. The binary runs in the
# foreground with `-test.v=test2json` (the framing `go test -json` reads), its output into a file
# under the project's `.sidekit/go/`. A passing binary without -v: what it would have printed (the
# framing and the passing tests' logs taken out) is printed as it is, when short, and the output is
# spooled for the run's one cache writer (a Python started once per run, detached, by the first such
# binary; see spool.spool). A failure, -v, or long output: goexec.py reads the kept output (the
# binary is not run again), prints it or the compact answer, and ends with the binary's status (its
# exit code, or the signal that reached the run, re-raised: see below). No usable project folder
# (none found, a link where .sidekit is, a name already taken): goexec.py runs the binary itself.
# SIDEKIT_RAW=1 and runs whose output is the point (-test.list, -test.bench, -test.fuzz, and go's own
# -json framing): the binary as it is.
py=$1
main=${0%/*}/goexec_start.py # goexec.py, imported: a file run as a script is compiled at each start
shift
bin=$1
shift
case ${SIDEKIT_RAW:-} in '' | 0) ;; *) exec "$bin" "$@" ;; esac
verbose=0
logged=0
unfiltered=1 # goexec.FILTERS: without one, a package that ends on its own ran every test it has
for a in "$@"; do
    case $a in
    -test.list* | -test.fuzz* | -test.bench* | -test.v=test2json*) exec "$bin" "$@" ;; # as they are
    -test.v | -test.v=true) verbose=1 ;;
    -test.testlogfile*) logged=1 ;;
    -test.failfast=false) ;;
    -test.run* | -test.skip* | -test.failfast*) unfiltered=0 ;;
    esac
done
# The cache's folder: $CLAUDE_PROJECT_DIR around us, else the nearest folder up with .sidekit or .git.
root=
project=${CLAUDE_PROJECT_DIR%/}
case $PWD/ in "$project"/*) [ -n "$project" ] && root=$project ;; esac
dir=$PWD
while [ -z "$root" ] && [ -n "$dir" ]; do
    if [ -d "$dir/.sidekit" ] || [ -e "$dir/.git" ]; then root=$dir; fi
    dir=${dir%/*}
done
spool=$root/.sidekit/go
if [ -z "$root" ] || [ -L "$root/.sidekit" ] || [ -L "$spool" ] || [ "${PWD#"$root"}" = "$PWD" ]; then
    exec "$py" -I -S "$main" "$bin" "$@" # the Python wrapper finds (or refuses) its folder itself
fi
[ -d "$spool" ] || mkdir -p "$spool" 2>/dev/null
# The run's key (spool.run_key): go's pid and start time.
IFS= read -r stat <"/proc/$PPID/stat" 2>/dev/null || stat=
run=$PPID-0
born() { [ $# -ge 20 ] && run=$PPID-${20}; }
born ${stat##*) }
pkgdir=${PWD#"$root"}
pkgdir=${pkgdir#/}
case $root$pkgdir in *"	"* | *"
"*) exec "$py" -I -S "$main" "$bin" "$@" ;; # a tab or newline in a name: the spool's header cannot hold it
esac
# The binary's output goes into the spool file it stays in when it is printed as it was: a header
# (`root pkgdir - 0 unfiltered`: spool.spool's fields, the time left to the file's), the output, and the
# spool.SPOOLED line once printed. Created here, never through a file or link already there (set -C): no mv, rm
# or second copy afterwards (each a process start, a tenth of a green binary's cost).
out=$spool/spool-$run-$$
set -C
if ! { printf '%s\t%s\t-\t0\t%s\n' "$root" "${pkgdir:-.}" "$unfiltered" >"$out"; } 2>/dev/null; then
    exec "$py" -I -S "$main" "$bin" "$@"
fi
n=$#
while [ "$n" -gt 0 ]; do # the arguments without -test.v, then the framing
    a=$1
    shift
    n=$((n - 1))
    case $a in -test.v | -test.v=*) ;; *) set -- "$@" "$a" ;; esac
done
set -- "$@" -test.v=test2json
folder=${bin%/*}
number=${folder##*/b}
case $logged/${folder##*/}/$number in # go's work folder (b001): go reads the test log there (passing packages cached)
0/b*/*[!0-9]* | 0/b*/) ;;
0/b*) set -- "$@" "-test.testlogfile=$folder/testlog.txt" ;;
esac
started=0 # goexec.py reads the start of this process from /proc (sh's clock has whole seconds only)
[ -r /proc/self/stat ] || started=$(date +%s)
exec 3>&2 2>/dev/null # sh's own word on a binary killed by a signal ("Terminated") is not the binary's
# sh's status above 128 is either the binary's exit code (os.Exit(130)) or the signal 128 less killed it;
# sh cannot tell the two apart. A signal sent to the run (^C, a kill of its process group) reaches this
# shell too: noted here, it makes the status the signal's. Otherwise the status is the exit code, except
# 137: SIGKILL (the OOM killer's), which no shell can note. The subshell runs the binary with the
# default dispositions (a subshell resets caught traps), so the binary meets every signal as it would.
sig=0
trap 'sig=1' HUP
trap 'sig=2' INT
trap 'sig=15' TERM
(exec "$bin" "$@" >>"$out" 2>&1 3>&-)
code=$?
trap - HUP INT TERM
exec 2>&3 3>&-
status=$code # what goexec.py is told: the exit code, or minus the signal
if [ "$code" = 137 ] || { [ "$sig" != 0 ] && [ "$code" = $((128 + sig)) ]; }; then status=-$((code - 128)); fi
# Printed as it was: a passing binary's output without the framing (its own lines, not the passing
# tests' logs), when short; the spool then ends with the spool.SPOOLED line, which commits it to the
# run's writer. Otherwise (a failure, -v, long output) goexec.py reads and removes the spool.
if [ "$code" = 0 ] && [ "$verbose" = 0 ] && LC_ALL=C awk -v limit=2048 '
        NR == 1 { next }  # the spool header
        /^[ ]*\026(=== |--- )/ { inlog = 0; next }
        /^\026(PASS|FAIL)$/ { sub(/\026/, ""); keep(); next }
        /^    [A-Za-z0-9_.-]+\.go:[0-9]+: / { inlog = 1; next }
        inlog && /^        / { next }
        { inlog = 0; keep() }
        function keep() { text = text $0 "\n"; if (length(text) > limit) { over = 1; exit } }
        END { if (over) exit 3; printf "%s", text }' "$out" 2>/dev/null; then
    printf '\n\026sidekit spooled\n' >>"$out" 2>/dev/null # spool.SPOOLED: printed, never twice
    if { true >"$spool/writer-$run"; } 2>/dev/null; then # the run's one writer: the first claim (set -C is on)
        "$py" -I -S "$main" --write-run "$spool" "$run" </dev/null >/dev/null 2>&1 &
    fi
    exit 0
fi
exec "$py" -I -S "$main" --captured "$out" "$status" "$verbose" "$started" "$unfiltered"
