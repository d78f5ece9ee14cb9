"""`sidekit mcp`: the tools (`tools`), the project's .mcp.json entry (`config`) and doctor's probe
(`probe`)."""
