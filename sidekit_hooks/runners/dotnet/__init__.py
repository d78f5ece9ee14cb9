""".NET's `dotnet test`, named by its test platform the way the token-economy seed does: `mtp`
(Microsoft.Testing.Platform) or `vstest`.

- `project`: which platform the project's files say (`*.sln`, `*.slnx`,
  `*.csproj`/`*.fsproj`/`*.vbproj`, `Directory.Build.props`, `Directory.Packages.props`,
  `global.json`; bounded reads, no link followed out of the project), and which report option its
  `dotnet test` takes.
- `command`: the agent's raw `dotnet test`, with the report option appended (PreToolUse, via
  runners.dispatch like every runner).
- `trx`: TRX reports (VSTest's `--logger trx`, MTP's `--report-trx`/`--report-xunit-trx`) into
  records.
- `console`: what `dotnet test` printed (MSBuild errors, VSTest and MTP summaries, a crashed test
  host).
- `adapter`: the runner-adapter functions both platform modules (`mtp`, `vstest`) share.

The two platform modules are what the registry names: `runners.detect` finds `mtp` or `vstest`, so
every answer's `runner` field is the platform's name.
"""
