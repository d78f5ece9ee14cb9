"""Secrets stay out: the one redaction pass for text sidekit writes (logs, decisions, the judge,
nudges).

Standard library only, and cheap where it matters: `re` is imported (and the patterns compiled) only
the first time a text holds a character sequence some secret shape needs; most texts are rejected by
a few `in` tests. Detector libraries (detect-secrets and the like) pull in far more than the hook's
import budget allows, so the usual token shapes live here, each with a test.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

MASK = "[redacted]"
# A secret shape cannot be there unless one of these is: the cheap pre-test before any regex runs.
_HINTS = (
    "AKIA",
    "ASIA",
    "AGPA",
    "AIDA",
    "AROA",
    "ANPA",
    "ANVA",
    "AIPA",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xox",
    "eyJ",
    "-----BEGIN",
)
_KEYWORDS = ("pass", "secret", "token", "key", "auth")  # of an assignment, matched lowercased

_PATTERNS = (
    # Private-key blocks, whole (a truncated block still loses its body).
    r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----[\s\S]{0,10000}?(-----END[A-Z0-9 "
    r"]{0,40}PRIVATE KEY( BLOCK)?-----|\Z)",
    # No word boundaries: `_` is a word character, so `\b` let `MY_KEY_AKIA...` and
    # `ghp_..._old.txt` through (#19). A token glued to other characters is still that token.
    r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16,}",  # AWS access key ids
    r"gh[pousr]_[A-Za-z0-9]{36,255}",  # GitHub tokens
    r"github_pat_[A-Za-z0-9_]{22,255}",
    r"glpat-[A-Za-z0-9_\-]{20,}",  # GitLab personal access tokens
    r"xox[abposr]-[A-Za-z0-9\-]{10,}",  # Slack tokens
    r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",  # JWTs
)
# `password=...`, `secret: ...`, `aws_secret_access_key = ...`, `"api_key": "..."`: the value goes.
_ASSIGNMENT = (
    r"(?i)((?:pass(?:word|wd)?|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret"
    r"|aws_secret_access_key|auth)[A-Za-z0-9_\-]*[\"']?\s*[:=]\s*[\"']?)([^\s\"'&;,]{3,})"
)
_compiled: list[re.Pattern[str]] = []
_assignment: list[re.Pattern[str]] = []


def redact(text: str) -> str:
    """`text` with every secret-looking token replaced by `[redacted]` (unchanged when none)."""
    if not text:
        return text
    if not any(hint in text for hint in _HINTS) and not _assignment_hint(text.lower()):
        return text
    if not _compiled:
        import re

        _compiled.extend(re.compile(pattern) for pattern in _PATTERNS)
        _assignment.append(re.compile(_ASSIGNMENT))
    for pattern in _compiled:
        text = pattern.sub(MASK, text)
    return _assignment[0].sub(
        lambda match: match.group(1) + MASK if match.group(2) != MASK else match.group(0), text
    )


def _assignment_hint(lowered: str) -> bool:
    """Is some keyword followed (after the rest of its name, a quote, blanks) by `=` or `:`?"""
    for word in _KEYWORDS:
        index = lowered.find(word)
        while index >= 0:
            end = index + len(word)
            while end < len(lowered) and (lowered[end].isalnum() or lowered[end] in "_-"):
                end += 1
            while end < len(lowered) and lowered[end] in "\"' \t":
                end += 1
            if end < len(lowered) and lowered[end] in "=:":
                return True
            index = lowered.find(word, index + 1)
    return False


def redact_value(value: Any, keep: frozenset[str] = frozenset()) -> Any:
    """`value` (JSON-like: dicts, lists, strings) with every string redacted, keys included; the
    values of the keys in `keep` stay as they are (a recheck's regex `pattern`, which redaction
    could break)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {
            redact(k) if isinstance(k, str) else k: v if k in keep else redact_value(v, keep)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [redact_value(item, keep) for item in value]
    return value


def has_secret(text: str) -> bool:
    return redact(text) != text
