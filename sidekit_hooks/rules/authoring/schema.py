"""The rule-pack format as pydantic models: what `sidekit rules lint` validates and the docs
describe.

Never imported by a hook (pydantic costs ~140 ms to import). Unknown keys are kept, not rejected, so
an older sidekit reads a newer pack; `lint` reports them as warnings. The models read the TOML as
tomllib returns it, strictly: `enabled = "yes"` is an error, not a truthy string.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from sidekit_hooks.rules import MAX_NUDGE


class _Table(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")


class PackInfo(_Table):
    """Who the pack is and which sidekit it needs."""

    name: str = Field(
        min_length=1,
        description="The pack's name; also the sidecar that speaks for rules that name none.",
    )
    version: str = Field(
        "", description="The pack's own version, for people and `sidekit rules list`."
    )
    requires: str = Field(
        "",
        description="sidekit versions the pack needs, e.g. `>=0.1` or `>=0.1,<1`; a pack that is "
        "not satisfied is skipped.",
    )
    description: str = Field("", description="One line on what the pack is for.")


class When(_Table):
    """Every condition given must hold for the rule to fire; a rule needs at least one."""

    tools: list[str] | None = Field(
        None,
        description="Tool names the rule looks at (`Edit`, `Write`, `Bash`, `mcp__*`...); `*` and "
        "`?` work.",
    )
    paths: list[str] | None = Field(
        None,
        description="gitignore-style globs over the project-relative path; `!glob` re-includes.",
    )
    exclude: list[str] | None = Field(
        None, description="Globs whose files the rule never looks at (`tests/**`)."
    )
    languages: list[str] | None = Field(
        None,
        description="Languages of the file, by its suffix: `py`, `ts` (with TSX), `js` (with "
        "JSX), `go`, `rust`, `java`.",
    )
    added: str | None = Field(
        None, description="Regex over the text the call added (not what the file already had)."
    )
    absent: str | None = Field(
        None,
        description='Regex that must NOT match the added text ("a new handler without `@router`").',
    )
    command: str | None = Field(None, description="Regex over a Bash command.")
    output: str | None = Field(
        None, description="Regex over the tool's output, or its error when the call failed."
    )


class Example(_Table):
    """A tool call and whether the rule fires on it; `sidekit rules test` runs them through the
    hook's matcher."""

    fires: bool = Field(description="Whether the rule must fire on this call.")
    tool: str = Field(
        "", description="The tool; default Bash with `command`, Edit with `old`/`new`, else Write."
    )
    path: str = Field("", description="Project-relative path of the file the call touched.")
    content: str = Field(
        "", description="Write: the file's new text. Edit: the replacement text (same as `new`)."
    )
    old: str = Field(
        "", description="The text before the call: Edit's old string, or the file a Write replaced."
    )
    new: str = Field("", description="Edit: the replacement text.")
    command: str = Field("", description="Bash: the command.")
    output: str = Field("", description="The tool's output.")
    error: str = Field(
        "", description="The tool's failure text; the example is then a PostToolUseFailure event."
    )


class Rule(_Table):
    """One thing the agent should know, and when to say it."""

    id: str = Field(
        description="Unique, namespaced (`acme.api.status-422`); a later layer's rule with the "
        "same id replaces this one."
    )
    message: str | None = Field(
        None,
        description="The nudge: what is wrong and what to do; with its `[sidecar:...]` tag and "
        f"`(see ...)` under {MAX_NUDGE} characters.",
        json_schema_extra={"required_unless": "enabled = false"},
    )
    sidecar: str | None = Field(
        None,
        description="Which sidecar speaks (`specs`, `tools`, `scope`, `conventions`, `tests`, or "
        "your own); default: the pack's name.",
    )
    see: str = Field(
        "",
        description="Where to read more: a project file (`docs/spec.md#anchor`, checked by lint) "
        "or a URL; cited in the nudge.",
    )
    severity: Literal["low", "medium", "high"] = Field(
        "medium",
        description="How much it matters; carried on the finding for the policy and for reports.",
    )
    enabled: bool = Field(
        True,
        description="`false` turns off a rule with this id from an earlier layer (then only `id` "
        "is needed).",
    )
    when: When = Field(
        default_factory=lambda: When.model_validate({}), description="The conditions (below)."
    )
    examples: list[Example] = Field(
        default_factory=list, description="The rule's own tests (below)."
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict,
        description="Free-form table for tools that write packs (e.g. the conventions learner's "
        "prevalence).",
    )


class Pack(_Table):
    """One TOML file."""

    pack: PackInfo = Field(description="The `[pack]` table.")
    rules: list[Rule] = Field(default_factory=list, description="The `[[rules]]` tables.")
    policy: dict[str, Any] = Field(
        default_factory=dict, description="Policy settings; later layers override earlier keys."
    )

    def compiled_rules(self, origin: dict[str, str]) -> list[dict[str, Any]]:
        """The rules in the snapshot's form, built from the validated models (the property tests
        compare this with the hook's own stdlib compile of the same TOML)."""
        out = []
        for rule in self.rules:
            when = {
                key: value
                for key, value in rule.when.model_dump(include=set(When.model_fields)).items()
                if value is not None
            }
            compiled: dict[str, Any] = {
                "id": rule.id,
                "enabled": rule.enabled,
                "sidecar": rule.sidecar or self.pack.name,
                "message": rule.message or "",
                "see": rule.see,
                "severity": rule.severity,
                "when": when,
                "pack": self.pack.name,
                **origin,
            }
            if rule.metadata:
                compiled["metadata"] = rule.metadata
            out.append(compiled)
        return out


MODELS: tuple[type[BaseModel], ...] = (PackInfo, Rule, When, Example)
TABLES = {
    PackInfo: "[pack]",
    Rule: "[[rules]]",
    When: "[rules.when]",
    Example: "[[rules.examples]]",
}
