"""Arena writes (HackSoft style: keyword-only functions; views and consumers stay thin)."""

from .counting import count_table
from .lifecycle import (ArenaError, arena_back, arena_by_code, arena_create, arena_end, arena_join,
                        arena_let_back, arena_let_in, arena_pause, arena_rest, arena_resume,
                        arena_start, arena_take_out, may_join)
from .rounds import RoundReport, arena_round, live_arena_ids

__all__ = ["ArenaError", "RoundReport", "arena_back", "arena_by_code", "arena_create", "arena_end",
           "arena_join", "arena_let_back", "arena_let_in", "arena_pause", "arena_rest",
           "arena_resume", "arena_round", "arena_start", "arena_take_out", "count_table",
           "live_arena_ids", "may_join"]
