"""One adapter per game: builds the game's `GameSpec` (games/spec.py) from its engine package
and the table hooks (status line, board context, results, optional selection and mental
maths). Adapters are pure: they read views and plain data, never the database."""
