"""The two exceptions of the engine contract (docs/engine.md, "The replay command")."""


class IllegalMove(Exception):
    """An action the rules refuse.

    `code` is stable and machine-readable (the spec's error codes); `message` is one
    sentence a 10-year-old can read. Raising it never leaves a changed state behind:
    engines work on a copy and only return the copy when the whole action succeeded.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class BadScenario(Exception):
    """A game that cannot be set up: wrong players, unknown options, impossible setup.

    Its message is for developers (the replay tool's JSON, a log), in English: it never
    reaches a teacher or a child. The site checks options before a game is made and words the
    refusal itself, in the reader's language (classroom/presets.py `resolve`,
    games/practice.py `options_accepted`)."""

    code = "bad_scenario"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
