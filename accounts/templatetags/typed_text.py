"""{% load typed_text %}{{ classroom.name|isolated }}: text a person typed (a class's name, an
assignment's or an arena's title) kept apart from the words around it, in every language
(`<bdi>`: accounts/typed_text.py says why). Inside a translated sentence:
`{% blocktranslate with name=classroom.name|isolated %}`. A page's <title> cannot hold markup:
there the text goes as it is."""

from django import template

from accounts import typed_text

register = template.Library()

register.filter("isolated", typed_text.isolated)
