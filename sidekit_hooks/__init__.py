"""sidekit-hooks: sidecars that watch a coding agent's tool calls and nudge it only when it
matters."""

__version__ = "0.1.0"
