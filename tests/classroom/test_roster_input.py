"""Reading pasted names and CSV files: every problem reported with its line number."""

import codecs

import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom import names
from classroom.roster_input import (MAX_ROWS, MAX_UPLOAD_BYTES, Row, RosterInputError, check_rows,
                                    rows_from_csv, rows_from_text)


# ----- names ---------------------------------------------------------------------------

def test_names_are_trimmed_and_inner_spaces_collapsed():
    assert names.check("  Ann   Lee \t") == "Ann Lee"


@pytest.mark.parametrize("raw, reason", [
    ("   ", "The name is empty."),
    ("x" * 61, "longer than 60 characters"),
    ("Ann\x00", "control characters"),
])
def test_bad_names_say_why(raw, reason):
    with pytest.raises(names.InvalidName, match=reason):
        names.check(raw)


def test_a_name_of_exactly_60_characters_is_fine():
    assert names.check("a" * 60) == "a" * 60


def test_suggestions_are_free_names():
    taken = {names.key(n) for n in ["Ann", "Ann B.", "Ann 2"]}
    assert names.suggestions("Ann", taken) == ["Ann C.", "Ann 3"]
    assert "“Ann C.” or “Ann 3”" in names.duplicate_message("Ann", taken)


@given(st.text(max_size=80))
def test_check_either_returns_a_tidy_short_name_or_refuses(raw):
    try:
        name = names.check(raw)
    except names.InvalidName:
        return
    assert name == name.strip() and 0 < len(name) <= 60 and "  " not in name


# ----- pasted lists --------------------------------------------------------------------

def test_pasted_lines_keep_their_line_numbers_and_skip_blank_lines():
    rows = rows_from_text("Ann\n\n  Ben  \r\nCal\n")
    assert [(r.line, r.name) for r in rows] == [(1, "Ann"), (3, "  Ben  "), (4, "Cal")]


def test_an_empty_paste_is_refused():
    with pytest.raises(RosterInputError, match="The list is empty"):
        rows_from_text("\n  \n")


def test_too_many_pasted_names_are_refused():
    with pytest.raises(RosterInputError, match=f"at most {MAX_ROWS}"):
        rows_from_text("\n".join(f"Kid {n}" for n in range(MAX_ROWS + 1)))


# ----- CSV files -----------------------------------------------------------------------

def test_csv_with_names_and_optional_usernames():
    rows = rows_from_csv(b"Name,Username\r\nAnn Lee,ann.lee\r\nBen,\r\n\r\nCal\r\n")
    assert rows == [Row(2, "Ann Lee", "ann.lee"), Row(3, "Ben", ""), Row(5, "Cal", "")]


def test_csv_in_utf8_with_a_byte_order_mark_reads_accents():
    rows = rows_from_csv(codecs.BOM_UTF8 + "name\nZoë\nJosé\n".encode())
    assert [r.name for r in rows] == ["Zoë", "José"]


def test_csv_with_semicolons_from_a_european_spreadsheet():
    assert [r.name for r in rows_from_csv(b"name;username\nAnn;ann1\n")] == ["Ann"]


def test_csv_names_with_doubled_quotes_keep_one_quote_each():
    # Excel writes a quote inside a quoted cell as two quotes.
    for data in (b'name,username\n"Ann ""Annie"" Lee",ann1\n', b'name;username\n"Ann ""Annie"" Lee";ann1\n',
                 b'name\n"Ann ""Annie"" Lee"\n'):
        assert [r.name for r in rows_from_csv(data)] == ['Ann "Annie" Lee']


def test_csv_with_quoted_commas():
    assert rows_from_csv(b'name\n"Lee, Ann"\n')[0].name == "Lee, Ann"


@pytest.mark.parametrize("data, message", [
    (b"", "The file is empty"),
    (b"\n \n", "The file is empty"),
    ("name\nZoë\n".encode("utf-16"), "UTF-16"),
    ("name\nZoë\nJosé\n".encode("latin-1"), r"not UTF-8 text \(the first unreadable character is on line 2\)"),
    (b"PK\x03\x04rest-of-a-zip", "spreadsheet file, not a CSV"),
    (b"first,last\nAnn,Lee\n", "one called “name”.*The first row has: “first”, “last”"),
    (b"name\n", "no students"),
])
def test_unreadable_csv_files_get_a_clear_message(data, message):
    with pytest.raises(RosterInputError, match=message):
        rows_from_csv(data)


def test_large_csv_files_are_refused():
    with pytest.raises(RosterInputError, match="too big"):
        rows_from_csv(b"name\n" + b"Ann\n" * (MAX_UPLOAD_BYTES // 4 + 1))


# ----- checking rows -------------------------------------------------------------------

def test_every_bad_row_is_listed_with_its_line_and_reason():
    rows = [Row(1, "Ann"), Row(2, "  "), Row(3, "ann"), Row(4, "Ben", "b!"),
            Row(5, "Cal", "cal"), Row(6, "Dee", "CAL"), Row(7, "Eve")]
    checked, problems = check_rows(rows, names_in_class={"eve"})
    assert [c.name for c in checked] == ["Ann", "Cal"]
    reasons = {p.line: p.reason for p in problems}
    assert set(reasons) == {2, 3, 4, 6, 7}
    assert reasons[2] == "The name is empty."
    assert reasons[3].startswith("“ann” is also on line 1.") and "“ann B.” or “ann 2”" in reasons[3]
    assert "is not allowed" in reasons[4]
    assert reasons[6] == "The username “cal” is also on line 5."
    assert reasons[7].startswith("There is already a student called “Eve” in this class.")
    assert "“Eve B.” or “Eve 2”" in reasons[7]


# ----- An unbalanced quote mark (docs/classroom.md, "Adding students") ------------------

@pytest.mark.parametrize("data, line, shown", [
    # Never closed: the reader would swallow every row after it into one name.
    (b'name\nAnn\nBen\n"Cal\nDan\nEve\n', 4, '"Cal'),
    # Closed three lines later: three children merged into one.
    (b'name,username\nAnn,ann1\n"Ben,ben1\nCal,cal1\nDan",dan1\nEve,eve1\n', 3, '"Ben,ben1'),
    (b'name\r\nAnn\r\n"Ben\r\nCal\r\n', 3, '"Ben'),
])
def test_an_unbalanced_quote_is_refused_naming_its_line(data, line, shown):
    with pytest.raises(RosterInputError) as refused:
        rows_from_csv(data)
    assert str(refused.value).startswith(
        f"Line {line} has a quote mark that is never closed: {shown}")


def test_quotes_that_are_closed_on_their_own_line_are_fine():
    rows = rows_from_csv(b'name\n"Ann"\nBen "Benny" Lee\n"Cal ""C"" Day"\n')
    assert [(r.line, r.name) for r in rows] == [(2, "Ann"), (3, 'Ben "Benny" Lee'), (4, 'Cal "C" Day')]
