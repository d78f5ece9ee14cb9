"""`go test`: the adapter, the -exec wrapper a compacted raw run goes through, the package graph."""
