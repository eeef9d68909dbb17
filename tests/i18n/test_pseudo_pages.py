"""Every page in the pseudo-language (tests/i18n/pseudo.py): a plain English word left on a page
is a string nobody marked for translation (docs/i18n.md, "The pseudo-language test").

Each URL the site has is asked for by a visitor, a teacher and a student, the same world as the
Content-Security-Policy test's; each page that renders must hold no English word except the
names and codes that the world's people typed. One test per area (the URL's namespace), so
whoever works on an area runs theirs: `pytest tests/i18n/test_pseudo_pages.py -k games`.
The admin is for the people who run the server and is left in English (docs/i18n.md).
"""

import pytest

from tests.i18n.pseudo import PSEUDO, english_words
from tests.test_content_security_policy import every_url_pattern, signed_in, url_for, world  # noqa: F401

pytestmark = pytest.mark.django_db

# What the world's people typed: names, a title, a code, an address.
TYPED = {"Ms", "Rivera", "Ann", "Ben", "Warm", "up", "Friday", "arena", "ABC", "rivera", "school", "test",
         "Class"}  # the class is "Class 5B" (tests/conftest.py `classroom_of`)
AREAS = ["core", "accounts", "classroom", "reports", "games", "arena", "privacy", "lti", "rostering"]
# The pages only the school's administrators use (learning platforms, rosters) are asked for by the
# world's administrator too.
ADMINISTERED = {"lti", "rostering"}


def area_of(name: str | None) -> str:
    namespace = (name or "").partition(":")[0] if name and ":" in name else ""
    return namespace if namespace in AREAS else "core"


@pytest.mark.parametrize("area", AREAS)
def test_every_page_of_the_area_is_translated(area, world, pseudo_language):
    people = {"visitor": signed_in(None), "teacher": signed_in(world["teacher"]),
              "student": signed_in(world["student"])}
    if area in ADMINISTERED:
        people["administrator"] = signed_in(world["admin"])
    problems, rendered = [], 0
    for route, name, params in every_url_pattern():
        if route.startswith("admin/") or area_of(name) != area:
            continue
        url = url_for(world, route, name, params)
        for who, client in people.items():
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=PSEUDO)
            if response.status_code != 200 or not response.get("Content-Type", "").startswith("text/html"):
                continue
            rendered += 1
            words = english_words(response.content.decode(), allowed=TYPED)
            if words:
                problems.append(f"{url} ({who}): {' '.join(dict.fromkeys(words))}")
    assert rendered, f"no page of {area} rendered"
    assert not problems, f"{len(problems)} pages of {area} have English left:\n" + "\n".join(problems)
