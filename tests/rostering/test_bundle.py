"""Reading and checking bundles: what is kept, and every problem by file and line."""

import dataclasses

import pytest

from rostering.bundle import read_bundle
from rostering.records import Bundle

from .bundles import enrollment, make_zip, person, school_year


def messages(problems):
    return [str(p) for p in problems]


@pytest.mark.parametrize("version", ["1.1", "1.2"])
def test_both_versions_read_the_same_school(version):
    bundle, problems = read_bundle(make_zip(school_year(), version=version))
    assert problems == []
    assert bundle.version == version
    assert bundle.source_name == "Hillside SIS"
    assert [(c.sourced_id, c.title, c.terms) for c in bundle.classes] == [
        ("class-a", "5A Maths", ("term-1",)), ("class-b", "5B Maths", ("term-1",))]
    people = {p.sourced_id: p for p in bundle.people}
    assert people["t-1"].role == "teacher" and people["t-1"].email == "rivera@hillside.test"
    assert people["s-1"].role == "student" and people["s-1"].name == "Ann Lee"
    assert [(e.class_id, e.user_id, e.role) for e in bundle.enrollments][:3] == [
        ("class-a", "t-1", "teacher"), ("class-b", "t-2", "teacher"), ("class-a", "s-1", "student")]


@pytest.mark.parametrize("version", ["1.1", "1.2"])
def test_only_what_numberdeck_needs_is_kept(version):
    bundle, problems = read_bundle(make_zip(school_year(), version=version))
    assert problems == []
    kept = repr(bundle.as_json())
    # Phones, middle names, passwords, demographics (birth dates, city of birth): never kept.
    for never in ("555-0100", "555-0101", "Quinn", "hunter2", "2016-03-04", "Springfield", "female"):
        assert never not in kept
    # A student's e-mail is not kept; a teacher's is.
    assert "ann@kids.test" not in kept
    assert "rivera@hillside.test" in kept
    assert {f.name for f in dataclasses.fields(bundle.people[0])} == {
        "sourced_id", "status", "enabled", "given_name", "family_name", "preferred_name", "username",
        "identifier", "email", "grades", "roles", "line"}


def test_the_kept_bundle_survives_json():
    bundle, _ = read_bundle(make_zip(school_year(), version="1.2"))
    assert Bundle.from_json(bundle.as_json()) == bundle


def test_preferred_name_in_1_2():
    data = school_year(students=[person("s-1", "Annabel", "Lee", "student", preferredGivenName="Ann"),
                                 person("s-2", "Ben", "Diaz", "student"), person("s-3", "Cleo", "Park", "student")])
    bundle, problems = read_bundle(make_zip(data, version="1.2"))
    assert problems == []
    assert next(p for p in bundle.people if p.sourced_id == "s-1").name == "Ann Lee"


def test_not_a_zip():
    _bundle, problems = read_bundle(b"name,username\nAnn,\n")
    assert messages(problems) == ["the file: This is not a zip file. Upload the .zip your school's system exported."]


@pytest.mark.parametrize("missing", ["users.csv", "enrollments.csv", "manifest.csv"])
def test_a_missing_file(missing):
    _bundle, problems = read_bundle(make_zip(school_year(), drop=(missing,)))
    assert f"{missing}: The file is missing from the zip." in messages(problems)


def test_roles_csv_is_required_in_1_2():
    _bundle, problems = read_bundle(make_zip(school_year(), version="1.2", drop=("roles.csv",)))
    assert messages(problems) == ["roles.csv: The file is missing from the zip."]


def test_headers_are_case_sensitive():
    bad = "sourcedid,status,dateLastModified,title,courseSourcedId,classType,schoolSourcedId,termSourcedIds\n"
    _bundle, problems = read_bundle(make_zip(school_year(), replace={"classes.csv": bad}))
    assert messages(problems)[0] == ("classes.csv, line 1: Missing column(s): sourcedId. "
                                     "Column names are case-sensitive.")


def test_an_unknown_user_in_enrollments_is_listed_by_line():
    data = school_year()
    data["enrollments"].append(enrollment("e-9", "class-a", "s-404", "student"))
    data["enrollments"].append(enrollment("e-10", "class-zz", "s-1", "student"))
    _bundle, problems = read_bundle(make_zip(data))
    assert messages(problems) == [
        "enrollments.csv, line 7: userSourcedId “s-404” is not in users.csv.",
        "enrollments.csv, line 8: classSourcedId “class-zz” is not in classes.csv.",
    ]


def test_a_class_to_an_unknown_course_and_school():
    data = school_year()
    data["classes"][1] = {**data["classes"][1], "courseSourcedId": "course-9", "schoolSourcedId": "school-9"}
    _bundle, problems = read_bundle(make_zip(data))
    assert messages(problems) == [
        "classes.csv, line 3: courseSourcedId “course-9” is not in courses.csv.",
        "classes.csv, line 3: schoolSourcedId “school-9” is not in orgs.csv.",
    ]


def test_bad_dates():
    data = school_year()
    data["sessions"][0]["endDate"] = "31/01/2027"
    data["enrollments"][2]["beginDate"] = "2026-13-01"
    data["enrollments"][3].update(beginDate="2026-09-01", endDate="2026-08-01")
    data["users"][0]["dateLastModified"] = "yesterday"
    _bundle, problems = read_bundle(make_zip(data))
    assert messages(problems) == [
        "academicSessions.csv, line 2: endDate “31/01/2027” is not a date like 2026-09-01.",
        "users.csv, line 2: dateLastModified “yesterday” is not a date like 2026-09-01T08:00:00.000Z.",
        "enrollments.csv, line 4: beginDate “2026-13-01” is not a date like 2026-09-01.",
        "enrollments.csv, line 5: The end date 2026-08-01 is before the start date 2026-09-01.",
    ]


def test_duplicate_and_empty_ids_unknown_role_and_status():
    data = school_year()
    data["users"].append(person("s-1", "Ann", "Again", "student"))
    data["users"].append(person("", "No", "Id", "student"))
    data["users"].append(person("s-7", "Dan", "Wu", "janitor"))
    data["classes"][0]["status"] = "gone"
    _bundle, problems = read_bundle(make_zip(data))
    assert messages(problems) == [
        "classes.csv, line 2: Unknown status “gone” (expected active or tobedeleted).",
        "users.csv, line 7: The sourcedId “s-1” appears more than once in this file.",
        "users.csv, line 8: The sourcedId is empty.",
        "users.csv, line 9: Unknown role “janitor” (expected one of: administrator, aide, guardian, parent, "
        "proctor, relative, student, teacher).",
    ]


def test_a_1_2_extension_role_is_accepted():
    data = school_year()
    data["users"].append(person("x-1", "Pat", "Lu", "ext:librarian"))
    _bundle, problems = read_bundle(make_zip(data, version="1.2"))
    assert problems == []


def test_a_delta_may_refer_to_what_an_earlier_import_brought():
    data = school_year(classes=[], students=[], teachers=[],
                       enrollments=[enrollment("e-9", "class-a", "s-1", "student")])
    modes = {"classes": "delta", "users": "delta", "enrollments": "delta"}
    _bundle, problems = read_bundle(make_zip(data, modes=modes), known_users={"s-1"}, known_classes={"class-a"})
    assert problems == []
    _bundle, problems = read_bundle(make_zip(data, modes=modes))
    assert messages(problems) == [
        "enrollments.csv, line 2: classSourcedId “class-a” is not in classes.csv.",
        "enrollments.csv, line 2: userSourcedId “s-1” is not in users.csv.",
    ]
