"""What a class arena holds about a student: read by privacy/ (privacy/registry.py explains
each key). Plain data: this app never imports privacy."""

HELD = [
    {
        "model": "arena.ArenaResult",
        "kind": "arena_results",
        "label": ("arena game result", "arena game results"),
        "about": "What each arena game did for the student: won, drew or lost, and the points.",
        "student": "player__user",
        "fields": ["player__arena__title", "table__game", "outcome", "points", "doubled", "left",
                   "taken_out", "game_score", "created_at"],
        "erase": "delete",
    },
    {
        "model": "arena.ArenaPlayer",
        "kind": "arenas",
        "label": ("arena joined", "arenas joined"),
        "about": "Each class arena the student joined: their points, wins, draws, losses and "
                 "best streak.",
        "student": "user",
        "fields": ["arena__title", "arena__key", "arena__created_at", "status", "rating_at_start",
                   "points", "streak", "best_streak", "games", "wins", "draws", "losses",
                   "best_score", "joined_at"],
        "erase": "delete",
    },
    {
        "model": "arena.Arena",
        "kind": "arena_invites",
        "label": ("arena they were chosen for", "arenas they were chosen for"),
        "about": "Arenas their teacher opened for chosen students only, with the student among "
                 "them.",
        "student": "students",
        "fields": ["title", "key", "created_at"],
        "erase": "unlink",
    },
]

NOT_ABOUT_A_STUDENT = {
    "arena.Arena.created_by": "the teacher who made the arena",
}
