"""Code navigation and test impact: an AST index of the workspace, a per-test coverage map, and
the selection of tests a change needs. Used by `sidekit symbol/usages/map/tests-for/blast-radius/select`.

Nothing here is on the hook hot path.
"""
