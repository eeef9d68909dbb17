"""A test-only toy game ("Higher Card") that proves what adding a game takes: an engine
package (engine.py, skills.py), an adapter (adapter.py), a board template
(tests/templates/games/boards/toy.html) and one registry line (`registry.register(SPEC)`,
done by the `toy_game` fixture in tests/toy/conftest.py)."""
