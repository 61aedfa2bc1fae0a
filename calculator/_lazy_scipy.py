"""``scipy.stats`` and ``scipy.optimize``, imported when first used.

Importing them costs about 0.4 s beyond ``scipy.special`` (which the core's everyday tests use),
and many modules need them only for planning, the k x k tables or the unconditional test. The
calculator page's first run (and so a server's cold start) imports those modules without
calling them; with these stand-ins it does not pay for the import.

    from calculator._lazy_scipy import stats   # instead of: from scipy import stats
    stats.binom.pmf(3, 10, 0.5)                # scipy.stats is imported here, once
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["optimize", "stats"]


class _OnFirstUse:
    """Stands for a module; the first attribute asked for imports it."""

    def __init__(self, name: str) -> None:
        self._name = name

    def _module(self) -> ModuleType:
        return importlib.import_module(self._name)  # cached in sys.modules after the first

    def __getattr__(self, attribute: str) -> object:
        return getattr(self._module(), attribute)

    def __repr__(self) -> str:
        return f"<{self._name}, imported when first used>"


stats = _OnFirstUse("scipy.stats")
optimize = _OnFirstUse("scipy.optimize")
