"""What each mechanism needs and whether it runs here: exact reasons for operators, a plain
"not installed on this server" for everyone else (the reason names paths and commands)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from anonymizer import list_mechanisms
from webapp.jobs.services import queue_for

NOT_INSTALLED = "not installed on this server"
_COMMAND = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class MechanismStatus:
    name: str
    title: str
    guarantee: str
    queue: str
    models: tuple[str, ...]
    available: bool
    reason: str | None  # the registry's exact reason, None when available
    install_commands: tuple[str, ...]  # the commands the reason names


def mechanism_statuses() -> list[MechanismStatus]:
    statuses = []
    for info in list_mechanisms():
        reason = info.unavailable_reason()
        statuses.append(
            MechanismStatus(
                name=info.name,
                title=info.title,
                guarantee=info.guarantee,
                queue=queue_for(info.name),
                models=info.models,
                available=reason is None,
                reason=reason,
                install_commands=tuple(_COMMAND.findall(reason or "")),
            )
        )
    return statuses


def reason_for(user, reason: str | None) -> str | None:  # type: ignore[no-untyped-def]
    """The unavailability reason this user may see: exact for staff, plain for others."""
    if reason is None:
        return None
    return reason if getattr(user, "is_staff", False) else NOT_INSTALLED
