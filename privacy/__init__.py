"""What Numberdeck holds about a child, and the school's controls over it (docs/privacy.md): each app
declares what it holds about a student; from those declarations a child's or a class's data is
exported and erased, archived classes are erased when their retention ends, and every view or
export of a child's reports is logged."""
