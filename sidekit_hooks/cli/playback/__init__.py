"""Play tool calls through the real hooks: scripted steps (`steps`) and Claude Code transcripts
(`transcript`)."""
