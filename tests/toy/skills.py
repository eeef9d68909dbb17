"""Higher Card's one skill measure, playing the highest card (games/engine/skills.py), and its
"Practise this": a game with ten cards each (`long_hands`), in its own words."""

from games.engine.skills import GameSkills, Measure
from games.engine.words import _  # English, found by makemessages: said in the reader's language

# Its words read right after a student's name and after "You" (tests/reports/test_words_for_people.py):
# "Ava played the highest card in hand 3 times out of 5", never "their".
HIGHEST = Measure("toy.highest", "toy", _("Highest card"), _("Played a card below the highest in hand"),
                  _("cards played"), _("Plays the highest card in hand, to win the trick."),
                  well_words=_("played the highest card in hand"))


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
    return [_("Ten cards each: ten tricks in which to play your highest card.")]


SKILLS = GameSkills(measures=(HIGHEST,), analysis_keys=("kind", "played_highest", "analysis_error"),
                    per_attempt=per_attempt, practice=practice, focus_words=focus_words)
