"""Merging a freshly extracted catalogue into the one kept in the repository, as text.

`python -m devtools.i18n extract` has makemessages write a fresh catalogue (every marked string,
none translated) and then keeps the old file as it is, entry for entry and byte for byte: it
only adds the strings that are new to it (untranslated: no guessed "fuzzy" translation of a
similar string) and drops the ones no source has any more. So extracting after adding a game
changes that game's strings and nothing else: no entry is rewrapped, moved or re-guessed.

A new entry goes where makemessages put it: before the next entry (in the fresh catalogue's
order) that the old file already had, or at the end.
"""

from __future__ import annotations

import re

from babel.messages.pofile import unescape

Key = tuple[str | None, str]  # (msgctxt, msgid)


def entries(text: str) -> tuple[str, list[tuple[Key, str]]]:
    """The header block and each entry's (key, block text) of a .po file's text. Obsolete
    entries (`#~`, makemessages drops them) are kept as they are, under a key of their own."""
    blocks = [b for b in re.split(r"\n\s*\n", text.strip("\n")) if b.strip()]
    header, found = blocks[0], []
    for index, block in enumerate(blocks[1:]):
        fields: dict[str, str] = {}
        current = None
        for line in block.splitlines():
            if line.startswith("#"):
                continue
            if line.startswith('"') and current:
                fields[current] += unescape(line)
            else:
                current, _, rest = line.partition(" ")
                fields[current] = unescape(rest) if rest.startswith('"') else ""
        key = (fields.get("msgctxt"), fields["msgid"]) if "msgid" in fields else (None, f"#~{index}")
        found.append((key, block))
    return header, found


def plural_count(header: str) -> int:
    found = re.search(r"nplurals=(\d+)", header.replace('"\n"', ""))
    return int(found.group(1)) if found else 2


def untranslated(block: str, plurals: int) -> str:
    """A fresh entry with no translation, with as many plural forms as the catalogue has."""
    lines = [line for line in block.splitlines() if not line.startswith(("#, fuzzy", "#| "))]
    if not any(line.startswith("msgstr[") for line in lines):
        return "\n".join(_without_msgstr(lines) + ['msgstr ""'])
    return "\n".join(_without_msgstr(lines) + [f'msgstr[{i}] ""' for i in range(plurals)])


def _without_msgstr(lines: list[str]) -> list[str]:
    kept, in_msgstr = [], False
    for line in lines:
        if line.startswith("msgstr"):
            in_msgstr = True
        elif not line.startswith('"'):
            in_msgstr = False
        if not in_msgstr:
            kept.append(line)
    return kept


def merge(old_text: str, fresh_text: str) -> str:
    """`old_text` with the entries of `fresh_text` it lacks added (untranslated) and the
    entries `fresh_text` no longer has dropped; every other byte of `old_text` is kept."""
    header, old = entries(old_text)
    _fresh_header, fresh = entries(fresh_text)
    plurals = plural_count(header)
    old_keys = {key for key, _block in old}
    fresh_keys = {key for key, _block in fresh}
    before: dict[Key, list[str]] = {}
    pending: list[str] = []
    for key, block in fresh:
        if key in old_keys:
            before[key], pending = pending, []
        else:
            pending.append(untranslated(block, plurals))
    kept = []
    for key, block in old:
        if key in fresh_keys or key[1].startswith("#~"):
            kept.extend(before.get(key, []))
            kept.append(block)
    ending = old_text[len(old_text.rstrip("\n")):] or "\n"  # the file's own last line breaks
    return "\n\n".join([header, *kept, *pending]) + ending
