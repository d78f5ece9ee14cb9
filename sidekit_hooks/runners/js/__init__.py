"""vitest and jest: the adapters, their command line, reporters (.cjs/.mjs) and compact answers."""
