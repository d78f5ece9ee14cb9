"""A minimal reading of a rule's `[rules.when]` (docs/rule-packs.md), to check learned packs in
tests."""

from __future__ import annotations

import re
from typing import Any

from sidekit_hooks.core.globs import matches_any


def fires(rule: dict[str, Any], tool: str, path: str, content: str) -> bool:
    when = rule["when"]
    if "tools" in when and tool not in when["tools"]:
        return False
    if "paths" in when and not matches_any(when["paths"], path):
        return False
    if "exclude" in when and matches_any(when["exclude"], path):
        return False
    if "added" in when and not re.search(when["added"], content):
        return False
    return not ("absent" in when and re.search(when["absent"], content))


def example_mismatches(pack: dict[str, Any]) -> list[str]:
    """Every example whose outcome differs from what it says (empty when the pack is consistent)."""
    wrong = []
    for rule in pack.get("rules", []):
        for example in rule.get("examples", []):
            got = fires(rule, example["tool"], example["path"], example["content"])
            if got != example["fires"]:
                wrong.append(
                    f"{rule['id']}: {example['path']} fires={got}, expected {example['fires']}"
                )
    return wrong
