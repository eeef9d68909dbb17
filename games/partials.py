"""Named partials of one template ({% partialdef name %}, django-template-partials), rendered
from one Context.

A live page is sent its fragment as separate named parts (the game table's status, board...;
the dashboard's sections), so a push can send only the parts that changed. Each part is
looked up as "template.html#name", as the library names partials; they share one Context,
so rendering five parts costs what one render of the whole fragment did (a Context and its
render state per part would cost a push a tenth more CPU, for nothing). The full page
includes the same template, whose partials are `inline`, so page and push cannot disagree.
"""

from __future__ import annotations

from django.template import Context
from django.template.loader import get_template


def render_partials(*, template_name: str, names: tuple[str, ...], context: dict,
                    localize: bool = True) -> dict[str, str]:
    """Each named partial of `template_name`, rendered with `context` (name -> HTML, in
    `names`' order). `localize=False` renders as `{% localize off %}` does (a template that
    wraps its partials in it: a partial rendered by name is outside that block)."""
    shared = Context(context, autoescape=True, use_l10n=localize)
    return {name: get_template(f"{template_name}#{name}").template.render(shared).strip()
            for name in names}
