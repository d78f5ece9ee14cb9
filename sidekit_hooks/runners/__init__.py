"""Test runners feeding the shared test cache (`status/`): one adapter per runner, and the
PreToolUse rewrite that compacts the agent's own raw runs (`rewrite`)."""
