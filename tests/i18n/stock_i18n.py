"""Django's `i18n` template library as Django ships it (its own `{% translate %}`), for
tests/i18n/test_template_translate.py to compare the site's against."""

from django import template
from django.templatetags import i18n as django_i18n

register = template.Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)
register.tag("translate", django_i18n.do_translate)
register.tag("trans", django_i18n.do_translate)
