"""Compact answers for agents, built from the test cache and the code index: one line of JSON within
byte budgets (`render`), and the shapes of the status, test and failures answers (`shape`)."""
