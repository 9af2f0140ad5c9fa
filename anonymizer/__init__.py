"""Local text anonymization with formal privacy receipts. Never imports Django or Celery."""

from anonymizer.api import plan, rewrite, rewrite_many
from anonymizer.errors import AnonymizerError, InvalidSettings, MechanismUnavailable
from anonymizer.registry import list_mechanisms, mechanism_info
from anonymizer.settings import Settings
from anonymizer.types import Detection, Receipt, RewriteResult, Span
from anonymizer.version import __version__

__all__ = [
    "AnonymizerError",
    "Detection",
    "InvalidSettings",
    "MechanismUnavailable",
    "Receipt",
    "RewriteResult",
    "Settings",
    "Span",
    "__version__",
    "list_mechanisms",
    "mechanism_info",
    "plan",
    "rewrite",
    "rewrite_many",
]
