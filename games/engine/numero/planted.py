"""The planted Numero player (Numero and Numero Solitaire): it plays like the expert bot except
where its quotas say to miss (games/engine/skills.py `Planted`; the quotas and the rule errors:
devtools/planted.py).

It decides from its own view only, one decision at a time, by the expert's own judgement of
that view (expert.py `ExpertBot.judge`), which is exactly what the skill analysis
(analyse.py) judges the decision by: the analysis judges the student's view of the state
before the move, with no dice, so both see the same judgement.

- A free step the expert would play (a wild card, a wild card put out of play, a
  challenge) is played as the expert plays it: no Numero measure counts it.
- A turn-ending decision where the expert would take:
  - nu.missed_take (a chance unless only a take may end the turn): a planted miss plays
    the expert's best build or discard instead;
  - otherwise it takes; nu.best_take is a chance when a take smaller than the expert's
    is possible right now (`analyse.smallest_take`): a planted miss takes one of those
    (a take, so no missed take; fewer cards than the expert's, so cards left behind).
- A build (the expert's, or the one a missed take plays): nu.valid_build is a chance when
  a build without its answer card could be tried (`analyse.build_without_answer`); a
  planted miss tries such a build first (refused: `no_answer_card`), then the honest one.
  With `challenges` a build without the answer is a bluff, a miss only if an opponent
  challenges it, which the player cannot decide: then the chance is never missed on purpose.
- A discard the expert would make: no chance at any Numero measure.
So each planted miss is a miss of its own measure only, and every other decision is the
expert's: a student planted on nothing reads 0 on every Numero measure.
"""

from __future__ import annotations

import random
from itertools import islice

from ..skills import Quotas, detail_quota
from .analyse import BUILD_OPERATION, build_without_answer, smallest_take
from .cards import WILD_CODES, in_pack, value_of
from .engine import NumeroEngine
from .expert import ExpertBot, Judgement
from .search import TakeSearch, distinct_takers
from .view import search_items

SMALL_TAKES = 60  # groups looked at per taking card for a planted smaller take


class PlantedNumero:
    """The planted player of Numero and Numero Solitaire (`Planted.player`). Its planner is
    made at its first Numero decision (the expert it asks is not cheap to make)."""

    def __init__(self, quotas: Quotas, seed: int = 0):
        self.quota, self.seed = quotas, seed
        self._planner: NumeroPlanner | None = None

    def attempts(self, view: dict) -> list[dict]:
        self._planner = self._planner or NumeroPlanner(self.quota, self.seed)
        return self._planner.attempts(view)

    @staticmethod
    def illegal(view: dict) -> dict:
        """A free step with a wild card the player does not hold (refused: not_in_hand, or
        wild_not_in_pack). A free step is no chance at any Numero measure but the rule one."""
        hand = set(view["hand"] or ())
        missing = [w for w in WILD_CODES if w not in hand]
        held = [w for w in missing if in_pack(w, view["options"])]
        return {"type": "discard_wild", "card": (held or missing)[0]}


class NumeroPlanner:
    """Decides one player's Numero decisions; `quota(label)` is the student's quota."""

    def __init__(self, quota: Quotas, seed: int = 0):
        self.quota = quota
        self.rng = random.Random(f"planted-numero:{seed}")
        # Numero's expert for Solitaire too: it only reads the view (`engine` is unused by
        # its judgement), and the planted player of both games is one and the same.
        self.expert = ExpertBot(NumeroEngine(), seed)

    def attempts(self, view: dict) -> list[dict]:
        """One decision: the attempts in order (a refused one first, then the legal move)."""
        judged = self.expert.judge(view)
        if judged.challenge is not None:
            return [judged.challenge]
        step = judged.steps[0]
        if step["type"] not in ("take", "build", "discard"):
            return [step]  # a free step: no Numero measure looks at it
        if step["type"] != "take":
            return self._build_or_discard(view, step)
        if not (view["final_turn"] or view["solitaire"]) and self.quota("nu.missed_take").take():
            return self._build_or_discard(view, max(judged.others, key=lambda o: o[0])[1][-1])
        return [self._take(view, judged, step)]

    # ----- takes -------------------------------------------------------------------------------
    def _take(self, view: dict, judged: Judgement, step: dict) -> dict:
        items = search_items(view["centre"])
        expert_cards = judged.take.cards
        smallest = smallest_take(items, view["hand"])
        if smallest is None or smallest[0] >= expert_cards:
            return step  # no smaller take: no chance at nu.best_take
        if not self.quota("nu.best_take").take():
            return step
        return self.rng.choice(self._smaller_takes(view, items, expert_cards, smallest))

    def _smaller_takes(self, view, items, below: int, smallest) -> list[dict]:
        """Takes with the centre as it is that win fewer than `below` cards: one group each
        (the smallest one always among them)."""
        names = [item["cards"][0] for item in view["centre"]]
        search = TakeSearch(items)
        out, seen = [], set()

        def add(card, indices):
            key = (card, tuple(sorted(indices)))
            if key not in seen:
                seen.add(key)
                out.append({"type": "take", "card": card, "groups": [[names[i] for i in sorted(indices)]]})

        _cards, card, indices = smallest
        add(card, indices)
        for card in distinct_takers(view["hand"], "cards"):
            for group, _used, _w in islice(search.groups(value_of(card)), SMALL_TAKES):
                indices = [search.order[k] for k, _option in group]
                if 1 + sum(items[i][1][0] for i in indices) < below:
                    add(card, indices)
        return out

    # ----- builds and discards -----------------------------------------------------------------
    def _build_or_discard(self, view: dict, step: dict) -> list[dict]:
        if step["type"] != "build":
            return [step]
        wrong = build_without_answer(view, first=step["card"])
        if wrong is None:
            return [step]  # every build keeps its answer: no chance at nu.valid_build
        missable = not view["options"].get("challenges")
        if detail_quota(self.quota, "nu.valid_build", BUILD_OPERATION).take(missable=missable):
            return [wrong, step]
        return [step]

