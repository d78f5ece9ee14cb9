"""node's own test runner (`node --test`): runners/node/adapter.py."""
