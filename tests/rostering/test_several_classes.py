"""A child in several classes from the roster: one membership per enrollment, moved between
classes one membership at a time, the others (and those a teacher made by hand) untouched."""

from datetime import date, timedelta

import pytest

from accounts.models import Membership, User
from classroom.models import Classroom
from classroom.services import membership_join
from rostering.bundle import checked_bundle
from rostering.models import RosterPerson, RosterSource
from rostering.plan import make_plan
from rostering.selectors import roster_state
from rostering.services import roster_apply, roster_preview
from rostering.words import as_text
from tests.conftest import active_class_names

from .bundles import enrollment, make_zip, person, school_year

pytestmark = pytest.mark.django_db
SOURCE = "Hillside SIS"
CLUB = {"sourcedId": "class-c", "title": "Maths Club", "courseSourcedId": "course-1", "classType": "scheduled",
        "schoolSourcedId": "school-1", "termSourcedIds": "term-1"}


def three_classes(*student_enrollments) -> dict:
    """school_year() with a third class (Ms Rivera's Maths Club) and the given student enrollments."""
    data = school_year()
    data["classes"].append(dict(CLUB))
    data["enrollments"] = [enrollment("e-1", "class-a", "t-1", "teacher", primary="true"),
                           enrollment("e-2", "class-b", "t-2", "teacher", primary="true"),
                           enrollment("e-c", "class-c", "t-1", "teacher", primary="true"),
                           enrollment("e-5", "class-b", "s-3", "student"), *student_enrollments]
    return data


def apply(data) -> None:
    roster_apply(bundle=checked_bundle(make_zip(data)), source_name=SOURCE)


def preview(data):
    return roster_preview(bundle=checked_bundle(make_zip(data)), source_name=SOURCE)


def changes(plan):
    return {c.title: c for c in plan.changed_classes}


def student(sid) -> User:
    return RosterPerson.objects.get(sourced_id=sid).user


def memberships(user) -> dict[str, bool]:
    """Class name -> the membership is active, every membership the child ever had."""
    return {m.classroom.name: m.archived_at is None for m in Membership.objects.filter(student=user)}


def test_a_child_in_two_classes_gets_two_memberships():
    data = three_classes(enrollment("e-3", "class-a", "s-1", "student"), enrollment("e-6", "class-c", "s-1", "student"))
    plan = preview(data)
    assert changes(plan)["5A Maths"].students_added == ["Ann Lee"]
    assert changes(plan)["Maths Club"].students_added == ["Ann Lee"]
    assert "classes:" not in as_text(plan) and "until" not in as_text(plan)
    apply(data)
    assert active_class_names(student("s-1")) == ["5A Maths", "Maths Club"]
    assert User.objects.filter(display_name="Ann Lee").count() == 1


def test_the_same_bundle_twice_changes_nothing_with_several_classes():
    data = three_classes(enrollment("e-3", "class-a", "s-1", "student"), enrollment("e-6", "class-c", "s-1", "student"))
    apply(data)
    before = list(Membership.objects.order_by("pk").values())
    assert preview(data).is_empty
    apply(data)
    assert list(Membership.objects.order_by("pk").values()) == before


def test_a_reimport_moves_a_child_from_one_class_to_another_and_leaves_the_others():
    apply(three_classes(enrollment("e-3", "class-a", "s-1", "student"), enrollment("e-6", "class-c", "s-1", "student")))
    ann = student("s-1")
    club = Membership.objects.get(student=ann, classroom__name="Maths Club")
    moved = three_classes(enrollment("e-3b", "class-b", "s-1", "student"),
                          enrollment("e-6", "class-c", "s-1", "student"))
    plan = preview(moved)
    assert changes(plan)["5B Maths"].students_moved_in == [("Ann Lee", "5A Maths")]
    assert changes(plan)["5A Maths"].students_moved_out == [("Ann Lee", "5B Maths")]
    assert "Maths Club" not in changes(plan)
    text = as_text(plan)
    assert "Ann Lee moves here from 5A Maths." in text and "Ann Lee leaves for 5B Maths." in text

    apply(moved)
    ann.refresh_from_db()
    assert ann.is_active
    assert memberships(ann) == {"5A Maths": False, "5B Maths": True, "Maths Club": True}  # 5A kept, archived
    assert Membership.objects.get(pk=club.pk).joined_at == club.joined_at  # the club's membership untouched
    assert preview(moved).is_empty


def test_tobedeleted_archives_only_that_class():
    data = three_classes(enrollment("e-3", "class-a", "s-1", "student"), enrollment("e-6", "class-c", "s-1", "student"))
    apply(data)
    data["enrollments"][-1]["status"] = "tobedeleted"
    plan = preview(data)
    assert changes(plan)["Maths Club"].students_removed == ["Ann Lee"]
    assert "5A Maths" not in changes(plan)
    apply(data)
    ann = student("s-1")
    assert ann.is_active and memberships(ann) == {"5A Maths": True, "Maths Club": False}
    assert not RosterPerson.objects.get(sourced_id="s-1").archived_at

    # Taken out of their last class as well: the class list's own removal ends their sign-in.
    data["enrollments"][-2]["status"] = "tobedeleted"
    apply(data)
    ann.refresh_from_db()
    assert not ann.is_active and memberships(ann) == {"5A Maths": False, "Maths Club": False}


def test_a_membership_a_teacher_made_by_hand_survives_a_bulk_import(make_classroom):
    data = three_classes(enrollment("e-3", "class-a", "s-1", "student"))
    apply(data)
    ann = student("s-1")
    rivera = User.objects.get(display_name="Rosa Rivera")
    membership_join(student=ann, classroom=Classroom.objects.get(name="Maths Club"))  # a roster class, by hand
    membership_join(student=ann, classroom=make_classroom(rivera, name="Times Tables"))  # a class of her own
    assert preview(data).is_empty
    apply(data)
    assert active_class_names(ann) == ["5A Maths", "Maths Club", "Times Tables"]

    # The roster takes her out of 5A: she keeps the classes the teacher put her in, and her sign-in.
    data["enrollments"] = data["enrollments"][:-1]
    plan = preview(data)
    assert changes(plan)["5A Maths"].students_removed == ["Ann Lee"]
    apply(data)
    ann.refresh_from_db()
    assert ann.is_active and active_class_names(ann) == ["Maths Club", "Times Tables"]


def test_an_enrollment_that_begins_later_is_announced_not_placed():
    begins = (date.today() + timedelta(days=30)).isoformat()
    data = three_classes(enrollment("e-3", "class-a", "s-1", "student"),
                         enrollment("e-6", "class-c", "s-1", "student", beginDate=begins))
    plan = preview(data)
    assert "Maths Club" not in changes(plan) or changes(plan)["Maths Club"].students_added == []
    assert f"Ann Lee starts in Maths Club on {begins}" in as_text(plan)
    apply(data)
    assert active_class_names(student("s-1")) == ["5A Maths"]

    # From that day, the same bundle places her.
    later = make_plan(bundle=checked_bundle(make_zip(data)),
                      state=roster_state(source=RosterSource.objects.get(name=SOURCE)),
                      today=date.fromisoformat(begins))
    assert changes(later)["Maths Club"].students_added == ["Ann Lee"]
    assert ("student_join", "s-1", "class-c") in later.ops


def test_a_child_takes_the_name_of_one_who_leaves_the_class_in_the_same_import():
    apply(three_classes(enrollment("e-3", "class-a", "s-1", "student")))
    data = three_classes(enrollment("e-3b", "class-b", "s-1", "student"),
                         enrollment("e-9", "class-a", "s-9", "student"))
    data["users"].append(person("s-9", "Ann", "Lee", "student"))  # another Ann Lee, in the class the first leaves
    plan = preview(data)
    assert changes(plan)["5A Maths"].students_added == ["Ann Lee"]
    assert not any("is called" in note for note in plan.notes)
    apply(data)
    assert active_class_names(student("s-1")) == ["5B Maths"]
    assert active_class_names(student("s-9")) == ["5A Maths"] and student("s-9").display_name == "Ann Lee"
