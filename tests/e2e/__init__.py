"""End-to-end tests in the real Claude Code CLI (a package, so its conftest has a name of its
own)."""
