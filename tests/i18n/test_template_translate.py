"""`{% translate %}` with its constant texts kept per language (accounts/template_i18n.py, put
on Django's `i18n` library at start-up) says exactly what Django's own tag says, in every language and in turn, with a message context,
a variable, `as`, filters and with escaping off."""

import pytest
from django.template import Context, Engine
from django.utils import translation

TEMPLATE = (
    "{% load i18n %}"
    "{% translate \"Leave game\" %}|"
    "{% translate \"If you are stuck, ask your teacher for help.\" %}|"
    "{% translate \"That wasn't quite right. Have another go!\" %}|"
    "{% translate \"Play\" context \"a button\" %}|"
    "{% translate word %}|"
    "{% translate \"Go!\" as go %}{{ go }}|"
    "{% translate \"Start again\"|upper %}|"
    "{% autoescape off %}{% translate \"That wasn't quite right. Have another go!\" %}{% endautoescape %}"
)


def rendered(libraries: dict, language: str) -> str:
    engine = Engine(libraries=libraries)
    with translation.override(language):
        return engine.from_string(TEMPLATE).render(Context({"word": "Start again"}))


@pytest.mark.parametrize("language", ["en", "es", "ar", "es", "en", "ar"])
def test_the_kept_translations_say_what_djangos_own_tag_says(language):
    ours = rendered({"i18n": "django.templatetags.i18n"}, language)  # the library, as the site has it
    djangos = rendered({"i18n": "tests.i18n.stock_i18n"}, language)
    assert ours == djangos
    assert ours == rendered({"i18n": "django.templatetags.i18n"}, language)  # and again, from the cache


def test_each_language_reads_its_own_words():
    said = {language: rendered({"i18n": "django.templatetags.i18n"}, language).split("|")[0]
            for language in ("en", "es", "ar", "en")}
    assert said["en"] == "Leave game"
    assert len(set(said.values())) == 3 and "Leave game" not in (said["es"], said["ar"])


def test_the_site_templates_load_the_kept_library():
    from django.template import engines

    library = engines["django"].engine.template_libraries["i18n"]
    assert library.tags["translate"].__module__ == "accounts.template_i18n"
