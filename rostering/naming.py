"""Two children with one name in a class cannot tell themselves apart on the sign-in screen
(classroom.names). A roster child whose name another child of one of their classes already has
is given that name with a number ("Ben Diaz 2"): a child already on the list with the name
keeps it, and of two children the roster brings, the first by roster id does. The same roster
gives the same names again, so a second import changes nothing."""

from __future__ import annotations

from classroom import names


def tell_apart(*, wanted: dict[str, str], rooms: dict[str, set[str]], lists: dict[str, dict[str, str]],
               max_length: int) -> dict[str, str]:
    """The name each child in `wanted` (roster id -> the roster's name) gets. `rooms`: roster
    id -> the classes they will be in; `lists`: class -> {who: name} of the children staying on
    it, under their names now (roster children by roster id)."""
    taken = {room: dict(people) for room, people in lists.items()}
    chosen = {}
    for sid in sorted(wanted):
        name = final = wanted[sid]
        others = {names.key(n) for room in rooms.get(sid, ()) for who, n in taken.get(room, {}).items()
                  if who != sid}
        number = 2
        while names.key(final) in others:
            suffix = f" {number}"
            final = name[:max_length - len(suffix)].rstrip() + suffix
            number += 1
        chosen[sid] = final
        for room in rooms.get(sid, ()):
            taken.setdefault(room, {})[sid] = final
    return chosen
