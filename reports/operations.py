"""Operations (+ − × ÷) in the details of the measures counted per operation: the report's
own sign for each spelling, and their names. Pure: no database.
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

# Another spelling of an operation in a detail, read as the report's own sign.
_OPERATION_SPELLINGS = {"+": "+", "−": "−", "-": "−", "×": "×", "x": "×", "*": "×",
                        "÷": "÷", "/": "÷", ":": "÷"}
# (teacher's name, what a child did) per operation
OPERATION_WORDS = {
    "+": (pgettext_lazy("operation heading", "Adding"), pgettext_lazy("operation", "adding")),
    "−": (pgettext_lazy("operation heading", "Taking away"), pgettext_lazy("operation", "taking away")),
    "×": (pgettext_lazy("operation heading", "Multiplying"), pgettext_lazy("operation", "multiplying")),
    "÷": (pgettext_lazy("operation heading", "Dividing"), pgettext_lazy("operation", "dividing")),
}


def operation_of(detail: str) -> str | None:
    """A per-operation detail as one of OPERATIONS ("+", "−", "×", "÷"), or None."""
    return _OPERATION_SPELLINGS.get((detail or "").strip())


def operation_details() -> list[str]:
    """Every detail spelling that is an operation (for a database filter)."""
    return list(_OPERATION_SPELLINGS)
