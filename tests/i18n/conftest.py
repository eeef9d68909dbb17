import pytest
from django.conf import settings

from tests.i18n.pseudo import PSEUDO, build_catalogue, pseudo


@pytest.fixture(scope="session")
def pseudo_catalogue_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("pseudo-locale")
    build_catalogue(directory)
    return directory


@pytest.fixture
def pseudo_language(pseudo_catalogue_dir, settings):
    """Adds the pseudo-language (tests/i18n/pseudo.py) to the site for one test."""
    # Named in itself, as every language is (the language switcher shows the name)
    settings.LANGUAGES = list(settings.LANGUAGES) + [(PSEUDO, pseudo("Pseudo"))]
    settings.LOCALE_PATHS = [pseudo_catalogue_dir, *settings.LOCALE_PATHS]
    return PSEUDO
