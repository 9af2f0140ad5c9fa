"""Built-in mechanisms: importing this package imports every module in it, and each module
registers itself. A module must import cleanly without its heavy libraries (import those
lazily), so that one mechanism's missing weights never hide the others.
"""

import importlib
import pkgutil

_SKIP = {"base", "embedding_plan", "gaussian_noise"}

for _module in pkgutil.iter_modules(__path__):
    if _module.name not in _SKIP and not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")
