"""OneRoster bundles built in the tests: a zip written from dicts, shaped as 1.1 and 1.2 exports
are, with every column of the specification's header (and demographics.csv, which Numberdeck
must never read)."""

from __future__ import annotations

import csv
import io
import zipfile

HEADERS = {
    "orgs.csv": "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId",
    "academicSessions.csv": "sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,"
                            "schoolYear",
    "courses.csv": "sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,"
                   "subjects,subjectCodes",
    "classes.csv": "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,"
                   "schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods",
    "enrollments.csv": "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,"
                       "primary,beginDate,endDate",
    "demographics.csv": "sourcedId,status,dateLastModified,birthDate,sex,americanIndianOrAlaskaNative,asian,"
                        "blackOrAfricanAmerican,nativeHawaiianOrOtherPacificIslander,white,"
                        "demographicRaceTwoOrMoreRaces,hispanicOrLatinoEthnicity,countryOfBirthCode,"
                        "stateOfBirthAbbreviation,cityOfBirth,publicSchoolResidenceStatus",
}
USERS_11 = ("sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,"
            "familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password")
USERS_12 = ("sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,"
            "identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,"
            "resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,"
            "primaryOrgSourcedId,pronouns")
ROLES_12 = "sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId," \
           "userProfileSourcedId"
STAMP = "2026-08-20T07:00:00.000Z"


def person(sid, given, family, role, **extra) -> dict:
    return {"sourcedId": sid, "enabledUser": "true", "orgSourcedIds": "school-1", "role": role,
            "username": f"{given.lower()}.{family.lower()}", "givenName": given, "familyName": family,
            "phone": "555-0100", "sms": "555-0101", "middleName": "Quinn", "password": "hunter2",
            "identifier": f"ID-{sid}", "grades": "05" if role == "student" else "", **extra}


def school_year(students=None, teachers=None, classes=None, enrollments=None) -> dict:
    """A small school: two classes of 5th grade maths, two teachers, three students."""
    return {
        "orgs": [{"sourcedId": "school-1", "name": "Hillside Elementary", "type": "school"}],
        "sessions": [{"sourcedId": "term-1", "title": "Fall 2026", "type": "term", "startDate": "2026-09-01",
                      "endDate": "2027-01-31", "schoolYear": "2027"}],
        "courses": [{"sourcedId": "course-1", "title": "Math 5", "orgSourcedId": "school-1"}],
        "classes": classes if classes is not None else [
            {"sourcedId": "class-a", "title": "5A Maths", "courseSourcedId": "course-1", "classType": "scheduled",
             "schoolSourcedId": "school-1", "termSourcedIds": "term-1", "grades": "05"},
            {"sourcedId": "class-b", "title": "5B Maths", "courseSourcedId": "course-1", "classType": "scheduled",
             "schoolSourcedId": "school-1", "termSourcedIds": "term-1", "grades": "05"},
        ],
        "users": (teachers if teachers is not None else [
            person("t-1", "Rosa", "Rivera", "teacher", email="rivera@hillside.test"),
            person("t-2", "Tom", "Okafor", "teacher", email="okafor@hillside.test"),
        ]) + (students if students is not None else [
            person("s-1", "Ann", "Lee", "student", email="ann@kids.test"),
            person("s-2", "Ben", "Diaz", "student"),
            person("s-3", "Cleo", "Park", "student"),
        ]),
        "enrollments": enrollments if enrollments is not None else [
            enrollment("e-1", "class-a", "t-1", "teacher", primary="true"),
            enrollment("e-2", "class-b", "t-2", "teacher", primary="true"),
            enrollment("e-3", "class-a", "s-1", "student"),
            enrollment("e-4", "class-a", "s-2", "student"),
            enrollment("e-5", "class-b", "s-3", "student"),
        ],
        "demographics": [{"sourcedId": sid, "birthDate": "2016-03-04", "sex": "female", "cityOfBirth": "Springfield"}
                         for sid in ("s-1", "s-2", "s-3")],
    }


def enrollment(sid, class_id, user_id, role, **extra) -> dict:
    return {"sourcedId": sid, "classSourcedId": class_id, "schoolSourcedId": "school-1", "userSourcedId": user_id,
            "role": role, "primary": "false", "beginDate": "2026-09-01", **extra}


def _csv(header: str, rows: list[dict]) -> str:
    out = io.StringIO()
    columns = header.split(",")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        row = {"status": "active", "dateLastModified": STAMP, **row}
        writer.writerow([row.get(c, "") for c in columns])
    return out.getvalue()


def make_zip(data: dict, *, version: str = "1.1", modes: dict | None = None, drop: tuple = (),
             replace: dict | None = None, system: str = "Hillside SIS") -> bytes:
    """A zip of the bundle in `data` (school_year()'s shape). `drop`: files to leave out;
    `replace`: file name -> raw text to write instead."""
    files = {name: _csv(HEADERS[name], data[key]) for name, key in [
        ("orgs.csv", "orgs"), ("academicSessions.csv", "sessions"), ("courses.csv", "courses"),
        ("classes.csv", "classes"), ("enrollments.csv", "enrollments"), ("demographics.csv", "demographics")]}
    if version == "1.1":
        files["users.csv"] = _csv(USERS_11, data["users"])
    else:
        files["users.csv"] = _csv(USERS_12, data["users"])
        files["roles.csv"] = _csv(ROLES_12, [
            {"sourcedId": f"r-{u['sourcedId']}", "userSourcedId": u["sourcedId"], "roleType": "primary",
             "role": u["role"], "orgSourcedId": "school-1"} for u in data["users"]])
    modes = {"academicSessions": "bulk", "classes": "bulk", "courses": "bulk", "demographics": "bulk",
             "enrollments": "bulk", "orgs": "bulk", "users": "bulk", **(modes or {})}
    if version == "1.2":
        modes.setdefault("roles", "bulk")
    manifest = [("manifest.version", "1.0"), ("oneroster.version", version)] + \
        [(f"file.{k}", v) for k, v in sorted(modes.items())] + [("source.systemName", system)]
    files["manifest.csv"] = _csv_rows(["propertyName", "value"], manifest)
    files.update(replace or {})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            if name not in drop:
                archive.writestr(name, text)
    return out.getvalue()


def _csv_rows(header: list[str], rows: list[tuple]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
