"""The library's own code objects, told apart from the spec's by identity, not by file name.

A traced run (:mod:`drawdsl.atoms`) trusts the evaluator's own frames: their hashing
only keys states, their errors are not the spec's.  Which frames those are was decided
by the code's file name, and a spec can compile code under any file name
(``compile(source, drawdsl.keys.__file__, "exec")``) and have it trusted.  Here the
code objects of the library's modules are collected once (functions, methods, and the
code nested in them: lambdas, comprehensions, inner functions), and a frame is the
library's only when its code object is one of them.  A code object the walk misses is
treated as the spec's: stricter, never trusted by mistake.

>>> import drawdsl.keys
>>> ids = codes_of(["keys.py"])
>>> id(drawdsl.keys.strict_key.__code__) in ids
True
>>> forged = compile("def strict_key(v): return hash(v)", drawdsl.keys.__file__, "exec")
>>> id(forged) in ids
False
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import types
from collections.abc import Iterable
from typing import Any

__all__ = ["codes_of", "frozen_codes", "functions_named", "globals_of"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def _module(filename: str) -> types.ModuleType:
    return importlib.import_module("drawdsl." + filename.removesuffix(".py"))


def _walk(module: types.ModuleType, frozen: bool = False) -> set[types.CodeType]:
    """Every code object reachable from ``module``'s names whose file is the module's
    (a frozen module's: named ``"<frozen ...>"``)."""
    path = os.path.join(_HERE, os.path.basename(getattr(module, "__file__", None) or ""))
    found: set[types.CodeType] = set()
    seen: set[int] = set()

    def add(code: types.CodeType) -> None:
        if code in found:
            return
        found.add(code)
        for const in code.co_consts:
            if type(const) is types.CodeType:
                add(const)

    def visit(obj: Any, depth: int) -> None:
        if depth > 4 or id(obj) in seen:
            return
        seen.add(id(obj))
        if type(obj) is types.FunctionType:
            add(obj.__code__)
            wrapped = obj.__dict__.get("__wrapped__")
            if wrapped is not None:
                visit(wrapped, depth + 1)
        elif isinstance(obj, (staticmethod, classmethod)):
            visit(obj.__func__, depth + 1)
        elif isinstance(obj, property):
            for part in (obj.fget, obj.fset, obj.fdel):
                visit(part, depth + 1)
        elif isinstance(obj, functools.partial):
            visit(obj.func, depth + 1)
        elif isinstance(obj, type):
            if obj.__module__ == module.__name__:
                for value in vars(obj).values():
                    visit(value, depth + 1)
        elif type(obj) in (tuple, list, frozenset, set):
            for item in obj:
                visit(item, depth + 1)
        elif type(obj) is dict:
            for value in obj.values():
                visit(value, depth + 1)
        elif hasattr(type(obj), "__wrapped__") or type(obj).__name__ == "_lru_cache_wrapper":
            visit(getattr(obj, "__wrapped__", None), depth + 1)

    for value in list(vars(module).values()):
        visit(value, 0)
    if frozen:
        return {code for code in found if code.co_filename.startswith("<frozen ")}
    return {code for code in found if code.co_filename == path}


def codes_of(filenames: Iterable[str]) -> frozenset[int]:
    """The ids of the code objects of the library's modules ``filenames`` (``"keys.py"``).

    The modules live as long as the interpreter, and so do their code objects, so no
    other code object can take one of these ids."""
    ids: set[int] = set()
    for name in filenames:
        ids.update(id(code) for code in _walk(_module(name)))
    return frozenset(ids)


def globals_of(filenames: Iterable[str]) -> dict[int, dict[str, Any]]:
    """Code id -> the globals it runs with (its module's), for the library's modules
    ``filenames``: a frame is the library's only with both (``types.FunctionType(code,
    other_globals)`` runs the library's code with the spec's names).

    >>> import drawdsl.keys
    >>> globals_of(["keys.py"])[id(drawdsl.keys.strict_key.__code__)] is vars(drawdsl.keys)
    True
    """
    found: dict[int, dict[str, Any]] = {}
    for name in filenames:
        module = _module(name)
        found.update((id(code), vars(module)) for code in _walk(module))
    return found


def functions_named(pairs: Iterable[tuple[str, str]]) -> frozenset[int]:
    """The ids of the code objects of the library's functions and methods named ``name`` in
    module ``filename``, for each pair ``(filename, name)``.

    >>> import drawdsl.keys
    >>> functions_named([("keys.py", "strict_key")]) == {id(drawdsl.keys.strict_key.__code__)}
    True
    """
    ids: set[int] = set()
    for filename, name in pairs:
        ids.update(id(code) for code in _walk(_module(filename)) if code.co_name == name)
    return frozenset(ids)


def frozen_codes() -> frozenset[int]:
    """The ids of the code objects of the interpreter's frozen modules loaded now (``abc``,
    ``_collections_abc``, ``os``...: code named ``"<frozen ...>"``), found by the same walk.

    >>> import abc
    >>> id(abc.ABCMeta.__instancecheck__.__code__) in frozen_codes()
    True
    """
    ids: set[int] = set()
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        if type(module) is types.ModuleType and getattr(spec, "origin", None) == "frozen":
            ids.update(id(code) for code in _walk(module, frozen=True))
    return frozenset(ids)
