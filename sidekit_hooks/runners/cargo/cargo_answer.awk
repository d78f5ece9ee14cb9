# One answer for the units (test binaries, doc-test runs) of a compacted `cargo test` that one
# speaker prints (see cargo_tee.sh). Files come in threes: RUN.N.meta (kind, exit status, source),
# RUN.N.head (the line cargo would have printed), RUN.N.out (what the unit printed).
#
# When everything printed so far plus these units stays within SHORT bytes: exit 3, and the caller
# prints them as they were. Otherwise print two lines, as runners/answer.compacted does: what
# happened and where the raw output is kept, then the answer: counts from libtest's `test result:`
# lines, a unit that ended without one (abort, a panic outside any test) as a build error with its
# last words, and the failures grouped by where they panicked and the first word of the message
# (status/clusters.py's grouping for a failure with a line). The cache is written after the run, in
# Python, from the same files (cargo/run.py). Failures that panicked at two spots or more: exit 4
# before anything is written, and the caller runs `run.py --place`, then this again with `placed`,
# the file of where those in test code go (runners/cargo/exercised.py). Variables: printed, root,
# run (the files' prefix), state, placed, spoken (the first unit not yet printed: the files come
# from unit 1 on, and the answer is the whole run's, so a unit an earlier speaker printed, a crash say, still counts for its exit and its counts).

BEGIN {
    SHORT = 2048
    BUDGET = 780 # both lines; the client adds "Exit code N\n": the model gets <= 800 B
    CARGO_LINE = 70 # cargo's `error: test failed, to rerun pass ...` after each red unit
    units = 0
    bytes = 0
    if (spoken == "") spoken = 1
}

FILENAME ~ /\.meta$/ {
    split($0, meta, "\t")
    units++
    kind[units] = meta[1]
    code[units] = meta[2] + 0
    label[units] = meta[3]
    block = ""
    next
}

units >= spoken { bytes += length($0) + 1 }

FILENAME ~ /\.head$/ { next }

{
    line = $0
    sub(/\r$/, "", line)
    if (line != "" && line !~ /^note: /) last[units] = line
    if (units in panic_next && line != "") { # a panic's message follows its `panicked at` line
        panic[units] = panic[units] " " line
        delete panic_next[units]
    }
    if (!(units in panic) && index(line, "panicked at ")) {
        panic[units] = substr(line, index(line, "panicked at "))
        if (panic[units] ~ /:$/) panic_next[units] = 1
    }
}

line ~ /^test result: / {
    ended[units] = 1
    counts = line
    sub(/^test result: [A-Za-z]+\. /, "", counts)
    parts = split(counts, part, "; ")
    for (i = 1; i <= parts; i++) {
        split(part[i], word, " ")
        if (word[2] == "passed") passed += word[1]
        else if (word[2] == "failed") failed += word[1]
        else if (word[2] == "ignored") skipped += word[1]
    }
    block = ""
    next
}

line ~ /^test .* \.\.\. ok$/ { oks[units]++; next }

line ~ /^test .* \.\.\. ignored/ { ignores[units]++; next }

line ~ /^test .* \.\.\. FAILED$/ {
    reds_seen[units]++
    name = substr(line, 6, length(line) - 16)
    sub(/ - should panic$/, "", name)
    key = units SUBSEP name
    if (!(key in failing)) {
        failing[key] = ++failures
        order[failures] = key
    }
    next
}

line ~ /^---- .* stdout ----$/ {
    block = units SUBSEP substr(line, 6, length(line) - 17)
    next
}

line == "failures:" || line == "successes:" { block = ""; next }

block != "" && !(block in where) {
    look(block, line)
    next
}

function look(test, text,    rest, found, place) {
    if (index(text, "panicked at ")) {
        rest = substr(text, index(text, "panicked at ") + 12)
        message[test] = ""
        if (rest ~ /^'/) { # before Rust 1.73: panicked at 'message', src/lib.rs:3:5
            found = rest
            sub(/^'/, "", found)
            sub(/', [^']*$/, "", found)
            sub(/^.*', /, "", rest)
            sub(/:[0-9]+$/, "", rest)
            message[test] = found
        } else if (match(rest, /:[0-9]+:[0-9]+:?/)) {
            message[test] = substr(rest, RSTART + RLENGTH)
            sub(/^ +/, "", message[test])
            rest = substr(rest, 1, RSTART - 1) ":" substr(rest, RSTART + 1, RLENGTH - 1)
            sub(/:[0-9]+:?$/, "", rest)
        }
        kinds[test] = "panic"
        where[test] = inside(rest)
        delete wants[test]
        if (message[test] == "") needs[test] = 1
        return
    }
    if (test in wants) { # where a compile error is: ` --> src/lib.rs:5:1`
        if (text ~ /^ *--> /) {
            place = text
            sub(/^ *--> /, "", place)
            sub(/:[0-9]+$/, "", place)
            where[test] = inside(place)
            delete wants[test]
        }
        return
    }
    if (!(test in kinds) && text ~ /^error(\[E[0-9]+\])?: /) { # a doc test that does not compile
        kinds[test] = "compile " substr(text, 1, index(text, ":") - 1)
        message[test] = substr(text, index(text, ":") + 2)
        wants[test] = 1
        return
    }
    if (!(test in first_words) && text != "" && text !~ /^Test executable failed/) first_words[test] = text
}

block != "" && (block in needs) && line ~ /[^ ]/ {
    message[block] = line
    sub(/^ +/, "", message[block])
    delete needs[block]
}

function inside(path) {
    if (index(path, root "/") == 1) return substr(path, length(root) + 2)
    return path
}

function json(text) {
    gsub(/\\/, "\\\\", text)
    gsub(/"/, "\\\"", text)
    gsub(/\t/, " ", text)
    gsub(/[\001-\037]/, " ", text)
    return "\"" text "\""
}

function clip(text, limit) {
    gsub(/[ \t]+/, " ", text)
    sub(/^ /, "", text)
    sub(/ $/, "", text)
    if (length(text) <= limit) return text
    return substr(text, 1, limit - 3) "..."
}

function thousands(number,    text, grouped) {
    text = number ""
    grouped = ""
    while (length(text) > 3) {
        grouped = "," substr(text, length(text) - 2) grouped
        text = substr(text, 1, length(text) - 3)
    }
    return text grouped
}

function test_id(unit, name,    path, what) {
    if (kind[unit] == "doc" && index(name, " - ")) {
        path = substr(name, 1, index(name, " - ") - 1)
        what = substr(name, index(name, " - ") + 3)
        return path "::doc " what
    }
    return label[unit] "::" name
}

function shape(text,    head) {
    head = text
    sub(/ .*/, "", head)
    gsub(/[0-9]+/, "N", head)
    return head
}

function stamp(    now, days, secs, year, month, day, era, doe, yoe, doy, mp) {
    srand()
    now = srand()
    days = int(now / 86400)
    secs = now - days * 86400
    days += 719468 # days from 0000-03-01 (the civil-from-days algorithm)
    era = int(days / 146097)
    doe = days - era * 146097
    yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
    year = yoe + era * 400
    doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
    mp = int((5 * doy + 2) / 153)
    day = doy - int((153 * mp + 2) / 5) + 1
    month = mp < 10 ? mp + 3 : mp - 9
    if (month <= 2) year++
    return sprintf("%04d%02d%02d-%02d%02d%02d", year, month, day, int(secs / 3600), int(secs % 3600 / 60), secs % 60)
}

END {
    if (printed + bytes <= SHORT) {
        print printed + bytes > (run ".printed")
        exit 3
    }
    if (placed == "" && spread()) exit 4 # the caller places them (run.py --place), then asks again
    if (placed != "") read_placed()
    reds = 0
    for (u = 1; u <= units; u++) {
        if (code[u] != 0) reds++
        if (code[u] != 0 && !(u in ended)) { # ended without its `test result:`: its panic, else its last words
            said = u in panic ? panic[u] : last[u]
            if (code[u] > 128) said = "signal " signal_name(code[u] - 128) (said == "" ? "" : ": " said)
            crashed[++crashes] = u
            crash_said[crashes] = said
        }
        if (code[u] != 0 && said == "") said = last[u]
        if (!(u in ended)) { # no `test result:` line: what it said of each test before it ended
            passed += oks[u]
            failed += reds_seen[u]
            skipped += ignores[u]
        }
    }
    status = reds ? 101 : 0
    raw = state "/raw-" stamp() "-" run_pid() ".txt"
    for (f = 1; f < ARGC; f++) { # the units this answer stands for (earlier ones were shown or kept)
        if (ARGV[f] ~ /\.meta$/ || int((f - 1) / 3) + 1 < spoken) continue
        while ((getline text < ARGV[f]) > 0) print text > raw
        close(ARGV[f])
    }
    close(raw)
    shown = raw
    if (index(raw, root "/") == 1) shown = substr(raw, length(root) + 2) # where the agent runs cargo, mostly
    head = "sidekit: cargo test output (" thousands(bytes) " B) compacted; exit code " status "; all of it: " shown
    head = head " (prefix the command with SIDEKIT_RAW=1 to see it raw)"
    answer = "{\"runner\":\"cargo\",\"exit\":" status
    if (passed) answer = answer ",\"passed\":" passed
    if (failed) answer = answer ",\"failed\":" failed
    if (skipped) answer = answer ",\"skipped\":" skipped
    if (!passed && !failed && !skipped && !crashes) answer = answer ",\"state\":\"noTests\""
    if (crashes) answer = answer ",\"buildErrors\":" crashes
    if (status && !failed && !crashes) answer = answer ",\"said\":" json(clip(said, 140))
    budget = BUDGET - printed - CARGO_LINE * reds - (reds > 1 ? 40 + 30 * reds : 0) - length(head) - 1
    if (budget < 200) budget = 200
    print head
    print with_clusters(answer, budget)
    print printed + length(head) + 1 + length(answer) > (run ".printed")
    printf "" > (run ".compact")
}

# Failures that panicked at two spots or more: those in test code may share the crate function
# they exercise (runners/cargo/exercised.py, which tells test code from code under test).
function spread(    i, t, spots, count) {
    count = 0
    for (i = 1; i <= failures; i++) {
        t = order[i]
        if (kinds[t] != "panic" || where[t] !~ /:[0-9]+$/) continue
        if (!(where[t] in spots)) count++
        spots[where[t]] = 1
    }
    return count >= 2
}

# RUN.placed (`test id<TAB>path:line` lines): each failure moved to the function it exercised.
# A spot a failure was moved to is in code under test: there, as in status, the message's shape
# splits nothing.
function read_placed(    row, cell, i, t, pair, id, moved) {
    while ((getline row < placed) > 0) {
        if (split(row, cell, "\t") == 2) moved[cell[1]] = cell[2]
    }
    close(placed)
    for (i = 1; i <= failures; i++) {
        t = order[i]
        split(t, pair, SUBSEP)
        id = test_id(pair[1], pair[2])
        if (id in moved) {
            where[t] = moved[id]
            under_test[moved[id]] = 1
        }
    }
}

function signal_name(number) {
    if (number == 4) return "4 (SIGILL)"
    if (number == 6) return "6 (SIGABRT)"
    if (number == 7) return "7 (SIGBUS)"
    if (number == 8) return "8 (SIGFPE)"
    if (number == 9) return "9 (SIGKILL)"
    if (number == 11) return "11 (SIGSEGV)"
    if (number == 15) return "15 (SIGTERM)"
    return number
}

function run_pid(    name) {
    name = run
    sub(/.*\/run-/, "", name)
    sub(/-[0-9]+$/, "", name)
    return name
}

function with_clusters(answer, budget,    t, key, c, clusters, best, i, j, shown, text, brief, covered, line, tried) {
    clusters = 0
    for (i = 1; i <= crashes; i++) { # a crashed unit: its own cluster, ahead of the failures
        key = "crash" SUBSEP crashed[i]
        rank[++clusters] = key
        ctype[key] = "crash"
        cat_[key] = ""
        cmessage[key] = crash_said[i]
        cfirst[key] = label[crashed[i]]
        size[key] = 1
    }
    for (i = 1; i <= failures; i++) {
        t = order[i]
        split(t, pair, SUBSEP)
        split_by = where[t] in under_test ? "" : shape(t in kinds ? message[t] : first_words[t])
        key = (t in kinds ? kinds[t] : "fail") SUBSEP where[t] SUBSEP split_by
        if (!(key in size)) {
            rank[++clusters] = key
            ctype[key] = t in kinds ? kinds[t] : "fail"
            cat_[key] = where[t]
            cmessage[key] = t in kinds ? message[t] : first_words[t]
            cfirst[key] = test_id(pair[1], pair[2])
        }
        if (test_id(pair[1], pair[2]) < cfirst[key]) cfirst[key] = test_id(pair[1], pair[2]) # the cache's first
        size[key]++
    }
    for (i = crashes + 1; i <= clusters; i++) { # biggest first, in order of appearance among equals
        best = i
        for (j = i + 1; j <= clusters; j++) if (size[rank[j]] > size[rank[best]]) best = j
        key = rank[i]
        rank[i] = rank[best]
        rank[best] = key
    }
    text = ""
    shown = 0
    covered = 0
    for (i = 1; i <= clusters; i++) {
        key = rank[i]
        for (tried = 1; tried <= 3; tried++) { # in full, then without its first test, then a shorter message
            brief = "{\"type\":" json(clip(ctype[key], 40))
            if (cat_[key] != "") brief = brief ",\"at\":" json(cat_[key])
            brief = brief ",\"message\":" json(clip(cmessage[key], tried < 3 ? 80 : 40))
            if (size[key] > 1) brief = brief ",\"affected\":" size[key]
            if (tried == 1 && length(cfirst[key]) <= 90 || ctype[key] == "crash") brief = brief ",\"first\":" json(cfirst[key])
            brief = brief "}"
            line = answer ",\"clusters\":[" text (shown ? "," : "") brief "]"
            if (length(line) + 40 <= budget) break
        }
        if (length(line) + 40 > budget && shown) break # the top cluster is always shown, in its shortest form
        text = text (shown ? "," : "") brief
        shown++
        if (ctype[key] != "crash") covered += size[key]
    }
    if (shown) answer = answer ",\"clusters\":[" text "]"
    if (shown < clusters) answer = answer ",\"moreClusters\":" (clusters - shown) ",\"moreFailures\":" (failures - covered)
    return answer "}"
}
