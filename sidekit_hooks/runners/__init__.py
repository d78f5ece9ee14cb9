"""Runners: one adapter per test runner, and what keeps a rewritten raw run as safe as the raw command."""
