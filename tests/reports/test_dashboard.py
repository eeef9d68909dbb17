"""The teacher dashboard: what it shows, the moves behind each number, the heat map, and a
query count that does not grow with the class."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom.models import Assignment
from reports.measures import measure_by_id
from reports.models import RecomputeJob
from games.models import Game

from .showing import evidence, flag, make_game, rollup, this_monday, weeks_ago

pytestmark = pytest.mark.django_db


def dashboard_url(classroom):
    return reverse("reports:dashboard", args=[classroom.pk])


def get(client, user, url, **params):
    client.force_login(user)
    return client.get(url, params)


def test_empty_class_says_what_to_do_next(client, teacher, classroom):
    html = get(client, teacher, dashboard_url(classroom)).content.decode()
    assert "No skill numbers yet" in html
    assert "Nobody is playing right now" in html
    assert "No open assignments" in html


def test_skill_table_cells_are_words_with_a_band_word_and_links(client, teacher, classroom, make_student):
    ann = make_student(classroom, "Ann")
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    rollup(classroom, "so.lowest_operator", student=ann, chances=37, misses=4)
    rollup(classroom, "so.lowest_operator", student=ben, chances=20, misses=15)
    rollup(classroom, "so.lowest_operator", chances=57, misses=19)
    rollup(classroom, "all.think_time", student=ann, chances=50, median=6.25)
    html = get(client, teacher, dashboard_url(classroom)).content.decode()
    assert re.search(r"missed\s*<a [^>]*>4</a>\s*of\s*<a [^>]*>37</a>", html)
    assert measure_by_id("so.lowest_operator").title in html and "Thinking time" in html
    # A band is a word and a symbol as well as a colour.
    ann_row = html[html.index(">Ann<"):html.index(">Ben<")]
    assert "Getting there" in ann_row and "band-fair" in ann_row
    ben_row = html[html.index(">Ben<"):html.index("Whole class")]
    assert "Needs help" in ben_row
    assert "6.2 s per decision" in html or "6.3 s per decision" in html
    # The 4 links to Ann's misses, the 37 to all her chances.
    misses = reverse("reports:moves", args=[classroom.pk]) + f"?measure=so.lowest_operator&amp;student={ann.pk}&amp;missed=1"
    assert misses in html
    assert misses.replace("missed=1", "missed=all") in html
    # Measures nobody has played are not columns.
    assert "Sees takes" not in html


def test_playing_now_finished_today_and_completion(client, teacher, classroom, make_student):
    ann = make_student(classroom, "Ann")
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    warm_up = Assignment.objects.create(classroom=classroom, title="Warm-up", game="smooth_operator",
                                        preset="quick", goal=Assignment.Goal.PLAY, goal_count=1)
    make_game(classroom, ann, assignment=warm_up)
    make_game(classroom, ben, status=Game.Status.ACTIVE)
    html = get(client, teacher, dashboard_url(classroom)).content.decode()
    now = html[html.index('id="now-heading"'):html.index('id="alerts-heading"')]
    assert "Ben" in now and "Ann" not in now
    today = html[html.index('id="today-heading"'):]
    today = today[:today.index("</section>")]
    assert re.search(r">\s*1\s*<span>game</span>", today) and "Ann 1" in today
    assert "<bdi>Warm-up</bdi>: <strong>1 of 2</strong> students done" in html  # the title kept apart
    # The class in one line, on the first screen: today, this week beside last week, who played.
    summary = html[html.index('id="dash-summary"'):html.index('id="now-heading"')]
    assert "Today: <strong>1 game</strong>" in summary
    assert "This week: <strong>1 game</strong> (last week: 0)" in summary
    assert "<strong>1 of 2</strong> students played this week" in summary


def test_needs_help_alert_shows_the_numbers_and_links_to_the_misses(client, teacher, classroom, student):
    flag(classroom, student, misses=12, chances=20)
    html = get(client, teacher, dashboard_url(classroom)).content.decode()
    alerts = html[html.index('id="alerts-heading"'):html.index('id="skills-heading"')]
    assert "Ann" in alerts and "12 of 20" in alerts and "10 of 100" in alerts
    assert f"measure=so.lowest_operator&amp;student={student.pk}&amp;missed=1" in alerts


def test_trends_are_svg_charts_with_the_numbers_in_words(client, teacher, classroom):
    rollup(classroom, "so.lowest_operator", week=weeks_ago(1), chances=40, misses=10)
    rollup(classroom, "so.lowest_operator", week=this_monday(), chances=30, misses=3)
    html = get(client, teacher, dashboard_url(classroom)).content.decode()
    trends = html[html.index('id="trends-heading"'):]
    assert '<svg class="chart"' in trends and 'role="img"' in trends
    assert "missed 10 of 40" in trends and "missed 3 of 30" in trends
    assert "<polyline" in trends


def test_assignment_filter_shows_that_assignments_rollups(client, teacher, classroom, student, other_classroom):
    a = Assignment.objects.create(classroom=classroom, title="Tables", game="multiplication", preset="quick")
    rollup(classroom, "mg.missed_play", student=student, chances=9, misses=2, assignment=a)
    rollup(classroom, "so.lowest_operator", student=student, chances=30, misses=1)
    html = get(client, teacher, dashboard_url(classroom), assignment=a.pk).content.decode()
    assert "Skills: <bdi>Tables</bdi>" in html and measure_by_id("mg.missed_play").title in html
    assert measure_by_id("so.lowest_operator").title not in html
    foreign = Assignment.objects.create(classroom=other_classroom, title="Theirs", game="multiplication",
                                        preset="quick")
    assert get(client, teacher, dashboard_url(classroom), assignment=foreign.pk).status_code == 404


def test_drill_down_lists_exactly_the_missed_moves_with_replay_links(client, teacher, classroom, student,
                                                                      make_student):
    game, moves = make_game(classroom, student, moves=6)
    for i, move in enumerate(moves):
        evidence(move, student, "so.lowest_operator", missed=i in (1, 4), amount=3 if i in (1, 4) else 0)
    evidence(moves[2], student, "so.mental_math", missed=True)  # another measure: not listed
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    ben_game, ben_moves = make_game(classroom, ben, moves=2)
    evidence(ben_moves[0], ben, "so.lowest_operator", missed=True)  # another student: not listed
    url = reverse("reports:moves", args=[classroom.pk])
    html = get(client, teacher, url, measure="so.lowest_operator", student=student.pk, missed="1").content.decode()
    replays = re.findall(r'href="/game/(\d+)/replay/\?turn=(\d+)"', html)
    assert sorted(replays) == [(str(game.pk), "1"), (str(game.pk), "4")]
    words = measure_by_id("so.lowest_operator").amount_words
    assert (f"3 {words[1]}" if words else "· 3.0") in html
    # The whole class: Ben's miss too, with names.
    html = get(client, teacher, url, measure="so.lowest_operator", missed="1").content.decode()
    assert len(re.findall(r"/replay/\?turn=", html)) == 3 and "Ben" in html
    # Every chance.
    html = get(client, teacher, url, measure="so.lowest_operator", student=student.pk, missed="all").content.decode()
    assert len(re.findall(r"/replay/\?turn=", html)) == 6


def test_drill_down_refuses_bad_links_clearly(client, teacher, classroom, other_student):
    url = reverse("reports:moves", args=[classroom.pk])
    client.force_login(teacher)
    unreadable = "That link has a part we could not read. Go back to the dashboard and follow a number from there."
    for query, status, words in [
        ({"measure": "no.such"}, 400, "That link does not name a skill we measure. Go back to the "
                                      "dashboard and pick a number in the skill table."),
        ({"measure": "so.specials", "week": "monday"}, 400, unreadable),
        ({"measure": "so.specials", "missed": "maybe"}, 400, unreadable),
        # A student of another class is not found here (and nothing says they exist).
        ({"measure": "so.specials", "student": other_student.pk}, 404, "We couldn't find that page"),
    ]:
        response = client.get(url, query)
        html = response.content.decode()
        assert response.status_code == status, query
        assert words in html.replace("&#x27;", "'"), query
        assert other_student.display_name not in html, query


def test_heat_map_is_ten_by_ten_with_counts_and_links(client, teacher, classroom, student):
    rollup(classroom, "mg.facts", student=student, detail="7x8", chances=4, misses=1)
    rollup(classroom, "mg.facts", student=student, detail="3x4", chances=5, misses=0)
    rollup(classroom, "mg.facts", detail="7x8", chances=10, misses=6)
    url = reverse("reports:facts", args=[classroom.pk])
    html = get(client, teacher, url, student=student.pk).content.decode()
    table = html[html.index('<table class="heatmap">'):html.index("</table>")]
    assert table.count("<tr>") == 11 and table.count('<td class="heat') == 100
    assert "7 × 8: right 3 of 4 times" in table and "3 × 4: right 5 of 5 times" in table
    # a × b and b × a are one fact: 8 × 7 points to 7 × 8; a fact never tried says so.
    assert "8 × 7: the same fact as 7 × 8" in table and "9 × 9: not tried yet" in table
    assert f"measure=mg.facts&amp;detail=7x8&amp;student={student.pk}&amp;missed=all" in table
    class_html = get(client, teacher, url).content.decode()
    assert "7 × 8: right 4 of 10 times" in class_html and "band-help" in class_html


def test_student_report_compares_with_the_class(client, teacher, classroom, student):
    rollup(classroom, "so.lowest_operator", student=student, chances=37, misses=4)
    rollup(classroom, "so.lowest_operator", chances=100, misses=20)
    rollup(classroom, "so.lowest_operator", student=student, week=this_monday(), chances=10, misses=1)
    html = get(client, teacher, reverse("reports:student", args=[classroom.pk, student.pk])).content.decode()
    assert "missed" in html and ">4</a>" in html and ">20</a>" in html and "Whole class" in html
    assert '<svg class="chart"' in html


def test_recompute_button_starts_a_job_and_shows_its_progress(client, teacher, classroom, student):
    make_game(classroom, student)
    client.force_login(teacher)
    response = client.post(reverse("reports:recompute", args=[classroom.pk]))
    job = RecomputeJob.objects.get(classroom=classroom, kind="recompute")
    assert response.status_code == 302
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, job.pk])
    page = client.get(response["Location"]).content.decode()
    assert "Working out the reports again" in page
    assert client.get(reverse("reports:recompute", args=[classroom.pk])).status_code == 405


def build_class(classroom, make_student, n, *, first=0, class_rows=True):
    students = [make_student(classroom, f"Student {i}", ("cat", "sun", "tree")) for i in range(first, first + n)]
    for s in students:
        for measure in ("so.lowest_operator", "so.mental_math", "mg.facts", "all.rule_errors"):
            rollup(classroom, measure, student=s, chances=20, misses=3)
        rollup(classroom, "all.think_time", student=s, chances=20, median=5.0)
        game, moves = make_game(classroom, s, moves=1)
        flag(classroom, s)
    make_game(classroom, students[0], status=Game.Status.ACTIVE)
    if class_rows:  # one class row per week: the roll-up key is unique
        for week in (weeks_ago(2), weeks_ago(1), this_monday()):
            rollup(classroom, "so.lowest_operator", week=week, chances=100, misses=12)
    return students


MAX_DASHBOARD_QUERIES = 15


def test_dashboard_query_count_does_not_grow_with_the_class(client, teacher, classroom, make_student,
                                                             django_assert_max_num_queries):
    Assignment.objects.create(classroom=classroom, title="Warm-up", game="smooth_operator", preset="quick")
    client.force_login(teacher)
    url = dashboard_url(classroom)
    students = build_class(classroom, make_student, 5)
    with CaptureQueriesContext(connection) as five:
        assert client.get(url).status_code == 200
    students += build_class(classroom, make_student, 25, first=5, class_rows=False)
    with django_assert_max_num_queries(MAX_DASHBOARD_QUERIES):
        with CaptureQueriesContext(connection) as thirty:
            html = client.get(url).content.decode()
    assert html.count("missed <a") >= 30 * 4
    assert len(thirty) == len(five), [q["sql"] for q in thirty.captured_queries]


def test_drill_down_pages_through_many_moves(client, teacher, classroom, student):
    game, moves = make_game(classroom, student, moves=105)
    for move in moves:
        evidence(move, student, "so.lowest_operator", missed=True)
    url = reverse("reports:moves", args=[classroom.pk])
    first = get(client, teacher, url, measure="so.lowest_operator", missed="1").content.decode()
    assert len(re.findall(r"/replay/\?turn=", first)) == 100 and "1 to 100 of 105" in first
    assert "page=2" in first
    second = get(client, teacher, url, measure="so.lowest_operator", missed="1", page=2).content.decode()
    assert len(re.findall(r"/replay/\?turn=", second)) == 5 and "101 to 105 of 105" in second
    assert get(client, teacher, url, measure="so.lowest_operator", page="x").status_code == 400
