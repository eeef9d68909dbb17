"""Named partials of one template ({% partialdef name %}, django-template-partials), rendered
from one Context.

A live page is sent its fragment as separate named parts (the game table's status, board...;
the dashboard's sections), so a push can send only the parts that changed. The full page
includes the same template, whose partials are `inline`, so page and push cannot disagree.

The parts come from one template lookup and share one Context, as the library's loader finds
them ("template.html#name" reads the same `extra_data["partials"]`): so rendering five parts
costs what one render of the whole fragment does. Looking each up by "template.html#name" and
rendering it with a Context of its own measured about a tenth more CPU per push.
"""

from __future__ import annotations

from django.template import Context
from django.template.loader import get_template


def render_partials(*, template_name: str, names: tuple[str, ...], context: dict,
                    localize: bool = True) -> dict[str, str]:
    """Each named partial of `template_name`, rendered with `context` (name -> HTML, in
    `names`' order). `localize=False` renders as `{% localize off %}` does (for a template that
    wraps its partials in it: a partial rendered by name is outside that block)."""
    template = get_template(template_name).template
    partials = template.extra_data["partials"]
    shared = Context(context, autoescape=template.engine.autoescape, use_l10n=localize)
    # Each partial's nodes rendered as the whole template renders an `inline` one: in the
    # template's own render state, with nothing pushed per part.
    with shared.render_context.push_state(template), shared.bind_template(template):
        return {name: partials[name].nodelist.render(shared).strip() for name in names}
