"""What the classroom app holds about a student: read by privacy/ (privacy/registry.py
explains each key). Plain data: this app never imports privacy. The student's class is a
field of their account (accounts/privacy_data.py)."""

HELD = [
    {
        "model": "classroom.Assignment",
        "kind": "assignments",
        "label": ("assignment chosen for them", "assignments chosen for them"),
        "about": "Assignments (including 'Practise this' practice) their teacher set for chosen "
                 "students, with the student among them. Work set for the whole class is not "
                 "listed: it is the class's.",
        "student": "students",
        "fields": ["title", "game", "preset", "focus", "goal", "goal_count", "due_on", "created_at",
                   "closed_at"],
        # They leave the list; work set for them alone is deleted (an emptied list would
        # mean the whole class).
        "erase": "classroom.services.assignments.assignments_forget_student",
    },
]

NOT_ABOUT_A_STUDENT = {
    "classroom.Classroom.owner": "the class's owner is a teacher",
    "classroom.Classroom.teachers": "the class's teachers",
    "classroom.Assignment.created_by": "the teacher who set the work",
    "classroom.CoTeacherInvite.invited_by": "a teacher inviting a co-teacher",
    "classroom.CoTeacherInvite.accepted_by": "the teacher who accepted the invitation",
}
