"""Code navigation and test impact: an AST index of the workspace, a per-test coverage map, and the
selection of tests a change needs. Used by `sidekit
symbol/usages/map/tests-for/blast-radius/select`.

Only `functions` and `defined` are on the hook hot path; hooks that merely ask whether the index
exists read `INDEX_FILE` here, without importing `index` (sqlite3, typing, re: ~8 ms).
"""

INDEX_FILE = "code/index.sqlite"  # under .sidekit/: the AST index (`code.index`)
