"""What the OneRoster 1.1 and 1.2 CSV bindings say about the files Numberdeck reads.

Pure data, no Django. The names below are the specification's, spelled as it spells them:
headers are case-sensitive, so `sourcedid` is not `sourcedId`.

Each file's header in the specification (in its order):

- orgs.csv (1.1, 1.2): sourcedId, status, dateLastModified, name, type, identifier,
  parentSourcedId
- academicSessions.csv (1.1, 1.2): sourcedId, status, dateLastModified, title, type,
  startDate, endDate, parentSourcedId, schoolYear
- courses.csv (1.1, 1.2): sourcedId, status, dateLastModified, schoolYearSourcedId, title,
  courseCode, grades, orgSourcedId, subjects, subjectCodes
- classes.csv (1.1, 1.2): sourcedId, status, dateLastModified, title, grades,
  courseSourcedId, classCode, classType, location, schoolSourcedId, termSourcedIds, subjects,
  subjectCodes, periods
- users.csv, 1.1: sourcedId, status, dateLastModified, enabledUser, orgSourcedIds, role,
  username, userIds, givenName, familyName, middleName, identifier, email, sms, phone,
  agentSourcedIds, grades, password
- users.csv, 1.2: sourcedId, status, dateLastModified, enabledUser, username, userIds,
  givenName, familyName, middleName, identifier, email, sms, phone, agentSourcedIds, grades,
  password, userMasterIdentifier, resourceSourcedIds, preferredGivenName,
  preferredMiddleName, preferredFamilyName, primaryOrgSourcedId, pronouns
  (1.2 moves `role` and `orgSourcedIds` out of users.csv into roles.csv)
- roles.csv (1.2 only): sourcedId, status, dateLastModified, userSourcedId, roleType, role,
  beginDate, endDate, orgSourcedId, userProfileSourcedId
- enrollments.csv (1.1, 1.2): sourcedId, status, dateLastModified, classSourcedId,
  schoolSourcedId, userSourcedId, role, primary, beginDate, endDate
- manifest.csv: propertyName, value; rows such as `oneroster.version` (1.1 or 1.2) and
  `file.users` (bulk, delta or absent), `source.systemName`.

`REQUIRED` lists, per file, the columns Numberdeck insists on: the ones it reads and the ones
the specification requires a value for. Other columns (optional in the specification:
`classCode`, `sms`, `phone`, ...) may be missing and are ignored when present; so are files
Numberdeck does not read (`demographics.csv`, with birth dates and the like, is never opened).
"""

from __future__ import annotations

VERSIONS = ("1.1", "1.2")

MANIFEST = "manifest.csv"
ORGS = "orgs.csv"
SESSIONS = "academicSessions.csv"
COURSES = "courses.csv"
CLASSES = "classes.csv"
USERS = "users.csv"
ROLES = "roles.csv"
ENROLLMENTS = "enrollments.csv"

# The manifest's row naming each file: "file.users" -> bulk, delta or absent.
MANIFEST_KEY = {ORGS: "file.orgs", SESSIONS: "file.academicSessions", COURSES: "file.courses",
                CLASSES: "file.classes", USERS: "file.users", ROLES: "file.roles",
                ENROLLMENTS: "file.enrollments"}

# The files Numberdeck reads, in the order they are checked (referenced before referring).
DATA_FILES = {
    "1.1": (ORGS, SESSIONS, COURSES, CLASSES, USERS, ENROLLMENTS),
    "1.2": (ORGS, SESSIONS, COURSES, CLASSES, USERS, ROLES, ENROLLMENTS),
}

_COMMON = ("sourcedId", "status", "dateLastModified")
REQUIRED = {
    "1.1": {
        ORGS: _COMMON + ("name", "type"),
        SESSIONS: _COMMON + ("title", "type", "startDate", "endDate", "schoolYear"),
        COURSES: _COMMON + ("title", "orgSourcedId"),
        CLASSES: _COMMON + ("title", "courseSourcedId", "classType", "schoolSourcedId", "termSourcedIds"),
        USERS: _COMMON + ("enabledUser", "orgSourcedIds", "role", "username", "givenName", "familyName"),
        ENROLLMENTS: _COMMON + ("classSourcedId", "schoolSourcedId", "userSourcedId", "role"),
    },
    "1.2": {
        ORGS: _COMMON + ("name", "type"),
        SESSIONS: _COMMON + ("title", "type", "startDate", "endDate", "schoolYear"),
        COURSES: _COMMON + ("title", "orgSourcedId"),
        CLASSES: _COMMON + ("title", "courseSourcedId", "classType", "schoolSourcedId", "termSourcedIds"),
        USERS: _COMMON + ("enabledUser", "username", "givenName", "familyName"),
        ROLES: _COMMON + ("userSourcedId", "roleType", "role", "orgSourcedId"),
        ENROLLMENTS: _COMMON + ("classSourcedId", "schoolSourcedId", "userSourcedId", "role"),
    },
}

# Status: blank is allowed in a bulk file (every row is then active). 1.1 still accepts
# `inactive`, deprecated and kept for 1.0 exporters; Numberdeck reads it as `tobedeleted`.
STATUSES = {"1.1": {"active", "tobedeleted", "inactive"}, "1.2": {"active", "tobedeleted"}}
TO_BE_DELETED = {"tobedeleted", "inactive"}

# A user's role (users.csv in 1.1, roles.csv in 1.2).
USER_ROLES = {
    "1.1": {"administrator", "aide", "guardian", "parent", "proctor", "relative", "student", "teacher"},
    "1.2": {"aide", "counselor", "districtAdministrator", "guardian", "parent", "principal", "proctor",
            "relative", "siteAdministrator", "student", "systemAdministrator", "teacher"},
}
# A role in one class (enrollments.csv).
ENROLLMENT_ROLES = {"1.1": {"administrator", "proctor", "student", "teacher"},
                    "1.2": {"administrator", "aide", "proctor", "student", "teacher"}}
ROLE_TYPES = {"primary", "secondary"}  # roles.csv, 1.2
BOOLEANS = {"true": True, "false": False}  # enabledUser, primary
# 1.2 lets a vocabulary be extended with values that start "ext:".
EXTENSION_PREFIX = "ext:"

# Date columns: a calendar date (YYYY-MM-DD), or a date and time (dateLastModified).
DATE_COLUMNS = ("startDate", "endDate", "beginDate")
DATETIME_COLUMNS = ("dateLastModified",)
