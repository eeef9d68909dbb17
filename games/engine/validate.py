"""Small predicates for action schemas: `bad_action` covers wrong keys and value types.

JSON has no separate boolean and integer types in Python (`True` is an `int`), so every
integer check here refuses booleans explicitly.
"""


def is_int(value) -> bool:
    return type(value) is int


def is_str(value) -> bool:
    return type(value) is str


def one_of(*allowed):
    choices = frozenset(allowed)

    def check(value) -> bool:
        try:
            return value in choices and type(value) in (int, str)
        except TypeError:  # unhashable values (lists, dicts) are never allowed codes
            return False

    return check


def list_of(item_check, min_len: int = 0, max_len: int | None = None):
    def check(value) -> bool:
        if type(value) is not list or len(value) < min_len:
            return False
        if max_len is not None and len(value) > max_len:
            return False
        return all(item_check(v) for v in value)

    return check


def dict_of(key_check, value_check):
    def check(value) -> bool:
        return type(value) is dict and all(
            key_check(k) and value_check(v) for k, v in value.items()
        )

    return check
