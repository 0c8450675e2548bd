"""The exceptions of the grundy package; every message is the library's (the CLI's words)."""

__all__ = ["GrundyError", "InputError", "RuleError", "CycleError", "StoppedError"]


class GrundyError(Exception):
    """Base class of every error the grundy library raises."""


class InputError(GrundyError, ValueError):
    """Bad input, or a computation larger than its limit (raise the limit or ask less).

    The CLI exits with code 2 for these.
    """


class RuleError(InputError):
    """A heap rule that does not parse, e.g. ``grundy.heap("0.8x")``."""


class CycleError(InputError):
    """A game whose positions can repeat: the solver needs every play to end."""


class StoppedError(GrundyError):
    """The computation was stopped: the ``progress`` callback returned ``False``."""
