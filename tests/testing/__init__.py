"""Helpers shared by the tests: hook runners, payload builders, fixture projects, the real CLI."""
