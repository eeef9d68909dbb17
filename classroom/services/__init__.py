"""Every write of the classroom app (HackSoft style: keyword-only functions, views stay thin).

Grouped by subject; import them from here: `from classroom import services`.
"""

from .assignments import (assignment_close, assignment_create, assignment_duplicate,
                          assignment_reopen, assignment_update)
from .classes import (classroom_archive, classroom_create, classroom_delete_permanently,
                      classroom_regenerate_join_code, classroom_restore, classroom_set_free_play,
                      classroom_update)
from .co_teaching import (InviteError, co_teacher_invite, co_teacher_invite_accept,
                          co_teacher_invite_withdraw, co_teacher_remove)
from .roster import (RosterError, membership_join, student_add, student_move, student_remove,
                     student_rename, students_add)

__all__ = [
    "InviteError", "RosterError",
    "assignment_close", "assignment_create", "assignment_duplicate", "assignment_reopen",
    "assignment_update",
    "classroom_archive", "classroom_create", "classroom_delete_permanently",
    "classroom_regenerate_join_code", "classroom_restore", "classroom_set_free_play",
    "classroom_update",
    "co_teacher_invite", "co_teacher_invite_accept", "co_teacher_invite_withdraw",
    "co_teacher_remove",
    "membership_join", "student_add", "student_move", "student_remove", "student_rename", "students_add",
]
