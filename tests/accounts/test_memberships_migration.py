"""The migration to several classes per child keeps every child's class: migrated back to
before memberships existed, a child with a class and one without; forward again, the first
has one active membership of that class (joined when their account was made), the second
none, and the old column is gone."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0006_teacher_email_may_be_blank")]
AFTER = [("accounts", "0009_remove_user_classroom")]
CLASSES = [("classroom", "0006_classroom_language")]  # the classes' table as it is on both sides


@pytest.mark.django_db(transaction=True)
def test_each_childs_class_becomes_an_active_membership():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE + CLASSES).apps
    User, Classroom = old.get_model("accounts", "User"), old.get_model("classroom", "Classroom")
    teacher = User.objects.create(username="rivera@school.test", email="rivera@school.test", role="teacher")
    five_b = Classroom.objects.create(name="Class 5B", owner=teacher, join_code="MIG234")
    ann = User.objects.create(username="s-ann", display_name="Ann", role="student", classroom=five_b)
    drifter = User.objects.create(username="s-nobody", display_name="Nobody", role="student")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER + CLASSES).apps
    Membership = new.get_model("accounts", "Membership")
    assert list(Membership.objects.values_list("student_id", "classroom_id", "archived_at")) == [
        (ann.pk, five_b.pk, None)]
    assert Membership.objects.get().joined_at == ann.date_joined
    assert not Membership.objects.filter(student_id=drifter.pk).exists()
    assert "classroom" not in {f.name for f in new.get_model("accounts", "User")._meta.get_fields()}

    # And back: the child's class is the column again.
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(BEFORE)
    back = executor.loader.project_state(BEFORE + CLASSES).apps
    assert back.get_model("accounts", "User").objects.get(pk=ann.pk).classroom_id == five_b.pk
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
