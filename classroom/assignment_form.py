"""The assignment form: which game and level, who plays against whom, and the goal.

Choices depend on the game (its levels, how many computer players fit at the table, whether
it has a mental-maths mode), so the form is built for one game; the page swaps it with htmx
when the teacher picks another game.
"""

from __future__ import annotations

import json

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from accounts.typed_text import no_hidden_characters
from games import practice, registry
from games.spec import GameSpec

from . import presets
from .models import Assignment, Classroom
from .selectors import students_of_class

GOAL_COUNT_MAX = 20
WHOLE_CLASS, CHOSEN = "class", "chosen"


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class AssignmentForm(forms.Form):
    # A callable, so a game registered after start-up (a test's own game) is offered too.
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=lambda: [(g.key, g.name) for g in registry.all_games()])
    preset = forms.ChoiceField(label=gettext_lazy("Level"))
    opponents = forms.ChoiceField(label=gettext_lazy("Who do they play against?"), widget=forms.RadioSelect,
                                  choices=Assignment.Opponents.choices)
    bot_level = forms.ChoiceField(  # the game's levels, and "just right"
        label=gettext_lazy("Computer players' level"),
        help_text=gettext_lazy("Just right: each child's computer players are tuned to how that child "
                               "plays, so they win about half their games."))
    bot_count = forms.IntegerField(label=gettext_lazy("How many computer players at the table"), required=False)
    mental_math = forms.BooleanField(
        label=gettext_lazy("Mental maths mode: students type the result of each sum before they play it"),
        required=False)
    goal = forms.ChoiceField(label=gettext_lazy("What should students do?"), widget=forms.RadioSelect,
                             choices=Assignment.Goal.choices)
    goal_count = forms.IntegerField(label=gettext_lazy("How many games (or wins)"), min_value=1,
                                    max_value=GOAL_COUNT_MAX, required=False)
    goal_until = forms.DateField(label=gettext_lazy("Play until"), required=False, widget=DateInput())
    due_on = forms.DateField(label=gettext_lazy("Due date (optional)"), required=False, widget=DateInput())
    audience = forms.ChoiceField(label=gettext_lazy("Who is it for?"), widget=forms.RadioSelect, choices=[
        (WHOLE_CLASS, gettext_lazy("The whole class (students who join later get it too)")),
        (CHOSEN, gettext_lazy("Only the students I choose")),
    ])
    students = forms.ModelMultipleChoiceField(label=gettext_lazy("Students"), required=False, queryset=None,
                                              widget=forms.CheckboxSelectMultiple)
    # "Practise this" (reports' Practise links): what is practised, as JSON (games/practice.py
    # `Focus.as_json`), and whether its games are dealt with the practice cards.
    focus = forms.CharField(required=False, widget=forms.HiddenInput)
    focus_cards = forms.BooleanField(
        label=gettext_lazy("Deal the practice cards (recommended): the games give this skill many more "
                           "chances"),
        required=False)
    title = forms.CharField(label=gettext_lazy("Title (optional)"), max_length=100, required=False, strip=True,
                            validators=[no_hidden_characters],
                            help_text=gettext_lazy("Leave empty to use the game and level, e.g. “Numero: Level 3”."))

    def __init__(self, data=None, *, classroom: Classroom, game: str | None = None,
                 initial: dict | None = None, assignment: Assignment | None = None):
        initial = {"opponents": Assignment.Opponents.BOTS, "bot_level": "beginner",
                   "goal": Assignment.Goal.PLAY, "goal_count": 3, "audience": WHOLE_CLASS,
                   **(initial or {})}
        super().__init__(data, initial=initial)
        self.assignment = assignment
        first = registry.all_games()[0].key
        chosen = (data or {}).get("game") or game or initial.get("game") or first
        self.game = chosen if registry.get(chosen) is not None else first
        if assignment is not None:
            # The game of existing work is fixed: its progress counts games of that game.
            self.game = assignment.game
            self.fields["game"].disabled = True
        self.initial["game"] = self.game
        spec = self.spec
        self.fields["preset"].choices = [(p.key, p.label) for p in spec.presets]
        # The game's levels, then "Just right (adapts to each child)".
        self.fields["bot_level"].choices = list(presets.bot_level_choices(self.game).items())
        low, high = spec.bot_count_range
        self.bot_range = (max(low, 1) if high else 0, high)
        self.fields["bot_count"].min_value = self.bot_range[0]
        self.fields["bot_count"].max_value = self.bot_range[1]
        self.fields["bot_count"].widget.attrs.update(min=self.bot_range[0], max=self.bot_range[1])
        self.fields["bot_count"].validators = []  # checked in clean() with a message per game
        self.initial["bot_count"] = self._bot_count_within_range(self.initial.get("bot_count"))
        self.fields["students"].queryset = students_of_class(classroom=classroom)
        self.is_solo = spec.is_solo
        self.has_mental_math = spec.mental_math is not None
        if self.is_solo:
            for name in ("opponents", "bot_level", "bot_count"):
                self.fields[name].required = False
        if not self.has_mental_math:
            del self.fields["mental_math"]
        # The practice, when there is one: shown in words; it belongs to one game, so when
        # the teacher picks another game it is set aside (and said so).
        self.practice = practice.from_json(_json(self.data.get("focus") if data is not None
                                                 else self.initial.get("focus")))
        self.practice_other_game = self.practice is not None and self.practice.game != self.game
        if self.practice_other_game:
            self.practice = None

    @property
    def practice_words(self) -> list[str]:
        return self.practice.words if self.practice else []

    def _bot_count_within_range(self, value) -> int:
        """A count carried over from another game may not fit this one's table: nudge it in."""
        low, high = self.bot_range
        try:
            return min(max(int(value), low), high)
        except (TypeError, ValueError):
            return low

    @property
    def spec(self) -> GameSpec:
        return registry.spec_for(self.game)

    def _today(self):
        return timezone.localdate()

    def _unchanged(self, field: str, value) -> bool:
        return self.assignment is not None and getattr(self.assignment, field) == value

    def clean_goal_until(self):
        value = self.cleaned_data.get("goal_until")
        if value and value < self._today() and not self._unchanged("goal_until", value):
            raise forms.ValidationError(_("Choose today or a later date."))
        return value

    def clean_due_on(self):
        value = self.cleaned_data.get("due_on")
        if value and value < self._today() and not self._unchanged("due_on", value):
            raise forms.ValidationError(_("Choose today or a later date."))
        return value

    def clean(self):
        data = super().clean()
        opponents = data.get("opponents") or Assignment.Opponents.BOTS
        if not self.is_solo and opponents != Assignment.Opponents.CLASSMATES:
            count = data.get("bot_count")
            low, high = self.bot_range
            if count is None or not low <= count <= high:
                message = (ngettext("%(game)s needs exactly %(count)s computer player.",
                                    "%(game)s needs exactly %(count)s computer players.", low)
                           % {"game": self.spec.name, "count": low}
                           if low == high else
                           _("Choose between %(low)s and %(high)s computer players.") % {"low": low, "high": high})
                self.add_error("bot_count", message)
        goal = data.get("goal")
        if goal in (Assignment.Goal.PLAY, Assignment.Goal.WIN) and not data.get("goal_count"):
            self.add_error("goal_count", _("Choose how many games (1 to %(most)s).") % {"most": GOAL_COUNT_MAX})
        if goal == Assignment.Goal.UNTIL and not data.get("goal_until"):
            self.add_error("goal_until", _("Choose the last day to play."))
        if data.get("audience") == CHOSEN and not data.get("students"):
            self.add_error("students", _("Tick at least one student, or choose the whole class."))
        if not self.errors:
            try:
                presets.resolve(game=self.game, preset=data["preset"],
                                player_count=1 + (data.get("bot_count") or 0))
            except presets.PresetError as exc:
                self.add_error("preset", str(exc))
        if not self.errors and self.practice is not None and data.get("focus_cards"):
            choice = presets.presets_for(self.game).get(data["preset"], {})
            solo_or_bots = self.is_solo or opponents != Assignment.Opponents.CLASSMATES
            players = 1 + (data.get("bot_count") or 0) if solo_or_bots else None
            spec = self.spec
            problem = practice.options_accepted(
                self.game, practice.merged_options(self.game, choice.get("options", {}), self.practice.options),
                [players] if players else range(spec.min_players, spec.max_players + 1))
            if problem:
                self.add_error("focus_cards", problem)
        return data

    def focus_value(self) -> dict | None:
        """The practice to store: its focus options only when the practice cards are dealt
        (without them the games are the level's, and the report still shows before and after)."""
        if self.practice is None:
            return None
        found = self.practice.as_json()
        if not self.cleaned_data.get("focus_cards"):
            found["options"] = {}
        return found

    def service_kwargs(self) -> dict:
        """What assignment_create / assignment_update take."""
        data = self.cleaned_data
        return {
            "title": data.get("title") or "", "game": self.game, "preset": data["preset"],
            "opponents": data.get("opponents") or Assignment.Opponents.BOTS,
            "bot_level": data.get("bot_level") or "beginner", "bot_count": data.get("bot_count") or 0,
            "mental_math": bool(data.get("mental_math")),
            "goal": data["goal"], "goal_count": data.get("goal_count") or 1,
            "goal_until": data.get("goal_until"), "due_on": data.get("due_on"),
            "students": list(data["students"]) if data.get("audience") == CHOSEN else [],
            "focus": self.focus_value(),
        }


def _json(value) -> dict | None:
    if isinstance(value, dict):
        return value
    try:
        found = json.loads(value) if value else None
    except (TypeError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def initial_from_assignment(assignment: Assignment) -> dict:
    chosen = list(assignment.students.values_list("pk", flat=True))
    return {
        "game": assignment.game, "preset": assignment.preset, "title": assignment.title,
        "opponents": assignment.opponents, "bot_level": assignment.bot_level,
        "bot_count": assignment.bot_count, "mental_math": assignment.mental_math,
        "goal": assignment.goal, "goal_count": assignment.goal_count,
        "goal_until": assignment.goal_until, "due_on": assignment.due_on,
        "audience": CHOSEN if chosen else WHOLE_CLASS, "students": chosen,
        "focus": json.dumps(assignment.focus) if assignment.focus else "",
        "focus_cards": bool(assignment.focus.get("options")) if assignment.focus else False,
    }


def initial_from_query(query) -> dict:
    """Keep what the teacher already chose when the page is rebuilt for another game."""
    fields = AssignmentForm.base_fields
    initial = {name: query.get(name) for name in fields if name in query and name != "students"}
    if "students" in query:
        initial["students"] = query.getlist("students")
    return initial
