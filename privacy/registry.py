"""The declarations of what each app holds about a student, collected in one list.

Each app of ours declares, in its own `privacy_data.py` (plain data: no import of privacy, so
the import layers stay one way), a list `HELD` of dicts, one per way a model refers to a
student:

- `model`: "app_label.ModelName";
- `kind`: a short name, the key of the counts and the name of the export's files;
- `label`: the counted rows in plain words, one and many: ("move", "moves"): "312 moves";
- `about`: one sentence for the export's README: what a row is;
  (`label` and `about` are English, plain or lazy translations: they are kept here as English
  text, and privacy/words.py puts them into the reader's language where people read them);
- `student`: the lookup path from the model to the student ("user", "seat__user"), or a list
  of paths (a row refers to the student through any of them);
- `where`: optional extra filters (a dict for `.filter()`);
- `fields`: what the export shows of each row (`.values()` names; never another child's
  hidden cards: a move's own analysis only, no game state);
- `players`: optional, for rows of a game that can hold its other players' names: a dict with
  `game` (the field of `fields` that holds the game's id), `names` (fields whose JSON holds
  the game's player names as the engines write them, whole strings or keys) and `seats`
  (fields that list the other players as {"name", "level", ...}). The export keeps the
  student's own name and says every other player as "another player" (a classmate) or "a
  computer player", numbered in a game with more than one; of a listed player only that and
  a computer player's level are kept (a classmate's name, id and rating are theirs);
- `erase`: what erasing the student does to the rows:
  "delete"; "detach" (the path's field, a nullable foreign key, becomes null: the row is
  someone else's, the student only did something to it); "unlink" (the path is a
  many-to-many field: the student leaves it); "follows" (another declaration's erasure takes
  care of these rows, e.g. moves go or stay with their seat); or the dotted path of a service
  function of that app, called as `function(student=student)`, for rows that need more care
  (shared games keep the seat as "a former student").

and a dict `NOT_ABOUT_A_STUDENT`: "app_label.Model.field" -> why that relation to a user never
leads to a student (a class's owner is a teacher). tests/privacy/test_declarations.py fails
when a relation to a user, or to a row about one student, is in neither.

Erasure goes through the declarations app by app from the top of the import layers down
(`APPS`): rows that depend on others go first, the account itself last.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache

from django.apps import apps
from django.db import models

from .words import english

# Our apps, from the top of the import layers (.importlinter) down: the order of erasure.
APPS = ["privacy", "lti", "rostering", "arena", "reports", "classroom", "games", "accounts"]
# What an `erase` may say besides the dotted path of a service function.
ACTIONS = {"delete", "detach", "unlink", "follows"}


@dataclass(frozen=True)
class Held:
    """One declaration (see the module's docstring)."""

    model: type[models.Model]
    kind: str
    label: tuple[str, str]
    about: str
    paths: tuple[str, ...]
    fields: tuple[str, ...]
    erase: str
    where: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)

    @property
    def model_label(self) -> str:
        return self.model._meta.label

    def rows(self, student_id: int) -> models.QuerySet:
        """This declaration's rows that refer to the student (by id: also after the account
        is gone, to check that nothing is left)."""
        match = models.Q()
        for path in self.paths:
            match |= models.Q(**{path: student_id})
        found = self.model._default_manager.filter(match, **self.where)
        # A path through a many-valued relation can match a row more than once.
        return self.model._default_manager.filter(pk__in=found.values("pk")).order_by("pk")


def _held(app_label: str, entry: dict) -> Held:
    paths = entry["student"]
    held = Held(model=apps.get_model(entry["model"]), kind=entry["kind"],
                label=tuple(english(word) for word in entry["label"]), about=english(entry["about"]),
                paths=(paths,) if isinstance(paths, str) else tuple(paths),
                fields=tuple(entry["fields"]), erase=entry["erase"], where=dict(entry.get("where", {})),
                players=_players(app_label, entry))
    if held.erase not in ACTIONS and "." not in held.erase:
        raise ValueError(f"{app_label}/privacy_data.py: {held.kind}: unknown erase {held.erase!r}")
    return held


def _players(app_label: str, entry: dict) -> dict:
    players = dict(entry.get("players", {}))
    if not players:
        return {}
    where = f"{app_label}/privacy_data.py: {entry['kind']}: players"
    if set(players) - {"game", "names", "seats"}:
        raise ValueError(f"{where}: unknown keys {sorted(set(players) - {'game', 'names', 'seats'})}")
    named = {players["game"], *players.get("names", ()), *players.get("seats", ())}
    if named - set(entry["fields"]):
        raise ValueError(f"{where}: {sorted(named - set(entry['fields']))} not among its fields")
    return {"game": players["game"], "names": tuple(players.get("names", ())),
            "seats": tuple(players.get("seats", ()))}


def _module(app_label: str):
    name = f"{apps.get_app_config(app_label).name}.privacy_data"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


@cache
def declarations() -> tuple[Held, ...]:
    """Every app's declarations, in the order of erasure."""
    found: list[Held] = []
    for app_label in APPS:
        module = _module(app_label)
        found += [_held(app_label, entry) for entry in getattr(module, "HELD", [])]
    kinds = [h.kind for h in found]
    duplicates = sorted({k for k in kinds if kinds.count(k) > 1})
    if duplicates:
        raise ValueError(f"Two declarations share the kind {', '.join(duplicates)}")
    return tuple(found)


@cache
def not_about_a_student() -> dict[str, str]:
    """Relations to a user that never lead to a student ("app.Model.field" -> why)."""
    found: dict[str, str] = {}
    for app_label in APPS:
        found.update(getattr(_module(app_label), "NOT_ABOUT_A_STUDENT", {}))
    return found


def held(kind: str) -> Held:
    return next(h for h in declarations() if h.kind == kind)


def _leads_to_student(model, path: str, about_one: set, user_model) -> bool:
    """Whether `path` goes from `model` to one student through foreign keys only, each hop to
    the user or to a model already known to hold rows about one student."""
    if path == "pk":
        return model is user_model
    first, _, rest = path.partition("__")
    relation = model._meta.get_field(first)
    if not (relation.many_to_one or relation.one_to_one) or relation.auto_created:
        return False
    target = relation.related_model
    if not rest:
        return target is user_model
    return target in about_one and _leads_to_student(target, rest, about_one, user_model)


def per_student_models(held_list) -> set:
    """Models whose rows are each about one student (a seat, a move, a rating): not those a
    student only touched (a table they opened: "detach") or is listed in ("unlink")."""
    user_model = apps.get_model("accounts", "User")
    found: set = set()
    while True:
        more = {h.model for h in held_list if h.erase not in ("detach", "unlink")
                and any(_leads_to_student(h.model, p, found, user_model) for p in h.paths)}
        if more <= found:
            return found
        found |= more


def undeclared(held_list=None, excused=None) -> list[str]:
    """Relations ("app.Model.field") of our apps' models that no declaration covers and no
    excuse explains, where one is needed: every relation to the user model (a declaration of
    the model with a path through that field), and every relation to a model of rows about one
    student (a declaration of the model: SkillEvidence.move to a move). Empty when all is
    declared."""
    held_list = declarations() if held_list is None else held_list
    excused = not_about_a_student() if excused is None else excused
    user_model = apps.get_model("accounts", "User")
    about_one = per_student_models(held_list) - {user_model}
    declared = {h.model for h in held_list}
    covered = {(h.model, path.split("__")[0]) for h in held_list for path in h.paths}
    missing = []
    for app_label in APPS:
        for model in apps.get_app_config(app_label).get_models():
            # Forward relations only: the model's own foreign keys and many-to-many fields.
            for relation in [*model._meta.fields, *model._meta.many_to_many]:
                name = f"{model._meta.label}.{relation.name}"
                if not relation.is_relation or name in excused:
                    continue
                if relation.related_model is user_model and (model, relation.name) not in covered:
                    missing.append(name)
                elif relation.related_model in about_one and model not in declared:
                    missing.append(name)
    return missing
