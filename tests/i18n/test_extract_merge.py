"""Extracting keeps a catalogue as it is and adds only the new strings (devtools/po_merge.py):
after a game is added, `python -m devtools.i18n extract games` changes that game's strings and
nothing else: no entry rewrapped or moved, no guessed ("fuzzy") translation."""

from devtools.po_merge import entries, merge

HEADER = '''msgid ""
msgstr ""
"Language: ar\\n"
"Plural-Forms: nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
"n%100>=11 && n%100<=99 ? 4 : 5;\\n"
'''

# Kept in the repository: wrapped at 100 columns (as Babel last wrote it), translated.
OLD = HEADER + '''
#: games/adapters/toy.py
msgid "Play the higher card to win the trick, and the trick's winner leads the next one."
msgstr "العب البطاقة الأعلى لتربح الجولة."

#: games/engine/toy/engine.py
msgid "A string no source has any more."
msgstr "نص قديم."

#: games/engine/toy/engine.py
#, python-format
msgid "%(player)s won the trick."
msgstr "%(player)s ربح الجولة."
'''

# What makemessages writes afresh: gettext's 79 columns, a new string between the two kept ones,
# a new plural (two forms, as a template has), a new string at the end, none translated.
FRESH = '''msgid ""
msgstr ""
"Language: \\n"

#: games/adapters/toy.py
msgid ""
"Play the higher card to win the trick, and the trick's winner leads the next "
"one."
msgstr ""

#: games/adapters/sixth.py
#, python-format
msgid "%(n)s card left"
msgid_plural "%(n)s cards left"
msgstr[0] ""
msgstr[1] ""

#: games/engine/toy/engine.py
#, python-format
msgid "%(player)s won the trick."
msgstr ""

#: games/engine/sixth/engine.py
msgctxt "game name"
msgid "Lower Card"
msgstr ""
'''


def test_only_new_strings_are_added_and_gone_ones_dropped():
    merged = merge(OLD, FRESH)
    _header, merged_entries = entries(merged)
    assert [key for key, _block in merged_entries] == [
        (None, "Play the higher card to win the trick, and the trick's winner leads the next one."),
        (None, "%(n)s card left"), (None, "%(player)s won the trick."), ("game name", "Lower Card")]
    # Every kept entry is byte for byte what it was; the header too.
    for block in (HEADER.strip("\n"), *OLD.strip("\n").split("\n\n")[1:]):
        if "no source has" not in block:
            assert block in merged
    assert "no source has" not in merged
    # The new plural has Arabic's six forms, empty; nothing is guessed.
    assert 'msgid_plural "%(n)s cards left"\n' + "".join(f'msgstr[{i}] ""\n' for i in range(6)) in merged
    assert "fuzzy" not in merged and merged.endswith('msgid "Lower Card"\nmsgstr ""\n')


def test_extracting_what_is_there_already_changes_nothing():
    fresh = FRESH.replace('''#: games/adapters/sixth.py
#, python-format
msgid "%(n)s card left"
msgid_plural "%(n)s cards left"
msgstr[0] ""
msgstr[1] ""

''', "").split('#: games/engine/sixth/engine.py')[0] + '''#: games/engine/toy/engine.py
msgid "A string no source has any more."
msgstr ""
'''
    assert merge(OLD, fresh) == OLD


def test_a_guess_makemessages_made_is_not_kept():
    guessed = FRESH.replace('msgctxt "game name"\nmsgid "Lower Card"\nmsgstr ""',
                            '#, fuzzy\n#| msgid "Higher Card"\nmsgctxt "game name"\nmsgid "Lower Card"\n'
                            'msgstr "تخمين"')
    merged = merge(OLD, guessed)
    assert "fuzzy" not in merged and "تخمين" not in merged and merged.endswith('msgstr ""\n')
