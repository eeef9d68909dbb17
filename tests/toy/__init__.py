"""A test-only toy game ("Higher Card") that proves what adding a game takes: an engine
package (engine.py, skills.py: its measure, its focus option and the words for it), an
adapter (adapter.py: its GameSpec, bots and their ratings), a board template
(tests/templates/games/boards/toy.html), a stylesheet (tests/static/css/games/toy.css) and one
registry line (`registry.register(SPEC)`, done by the `toy_game` fixture in
tests/toy/conftest.py). No module outside these names it
(tests/contract/test_games_stay_in_their_homes.py)."""
