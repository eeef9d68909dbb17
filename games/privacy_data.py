"""What the games app holds about a student: read by privacy/ (privacy/registry.py explains
each key). Plain data: this app never imports privacy."""

HELD = [
    {
        "model": "games.Seat",
        "kind": "games",
        "label": ("game played", "games played"),
        "about": "One row per game the student sat in: which game, when, how it ended for them "
                 "and who won (the result every player saw).",
        "student": "user",
        "fields": ["game_id", "game__key", "game__status", "game__created_at", "game__finished_at",
                   "position", "name", "is_winner", "score", "left_at", "game__state__winners"],
        # Who won: the student by name, the others as "another player" or "a computer player".
        "players": {"game": "game_id", "names": ["game__state__winners"]},
        # Games with no other student are deleted; in games with classmates the seat stays
        # for them, named "a former student" (games/services/former_student.py).
        "erase": "games.services.former_student.student_games_forget",
    },
    {
        "model": "games.Move",
        "kind": "moves",
        "label": ("move", "moves"),
        "about": "Every move the student tried, accepted or not: the card or answer, how long "
                 "they thought, and what the game noted about the choice (their own hand only).",
        "student": "seat__user",
        "fields": ["game_id", "game__key", "sequence", "version_before", "action", "accepted",
                   "error_code", "think_ms", "answer", "analysis", "created_at"],
        # The other players named in a move (whose turn it was, the opponent a card was played
        # on, points per player) are "another player" or "a computer player".
        "players": {"game": "game_id", "names": ["action", "analysis"]},
        "erase": "follows",  # deleted with their games, or kept with "a former student"'s seat
    },
    {
        "model": "games.Game",
        "kind": "games_started",
        "label": ("game they started", "games they started"),
        "about": "Games and tables the student started (how each went is in games.csv).",
        "student": "created_by",
        "fields": ["id", "key", "status", "created_at"],
        "erase": "detach",  # a game kept for classmates names nobody as who started it
    },
    {
        "model": "games.TableInvite",
        "kind": "invites_received",
        "label": ("invitation to a table", "invitations to a table"),
        "about": "Invitations the student received to join a classmate's table.",
        "student": "student",
        "fields": ["game_id", "game__key", "created_at"],
        "erase": "delete",
    },
    {
        "model": "games.TableInvite",
        "kind": "invites_sent",
        "label": ("invitation sent to classmates", "invitations sent to classmates"),
        "about": "Invitations the student sent to classmates (who they invited is the "
                 "classmates' own data, so only the table and the time are shown).",
        "student": "invited_by",
        "fields": ["game_id", "game__key", "created_at"],
        "erase": "detach",
    },
    {
        "model": "games.PlayerRating",
        "kind": "ratings",
        "label": ("rating", "ratings"),
        "about": "The student's rating in each game (it finds opponents of the right level).",
        "student": "user",
        "fields": ["key", "rating", "games", "updated_at"],
        "erase": "delete",
    },
    {
        "model": "games.RatingChange",
        "kind": "rating_changes",
        "label": ("rating change", "rating changes"),
        "about": "What each finished game did to the student's rating, and who the opponents at "
                 "the table were: another player, or a computer player of a level.",
        "student": "user",
        "fields": ["game_id", "key", "before", "after", "expected", "score", "opponents",
                   "played_at"],
        # A classmate's name and rating are theirs: only "another player" is shown.
        "players": {"game": "game_id", "seats": ["opponents"]},
        "erase": "delete",
    },
]

NOT_ABOUT_A_STUDENT: dict[str, str] = {}
