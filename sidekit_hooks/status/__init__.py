"""Test status: the pytest plugin that records every run, the shared cache, root-cause clusters.

`.sidekit/status.json` is the small summary hooks and `sidekit status` read;
`.sidekit/status-tests.json` is the per-test table partial runs merge into (`sidekit failures`).
"""
