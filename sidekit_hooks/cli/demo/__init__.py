"""Data for `sidekit demo`: a scripted agent session (`session.jsonl`) and the repo it runs in."""
