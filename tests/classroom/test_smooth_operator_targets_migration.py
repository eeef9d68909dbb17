"""Assignments made with Smooth Operator's old presets get the new targets (a Quick game to 100
could end before the child had moved); games already dealt keep their options."""

from importlib import import_module

import pytest
from django.apps import apps

from classroom.models import Assignment

pytestmark = pytest.mark.django_db

migration = import_module("classroom.migrations.0004_smooth_operator_targets")


def test_old_smooth_operator_assignments_get_the_new_targets(make_assignment, classroom):
    quick = make_assignment(classroom, title="Old quick")
    Assignment.objects.filter(pk=quick.pk).update(options={"target": 100})
    changed_by_teacher = make_assignment(classroom, title="Own target", preset="long")
    Assignment.objects.filter(pk=changed_by_teacher.pk).update(options={"target": 777})
    migration.raise_targets(apps, None)
    quick.refresh_from_db()
    changed_by_teacher.refresh_from_db()
    assert quick.options == {"target": 650}
    assert changed_by_teacher.options == {"target": 777}  # not an old preset's value: kept
