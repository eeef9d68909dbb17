"""The retention warning on a teacher's pages. A template tag, so that classroom's templates
can show it while classroom's code stays unaware of privacy (see .importlinter)."""
from django import template

from accounts.permissions import is_teacher

from ..retention import notices_for_teacher

register = template.Library()


@register.inclusion_tag("privacy/_retention_banner.html")
def retention_warnings(user, classroom=None):
    """Every warned class of the teacher (with a link to each), or only `classroom`'s."""
    if not is_teacher(user):
        return {"notices": []}
    return {"notices": notices_for_teacher(teacher=user, classroom=classroom),
            "show_links": classroom is None}
