"""Class join codes: 6 characters from an alphabet with no look-alikes (no O/0, no I/1)."""

import secrets

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LENGTH = 6


def new_join_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(raw: str) -> str:
    """What a child typed, forgivingly: spaces and dashes dropped, upper case."""
    return "".join(ch for ch in (raw or "").upper() if ch not in " -")


def is_well_formed(code: str) -> bool:
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)
