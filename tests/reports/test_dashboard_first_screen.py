"""The dashboard's first screen: the class in one line, who is playing, who needs help, in that
order and before anything else; the details (skills, operations, totals, trends, assignments,
recompute) each in a section that opens, closed when the page opens. The Chromium test
(tests/browser/test_dashboard_first_screen_browser.py) reads what fits on the screen."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Assignment
from games.models import Game
from reports.models import NeedsHelpFlag
from reports.selectors import HELP_SHOWN
from reports.uncertainty import rate_change

from .showing import flag, make_game, rollup, this_monday, weeks_ago

pytestmark = pytest.mark.django_db


def dashboard(client, teacher, classroom, **params) -> str:
    client.force_login(teacher)
    return client.get(reverse("reports:dashboard", args=[classroom.pk]), params).content.decode()


def between(html: str, start: str, end: str) -> str:
    return html[html.index(start):html.index(end, html.index(start))]


def details(html: str, ident: str) -> str:
    """The opening tag of the <details> with this id."""
    return re.search(rf'<details [^>]*id="{ident}"[^>]*>', html).group(0)


def rule_errors_flag(classroom, student, game):
    return NeedsHelpFlag.objects.create(
        classroom=classroom, student=student, measure="all.rule_errors", game=game,
        reason=NeedsHelpFlag.Reason.RULE_ERRORS, evidence={"errors": 6, "codes": {}})


def test_the_three_answers_come_first_and_the_details_are_closed(client, teacher, classroom, student):
    rollup(classroom, "so.lowest_operator", student=student, chances=20, misses=12)
    flag(classroom, student)
    make_game(classroom, student, status=Game.Status.ACTIVE)
    html = dashboard(client, teacher, classroom)
    order = ['id="dash-summary"', 'id="dash-now"', 'id="dash-alerts"', 'id="dash-more-skills"',
             'id="dash-more-operations"', 'id="dash-more-totals"', 'id="dash-more-trends"',
             'id="dash-more-games"', 'id="dash-more-recompute"']
    at = [html.index(part) for part in order]
    assert at == sorted(at), "the page's order is the order of the first screen, then the details"
    for ident in ("skills", "operations", "totals", "trends", "games", "recompute"):
        assert " open" not in details(html, f"dash-more-{ident}"), ident
    # Each detail is still on the page, inside its section: one click away, never lost.
    skills = between(html, 'id="dash-more-skills"', "</details>")
    assert 'id="dash-skills"' in skills and "missed <a" in skills
    assert 'id="dash-trends"' in between(html, 'id="dash-more-trends"', "</details>")
    assert "Recompute reports" in between(html, 'id="dash-more-recompute"', "</details>")
    # Who plays which game, each name opening the game to watch.
    now = between(html, 'id="dash-now"', "</section>")
    assert "Smooth Operator" in now and 'aria-label="Watch Ann\'s game">Ann</a>' in now


def test_one_assignments_page_opens_its_skills_and_its_practice(client, teacher, classroom, student):
    tables = Assignment.objects.create(classroom=classroom, title="Tables", game="multiplication",
                                       preset="quick", focus={"focus_facts": ["7x8"], "hand_size": 10})
    html = dashboard(client, teacher, classroom, assignment=tables.pk)
    assert " open" in details(html, "dash-more-skills")
    assert " open" in details(html, "dash-more-practice")
    assert "Skills: <bdi>Tables</bdi>" in between(html, 'id="dash-more-skills"', 'id="dash-skills"')


def test_needs_help_shows_each_students_first_flag_and_the_rest_one_click_away(
        client, teacher, classroom, make_student):
    kids = [make_student(classroom, f"Kid {chr(65 + i)}") for i in range(HELP_SHOWN + 2)]
    for kid in kids:
        flag(classroom, kid)
    game, _ = make_game(classroom, kids[0])
    rule_errors_flag(classroom, kids[0], game)
    rule_errors_flag(classroom, kids[0], make_game(classroom, kids[0])[0])
    html = dashboard(client, teacher, classroom)
    alerts = between(html, 'id="dash-alerts"', "</section>")
    shown = between(alerts, '<ul class="help-list"', 'id="dash-help-more"')
    # One card a student on the first screen, in name order: the first HELP_SHOWN students.
    assert re.findall(r'id="dash-help-(\d+)"', shown) == [str(k.pk) for k in kids[:HELP_SHOWN]]
    first = between(shown, f'id="dash-help-{kids[0].pk}"', f'id="dash-help-{kids[1].pk}"')
    # Kid A's widest flag first (the miss rate), her two game flags behind "2 more about Kid A".
    assert first.index("12 of 20") < first.index("2 more about Kid A") < first.index("Tried <strong>6</strong>")
    assert " open" not in details(first, f"dash-help-more-{kids[0].pk}")
    # The students after the first HELP_SHOWN are named, their cards one click away.
    more = alerts[alerts.index('id="dash-help-more"'):]
    assert "2 more students need help: Kid G and Kid H" in more
    assert re.findall(r'id="dash-help-(\d+)"', more) == [str(k.pk) for k in kids[HELP_SHOWN:]]


def test_nobody_needs_help_says_so_and_why(client, teacher, classroom, student):
    html = dashboard(client, teacher, classroom)
    alerts = between(html, 'id="dash-alerts"', "</section>")
    assert "Nobody needs help right now." in alerts and "No finished games to look at yet." in alerts
    rollup(classroom, "so.lowest_operator", student=student, chances=20, misses=1)
    alerts = between(dashboard(client, teacher, classroom), 'id="dash-alerts"', "</section>")
    assert "Nobody needs help right now." in alerts
    assert "In the games so far no student stands out" in alerts


def test_the_summary_says_today_this_week_beside_last_week_and_who_played(
        client, teacher, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    make_student(classroom, "Cal", ("moon", "star", "fish"))
    now = timezone.now()
    make_game(classroom, student, finished_at=now)
    make_game(classroom, ben, finished_at=now)
    last_week = timezone.make_aware(timezone.datetime.combine(this_monday() - timedelta(days=3),
                                                              timezone.datetime.min.time()))
    make_game(classroom, student, finished_at=last_week)
    make_game(classroom, student, finished_at=last_week - timedelta(weeks=1))  # counted nowhere
    summary = between(dashboard(client, teacher, classroom), 'id="dash-summary"', "</div>")
    assert "Today: <strong>2 games</strong>" in summary
    assert "This week: <strong>2 games</strong> (last week: 1)" in summary
    assert "<strong>2 of 3</strong> students played this week" in summary
    # No weeks to compare: it says so instead of a direction.
    assert "Skills: too few games in the last two weeks to compare them" in summary


def test_the_summary_says_which_skills_moved_since_last_week(client, teacher, classroom):
    for measure, before, now in [("so.lowest_operator", (30, 100), (5, 100)),  # clearly better
                                 ("so.mental_math", (10, 100), (12, 100)),     # about the same
                                 ("mg.facts", (5, 100), (25, 100)),            # clearly worse
                                 ("so.specials", (4, 4), (0, 3))]:             # too few to tell
        rollup(classroom, measure, week=weeks_ago(1), chances=before[1], misses=before[0])
        rollup(classroom, measure, week=this_monday(), chances=now[1], misses=now[0])
    summary = between(dashboard(client, teacher, classroom), 'id="dash-summary"', "</div>")
    assert re.search(r'<a href="#dash-trends">Skills since last week</a>:\s*<strong>1 better</strong>, '
                     r"<strong>1 worse</strong>, 1 about the same", summary), summary


def test_rate_change_is_a_test_at_the_bands_ninety_percent():
    assert rate_change((30, 100), (12, 100)) == -1
    assert rate_change((12, 100), (30, 100)) == 1
    assert rate_change((4, 10), (2, 10)) == 0       # may be chance
    assert rate_change((0, 50), (0, 60)) == 0       # never missed: nothing moved
    assert rate_change((3, 4), (0, 30)) == 0        # fewer than 5 chances says nothing


def test_a_class_playing_in_a_lesson_is_counted_and_who_is_not_is_named(
        client, teacher, classroom, make_student):
    kids = [make_student(classroom, f"Kid {i:02d}") for i in range(16)]
    for kid in kids[:14]:
        make_game(classroom, kid, status=Game.Status.ACTIVE)
    now = between(dashboard(client, teacher, classroom), 'id="dash-now"', "</section>")
    assert "<strong>14 of 16</strong> students are playing." in now
    assert "Not playing now: Kid 14 and Kid 15." in now
    who = between(now, 'id="dash-now-who"', "</details>")
    assert " open" not in details(now, "dash-now-who")
    assert all(f">{kid.display_name}</a>" in who for kid in kids[:14])
    assert "Kid 14" not in who
