"""`cargo test`: the adapter, the runner a compacted raw run goes through (cargo_tee.sh,
cargo_answer.awk)."""
