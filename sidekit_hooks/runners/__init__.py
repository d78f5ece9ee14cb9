"""Test runners feeding the shared test cache (`status/`): one adapter per runner, the PreToolUse
rewrite that compacts the agent's own raw runs (`rewrite`), and what keeps that rewrite as safe as the
raw command (`permissions`, `plugin_loads`, `supervisor`)."""
