"""Higher Card's one skill measure, playing the highest card (games/engine/skills.py), and its
"Practise this": a game with ten cards each (`long_hands`), in its own words."""

from games.engine.skills import GameSkills, Measure

HIGHEST = Measure("toy.highest", "toy", "Highest card", "Played a lower card than their highest",
                  "cards played", "Plays their highest card to win the trick.",
                  well_words="played their highest card")


def per_attempt(move, error_code):
    """One chance per decision (the game version it was made at)."""
    if move.analysis.get("kind") == "play":
        missed = not move.analysis["played_highest"] and not error_code
        yield move.version_before, HIGHEST.id, "", missed, None


def practice(measure_id, detail, weakest=()):
    """More tricks, so more chances to play the highest card."""
    return {"long_hands": True} if measure_id == HIGHEST.id else None


def focus_words(options):
    if not options.get("long_hands"):
        return []
    return ["Ten cards each: ten tricks in which to play your highest card."]


SKILLS = GameSkills(measures=(HIGHEST,), analysis_keys=("kind", "played_highest", "analysis_error"),
                    per_attempt=per_attempt, practice=practice, focus_words=focus_words)
