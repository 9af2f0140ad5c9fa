"""The one registry of mechanisms: the web form, the CLI and the benchmarks list the same set."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from anonymizer.errors import MechanismUnavailable, UnknownMechanism
from anonymizer.types import Mechanism


@dataclass(frozen=True)
class MechanismInfo:
    name: str
    title: str
    guarantee: str
    description: str
    parameters: tuple[str, ...]
    factory: Callable[[], Mechanism]
    uses_epsilon: bool = False
    uses_delta: bool = False
    needs_gpu: bool = False
    models: tuple[str, ...] = ()
    check_available: Callable[[], str | None] = field(default=lambda: None)
    default_epsilon: float | None = None  # None: Settings' default (the seed's 16)
    default_epsilon_reason: str | None = None

    def unavailable_reason(self) -> str | None:
        """None when the mechanism can run here; otherwise why not and how to fix it."""
        return self.check_available()

    @property
    def available(self) -> bool:
        return self.unavailable_reason() is None


_REGISTRY: dict[str, MechanismInfo] = {}


def register(info: MechanismInfo) -> MechanismInfo:
    _REGISTRY[info.name] = info
    return info


def _load_builtin() -> None:
    import anonymizer.mechanisms  # noqa: F401  (registers the built-in mechanisms)


def list_mechanisms() -> list[MechanismInfo]:
    _load_builtin()
    return list(_REGISTRY.values())


def mechanism_info(name: str) -> MechanismInfo:
    _load_builtin()
    if name not in _REGISTRY:
        raise UnknownMechanism(name, list(_REGISTRY))
    return _REGISTRY[name]


@cache
def get_mechanism(name: str) -> Mechanism:
    """The mechanism instance, built once per process; raises if it cannot run here."""
    info = mechanism_info(name)
    reason = info.unavailable_reason()
    if reason is not None:
        raise MechanismUnavailable(f"{name} is unavailable: {reason}")
    return info.factory()
