"""Errors the anonymizer raises; each carries one clear line for the user."""


class AnonymizerError(Exception):
    """Base class for every error this package raises on purpose."""


class InvalidSettings(AnonymizerError, ValueError):
    """A setting is out of range or unknown (bad ε, δ, composition, category, ...)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class MechanismUnavailable(AnonymizerError):
    """The mechanism cannot run here (missing weights or packages); says how to fix it."""


class UnknownMechanism(InvalidSettings):
    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__("mechanism", f"unknown mechanism {name!r}; known: {', '.join(known)}")


class Cancelled(AnonymizerError):
    """Raised from a progress callback to stop a rewrite at the next step."""
