"""The form a teacher fills in to start a class arena.

Its choices depend on the game (the game's levels, how many sit at a table), so it is built
for one game, read from the posted data: a page without JavaScript that changed the game
gets its level checked against that game here, never against the game shown before. The
chosen level becomes the arena's options through classroom/presets.py (`resolve`), the same
path an assignment's level takes, so a level the engine would refuse is never stored.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from accounts.typed_text import no_hidden_characters
from arena.models import Arena
from arena.services.lifecycle import MAX_MINUTES, MIN_MINUTES
from classroom import presets
from classroom.models import Classroom
from classroom.selectors import classes_for_teacher, students_of_class
from games import practice, registry
from games.spec import GameSpec


def multiplayer_games() -> list[GameSpec]:
    return [spec for spec in registry.all_games() if spec.multiplayer]


class ArenaForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title (optional)"), max_length=100, required=False,
                            strip=True, validators=[no_hidden_characters],
                            help_text=gettext_lazy("Leave empty to use the game's name, e.g. “Numero arena”."))
    # A callable, so a game registered after start-up is offered too.
    game = forms.ChoiceField(
        label=gettext_lazy("Game"), choices=lambda: [(g.key, g.name) for g in multiplayer_games()],
        error_messages={"invalid_choice": gettext_lazy("Choose a game classmates can play together.")})
    preset = forms.ChoiceField(label=gettext_lazy("Level"), error_messages={
        "invalid_choice": gettext_lazy("Choose one of the levels offered for this game."),
        "required": gettext_lazy("Choose a level.")})
    focus = forms.ChoiceField(
        label=gettext_lazy("Practise one skill (optional)"), required=False,
        help_text=gettext_lazy("The games are dealt so that this skill comes up much more often, as a "
                               "“Practise this” assignment does."),
        error_messages={"invalid_choice": gettext_lazy("Choose one of the skills offered for this game.")})
    table_size = forms.IntegerField(label=gettext_lazy("Players at each table"))
    # Its help text and messages name the limits: worded in __init__, in the teacher's language.
    minutes = forms.IntegerField(label=gettext_lazy("How long (minutes)"), min_value=MIN_MINUTES,
                                 max_value=MAX_MINUTES)
    mode = forms.ChoiceField(label=gettext_lazy("Points or no points?"), widget=forms.RadioSelect, choices=[
        (Arena.Mode.POINTS, gettext_lazy("Points: students win points and the big screen shows the top five.")),
        (Arena.Mode.NO_POINTS, gettext_lazy(
            "No points: no ranking on the big screen. It shows the class's totals, and at the end "
            "each student's personal best and who improved most. Good when a public ranking "
            "would upset someone.")),
    ])
    classes = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Which classes may join"), queryset=None, required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("This class always may. Tick your other classes to play together."))
    joining = forms.ChoiceField(label=gettext_lazy("Who may join?"), widget=forms.RadioSelect, choices=[
        (Arena.Joining.EVERYONE, Arena.Joining.EVERYONE.label),
        (Arena.Joining.CHOSEN, Arena.Joining.CHOSEN.label),
    ])
    students = forms.ModelMultipleChoiceField(label=gettext_lazy("Students"), queryset=None,
                                              required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, data=None, *, teacher: User, classroom: Classroom, game: str | None = None,
                 initial: dict | None = None):
        initial = {"minutes": 10, "mode": Arena.Mode.POINTS, "joining": Arena.Joining.EVERYONE,
                   "classes": [classroom.pk], **(initial or {})}
        super().__init__(data, initial=initial)
        self.classroom = classroom
        self._word_minutes()
        offered = [g.key for g in multiplayer_games()]
        chosen = (data or {}).get("game") or game or initial.get("game")
        self.game = chosen if chosen in offered else offered[0]
        self.initial["game"] = self.game
        spec = self.spec
        self.fields["preset"].choices = [(p.key, p.label) for p in spec.presets]
        self.focuses = focuses_for(self.game)
        self.fields["focus"].choices = [("", _("No: the usual game"))] + [
            (measure, found.label) for measure, found in self.focuses.items()]
        size = self.fields["table_size"]
        size.min_value, size.max_value = spec.min_players, spec.max_players
        size.widget.attrs.update(min=spec.min_players, max=spec.max_players)
        size.validators = []  # checked in clean_table_size with a message naming the game
        # Translators: e.g. "Numero is played by 2 to 4 players." (the players come worded by the game).
        size.help_text = _("%(game)s is played by %(players)s.") % {"game": spec.name,
                                                                    "players": spec.players_label}
        previous = self.initial.get("table_size")
        try:
            self.initial["table_size"] = min(max(int(previous), spec.min_players), spec.max_players)
        except (TypeError, ValueError):
            self.initial["table_size"] = spec.min_players
        self.fields["classes"].queryset = classes_for_teacher(teacher=teacher)
        self.fields["students"].queryset = students_of_class(classroom=classroom)

    def _word_minutes(self) -> None:
        limits = {"min": MIN_MINUTES, "max": MAX_MINUTES}
        minutes = self.fields["minutes"]
        minutes.help_text = _("From %(min)s to %(max)s minutes. The clock starts when you press Start.") % limits
        minutes.error_messages.update({
            "min_value": _("An arena lasts at least %(min)s minutes.") % limits,
            "max_value": _("An arena lasts at most %(max)s minutes.") % limits,
            "required": _("Choose how long: %(min)s to %(max)s minutes.") % limits,
            "invalid": _("Type a number of minutes from %(min)s to %(max)s.") % limits})

    @property
    def spec(self) -> GameSpec:
        return registry.spec_for(self.game)

    def clean_game(self):
        value = self.cleaned_data["game"]
        if value != self.game:  # not a game classmates can play together
            raise forms.ValidationError(_("Choose a game classmates can play together."))
        return value

    def clean_table_size(self):
        value = self.cleaned_data.get("table_size")
        spec = self.spec
        if value is None or not spec.min_players <= value <= spec.max_players:
            raise forms.ValidationError(
                _("%(game)s is played by %(min)s to %(max)s players at a table.")
                % {"game": spec.name, "min": spec.min_players, "max": spec.max_players})
        return value

    def clean_classes(self):
        # The host class is always in, whether or not its box came back ticked.
        chosen = list(self.cleaned_data.get("classes") or [])
        if self.classroom not in chosen:
            chosen.insert(0, self.classroom)
        return chosen

    def clean(self):
        data = super().clean()
        if data.get("joining") == Arena.Joining.CHOSEN and not data.get("students"):
            self.add_error("students", _("Tick at least one student, or let everyone in the classes join."))
        if not self.errors:
            try:
                self.choice = presets.resolve(game=self.game, preset=data["preset"],
                                              player_count=data["table_size"])
            except presets.PresetError as exc:
                self.add_error("preset", str(exc))
        self.practice = self.focuses.get(data.get("focus") or "")
        self.options = dict(self.choice.options) if not self.errors else {}
        if not self.errors and self.practice is not None:
            self.options = practice.merged_options(self.game, self.options, self.practice.options)
            problem = practice.options_accepted(self.game, self.options, [data["table_size"]])
            if problem:
                self.add_error("focus", problem.replace("computer players", "players at each table"))
        return data

    def service_kwargs(self) -> dict:
        """What arena_create takes (besides the teacher and the host class)."""
        data = self.cleaned_data
        return {
            "title": data.get("title") or "", "key": self.game, "options": dict(self.options),
            "focus": self.practice.as_json() if self.practice is not None else None,
            "minutes": data["minutes"], "mode": data["mode"], "table_size": data["table_size"],
            "classes": [c for c in data["classes"] if c.pk != self.classroom.pk],
            "students": list(data["students"]) if data.get("joining") == Arena.Joining.CHOSEN else [],
        }


def focuses_for(game: str) -> dict[str, practice.Focus]:
    """The skills an arena of `game` can practise: those whose focus deals the games
    differently (a focus that is the usual game is no choice), by measure id."""
    found = {}
    for measure in registry.measures():
        if measure.game == game and practice.practice_game(measure.id) == game:
            focus = practice.focus_for(measure.id)
            if focus is not None and focus.options:
                found[measure.id] = focus
    return found


def initial_from_query(query) -> dict:
    """Keep what the teacher already chose when the form is rebuilt for another game."""
    initial = {name: query.get(name) for name in ArenaForm.base_fields
               if name in query and name not in ("classes", "students")}
    for name in ("classes", "students"):
        if name in query:
            initial[name] = query.getlist(name)
    return initial
