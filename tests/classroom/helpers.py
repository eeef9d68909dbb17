import html

from django.utils.html import strip_tags

from classroom import services
from classroom.models import Assignment


def page_text(response) -> str:
    """A page as a reader sees it: no tags, entities decoded, whitespace runs as one space."""
    return " ".join(html.unescape(strip_tags(response.content.decode())).split())


def assignment_of(classroom, *, created_by, game="smooth_operator", preset="quick", students=None,
                  **fields) -> Assignment:
    """An assignment against one beginner bot, to play 5 games, unless `fields` say otherwise
    (the `make_assignment` fixture's, also for module-scoped worlds)."""
    values = {"title": "", "opponents": Assignment.Opponents.BOTS, "bot_level": "beginner",
              "bot_count": 1, "mental_math": False, "goal": Assignment.Goal.PLAY,
              "goal_count": 5, "goal_until": None, "due_on": None, **fields}
    return services.assignment_create(classroom=classroom, created_by=created_by, game=game,
                                      preset=preset, students=students, **values)
