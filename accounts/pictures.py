"""The 12 pictures of picture passwords: friendly, distinct, each with a word label.

A picture password is a sequence of 3 picture keys. The drawings are inline SVG in
`templates/accounts/_picture.svg.html`, so nothing depends on an emoji font.
"""

import secrets

PICTURES: dict[str, str] = {
    "apple": "Apple",
    "ball": "Ball",
    "boat": "Boat",
    "cat": "Cat",
    "fish": "Fish",
    "flower": "Flower",
    "heart": "Heart",
    "house": "House",
    "moon": "Moon",
    "star": "Star",
    "sun": "Sun",
    "tree": "Tree",
}
PICTURE_KEYS = tuple(PICTURES)
PASSWORD_LENGTH = 3


def random_picture_password() -> list[str]:
    """Three different pictures, chosen with a cryptographic RNG."""
    keys = list(PICTURE_KEYS)
    chosen = []
    for _ in range(PASSWORD_LENGTH):
        chosen.append(keys.pop(secrets.randbelow(len(keys))))
    return chosen


def is_picture_sequence(value) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) == PASSWORD_LENGTH
        and all(v in PICTURES for v in value)
    )


def encode(sequence) -> str:
    return ",".join(sequence)


def decode(stored: str) -> list[str]:
    return [p for p in stored.split(",") if p] if stored else []


def labels(sequence) -> list[str]:
    return [PICTURES[p] for p in sequence]
