"""Numbers in the reader's convention (docs/i18n.md, "Numbers"): "12.5%" in English, "12,5 %" in Spanish.

Pages and PDFs use these (templates through `{% load locale_numbers %}`); CSV files do not: they
stay locale-neutral (a dot, no thousands separator) so spreadsheets in any language read them.
Digits stay 0-9 in every language: the cards children hold show them (docs/i18n.md).
"""

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal as babel_format_decimal
from babel.numbers import format_percent as babel_format_percent
from django.conf import settings
from django.utils import translation


def _locale() -> str:
    # Babel writes Latin digits (0-9) unless asked for another numbering system.
    code = translation.to_locale(translation.get_language() or settings.LANGUAGE_CODE)
    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        # A language Babel has no data for (the tests' pseudo-language): the site's default.
        return translation.to_locale(settings.LANGUAGE_CODE)
    return code


def format_percent(value: float, *, digits: int = 0) -> str:
    """`value` is a fraction (0.125 -> "12.5%" with digits=1), in the language's own pattern
    (Spanish puts a space before the sign)."""
    pattern = Locale.parse(_locale()).percent_formats[None].pattern
    if digits:
        pattern = pattern.replace("0", "0." + "#" * digits, 1)
    return babel_format_percent(value, format=pattern, locale=_locale())


def format_number(value: float, *, digits: int = 0) -> str:
    pattern = "#,##0" + ("." + "#" * digits if digits else "")
    return babel_format_decimal(value, format=pattern, locale=_locale())
