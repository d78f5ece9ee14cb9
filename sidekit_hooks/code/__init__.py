"""Code knowledge built outside the hook hot path (indexes the sidecars and answers read)."""
