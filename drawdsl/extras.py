"""Optional dependencies (the project's extras), imported only when a feature needs them.

The core needs only sympy.  Plots need matplotlib (the ``plot`` extra), batch
simulation of games needs NumPy (the ``sim`` extra), progress bars use tqdm when it is
installed (the ``progress`` extra) and fall back to a line on stderr otherwise.
:func:`require` imports a module or raises :class:`MissingExtra`, which says what to
install; it is both a ``DrawdslError`` and an ``ImportError``.

>>> require("fractions", "core", "an example").__name__
'fractions'
>>> try:
...     require("no_such_module_xyz", "plot", "drawing a chart")
... except MissingExtra as err:
...     print(err)  # doctest: +ELLIPSIS
drawing a chart needs no_such_module_xyz, which is not installed; install it with pip install ...
"""

from __future__ import annotations

import importlib
from types import ModuleType

from drawdsl.errors import MissingExtra

__all__ = ["MissingExtra", "require"]

#: The pip name of modules whose import name differs.
_PIP_NAME = {"matplotlib.pyplot": "matplotlib"}


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtra` naming the extra that provides it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        pip_name = _PIP_NAME.get(module, module.split(".")[0])
        raise MissingExtra(
            f"{purpose} needs {pip_name}, which is not installed; install it with "
            f'pip install "drawdsl[{extra}]" (or pip install {pip_name})'
        ) from None
