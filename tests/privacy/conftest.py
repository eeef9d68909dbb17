"""A class in which Ann has data in every declared kind (privacy/registry.py), made through the
apps' real services: games alone and with her classmate Ben, moves, skill records, roll-ups
and flags, ratings, an arena, tables and invitations, assignments, a class report file.

Built once per test module (`module_world`: each test is rolled back to it), since playing the
games is the costly part."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiContext, LtiUser

from accounts.models import User
from accounts.services import student_create
from arena.models import Arena, ArenaGame, ArenaPlayer
from arena.services.counting import count_table
from arena.services.lifecycle import arena_create, arena_join, arena_start
from arena.services.rounds import arena_round
from classroom.models import Assignment, Classroom
from classroom.services import assignment_create
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games.models import Game
from games.services import SeatSpec, game_create
from games.services.ratings import ratings_update_for_game
from games.services.tables import table_invite, table_join, table_open
from lti.models import GradePost, PlacedAssignment
from lti.registration import lti_platform_register
from reports import services as reports_services
from reports.exports.jobs import export_run_job, export_start
from reports.models import RecomputeJob
from rostering.models import RosterClass, RosterEnrollment, RosterPerson, RosterSource
from tests.arena.conftest import play_to_end
from tests.classroom.test_permission_matrix import build_world as classroom_world
from tests.conftest import module_world


@dataclass
class World:
    owner: User
    co_teacher: User
    other_teacher: User
    ann: User  # the child whose data is exported and erased
    ben: User  # her classmate, whose shared games must stay
    olga: User  # a student of another class
    classroom: Classroom
    other_class: Classroom
    solo_game: Game  # Ann against computer players
    shared_game: Game  # Ann and Ben, finished and rated
    arena: Arena
    only_ann: Assignment  # chosen for Ann alone
    ann_and_ben: Assignment
    export: RecomputeJob  # a class report file that names Ann

    def user(self, role: str) -> User | None:
        return {"owner": self.owner, "co_teacher": self.co_teacher,
                "other_teacher": self.other_teacher, "student": self.ann,
                "classmate": self.ben, "other_student": self.olga, "anonymous": None}[role]


def _assignment(w_class, teacher, students, title):
    return assignment_create(classroom=w_class, created_by=teacher, students=students, title=title,
                             game="smooth_operator", preset="quick", opponents="bots",
                             bot_level="player", bot_count=1, mental_math=False, goal="play",
                             goal_count=3, goal_until=None, due_on=None)


def arena_played(teacher, classroom, students) -> ArenaGame:
    """An arena of Smooth Operator to 200 for `students`: its first table played to the end
    through the move service and counted."""
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena", key="smooth_operator",
                         options={"target": 200}, minutes=10, mode=Arena.Mode.POINTS, students=students)
    for student in students:
        arena_join(student=student, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    arena_round(arena_id=arena.pk, force=True)
    table = ArenaGame.objects.get(arena=arena)
    play_to_end(table.game)
    count_table(table_id=table.pk)
    return table


def build_world() -> World:
    # The classroom permission matrix's people and classes: Ms Rivera's Class 5B with Ann,
    # her co-teacher, and Mr Other's class with Olga.
    base = classroom_world()
    owner, co, other, ann, olga = (base.owner, base.co_teacher, base.other_teacher, base.student,
                                   base.other_student)
    classroom, other_class = base.classroom, base.other_student.memberships.get().classroom
    ben = student_create(classroom=classroom, display_name="Ben", picture_password=["boat", "star", "apple"])

    only_ann = _assignment(classroom, owner, [ann], "Just for Ann")
    ann_and_ben = _assignment(classroom, owner, [ann, ben], "Ann and Ben")
    # Alone against computer players, with rule errors: moves, skill records, totals, a flag.
    solo = play_game(key="smooth_operator", classroom=classroom, student=ann, seed=4,
                     player=PlantedPlayer([parse_plant("all.rule_errors=0.2")]), assignment=only_ann)
    play_game(key="smooth_operator", classroom=classroom, student=ben, seed=5, player=PlantedPlayer([]))
    play_game(key="multiplication", classroom=other_class, student=olga, seed=6, player=PlantedPlayer([]))
    # With Ben: played to the end through the move service, reported and rated.
    shared = game_create(key="smooth_operator", classroom=classroom, seed=9, options={"target": 200},
                         seats=[SeatSpec("Ann", user=ann), SeatSpec("Ben", user=ben)])
    play_to_end(shared)
    reports_services.game_finished(game_id=shared.pk)
    ratings_update_for_game(game_id=shared.pk)
    # An arena for the two of them, one game played and counted.
    arena = arena_played(owner, classroom, [ann, ben]).arena
    # Tables: one Ann opened, Cat joined and Ben is invited to; one Ben opened and invited her to.
    cat = student_create(classroom=classroom, display_name="Cat", picture_password=["cat", "sun", "tree"])
    hers = table_open(student=ann, key="smooth_operator")
    table_join(student=cat, game_id=hers.pk)
    table_invite(host=ann, game_id=hers.pk, student_id=ben.pk)
    his = table_open(student=ben, key="smooth_operator")
    table_invite(host=ben, game_id=his.pk, student_id=ann.pk)
    # Ann and Ben came from the school's roster (rostering/): their ids there, and their class's.
    source = RosterSource.objects.create(name="Hillside SIS")
    roster_class = RosterClass.objects.create(source=source, sourced_id="class-5b", classroom=classroom)
    for kid in (ann, ben):
        person = RosterPerson.objects.create(source=source, sourced_id=f"sis-{kid.display_name}", user=kid,
                                             role="student")
        RosterEnrollment.objects.create(source=source, sourced_id=f"enrol-{kid.display_name}", person=person,
                                        roster_class=roster_class, role="student")
    # Her school's learning platform opens Numberdeck for her (lti/).
    platform = lti_platform_register(name="District Moodle", issuer="https://moodle.school.test",
                                     client_id="nd", deployment_ids=["1"], keyset_url="https://moodle.school.test/keys",
                                     auth_url="https://moodle.school.test/auth", token_url="https://moodle.school.test/token")
    LtiUser.objects.create(registration=platform, sub="moodle-user-17", auth_user=ann)
    # An assignment placed in her course there, and the grade sent for her.
    course = LtiContext.objects.create(deployment=platform.deployments.get(), id_on_platform="course-5b")
    placement = PlacedAssignment.objects.create(assignment=ann_and_ben, context=course)
    GradePost.objects.create(placement=placement, student=ann, score=50, state=GradePost.State.POSTED)
    # A class report file (it names every student of the class).
    export = export_start(classroom=classroom, requested_by=owner, export_format="csv")
    export_run_job(job_id=export.pk)
    export.refresh_from_db()
    assert ArenaPlayer.objects.filter(user=ann).exists() and export.file
    # The owner opened Ann's skill report: a row of the access log (privacy/middleware.py).
    viewer = Client()
    viewer.force_login(owner)
    assert viewer.get(reverse("reports:student", args=[classroom.pk, ann.pk])).status_code == 200
    return World(owner=owner, co_teacher=co, other_teacher=other, ann=ann, ben=ben, olga=olga,
                 classroom=classroom, other_class=other_class, solo_game=solo, shared_game=shared,
                 arena=arena, only_ann=only_ann, ann_and_ben=ann_and_ben, export=export)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """Built once for the module; each test (`db`) is rolled back to it. Files (the class
    report) go to a folder of the module's own."""
    from django.conf import settings

    before = settings.MEDIA_ROOT
    settings.MEDIA_ROOT = str(tmp_path_factory.mktemp("media"))
    try:
        with module_world(django_db_blocker):
            yield build_world()
    finally:
        settings.MEDIA_ROOT = before
