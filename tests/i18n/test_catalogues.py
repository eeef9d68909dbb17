"""The Spanish and Arabic catalogues are complete, and what the site serves is compiled from
them (devtools/i18n.py, docs/i18n.md)."""

from pathlib import Path

from django.utils import translation

from devtools.i18n import AREAS, BASE_DIR, LANGUAGES, catalogues, problems, read_catalog


def test_every_catalogue_is_complete_and_compiled():
    """0 untranslated, 0 fuzzy, and each .mo file is exactly what its .po compiles to."""
    found = problems()
    report = [f"{item.path}: untranslated {item.untranslated[:5]}, fuzzy {item.fuzzy[:5]}"
              f"{', the .mo is out of date: python -m devtools.i18n compile' if item.stale_mo else ''}"
              for item in found]
    assert not found, "\n".join(report)


def test_every_area_has_both_languages():
    pos = catalogues(list(AREAS))
    for area in AREAS:
        for language in LANGUAGES:
            # (the area's own folder: "locale" is not "accounts/locale")
            assert any(p.parent.parent.name == language and Path(area.locale) in p.relative_to(BASE_DIR).parents
                       for p in pos), \
                f"{area.name} has no {language} catalogue"


def test_arabic_counts_use_its_six_plural_forms():
    for po in catalogues(list(AREAS)):
        if po.parent.parent.name == "ar":
            assert read_catalog(po).num_plurals == 6, po


def test_a_translated_string_is_served():
    with translation.override("es"):
        assert translation.gettext("Skip to content") == "Saltar al contenido"
    with translation.override("ar"):
        assert translation.get_language_bidi()
