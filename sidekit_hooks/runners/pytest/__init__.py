"""pytest: the recorder plugin (pytest11 entry point), the compact answer for raw runs, the
project's interpreters and test environments, and `sidekit test`'s process."""
