"""Which words run tests through Maven or Gradle: the build tools whose raw runs are left as written
and fed from the reports they leave (feed.py marks them; the adapter's `left_alone_run` names
them)."""

from __future__ import annotations

MAVEN = ("mvn", "mvnw", "mvnd")
GRADLE = ("gradle", "gradlew")
# Maven phases that run Surefire's `test` (a phase runs every phase before it), and Surefire itself.
MAVEN_GOALS = frozenset(
    {"test", "package", "integration-test", "verify", "install", "deploy", "surefire:test"}
)
GRADLE_TASKS = frozenset({"test", "check", "build"})
SKIPS = ("-DskipTests", "-Dmaven.test.skip")  # Maven runs no test (any value but false)


def build_tool(words: list[str]) -> str:
    """The build tool ("maven", "gradle") through which these words (a plain command's, env
    assignments stripped) run tests, else ""."""
    if not words:
        return ""
    name = words[0].rsplit("/", 1)[-1]
    args = words[1:]
    if name in MAVEN:
        skipped = any(a.startswith(SKIPS) and not a.endswith("=false") for a in args)
        return "maven" if not skipped and any(a in MAVEN_GOALS for a in args) else ""
    if name in GRADLE:
        pairs = zip(args, args[1:], strict=False)
        excluded = any(
            a in ("-x", "--exclude-task") and b.rsplit(":", 1)[-1] == "test" for a, b in pairs
        )
        wanted = any(a.rsplit(":", 1)[-1] in GRADLE_TASKS for a in args if not a.startswith("-"))
        return "gradle" if wanted and not excluded else ""
    return ""
