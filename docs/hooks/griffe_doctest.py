"""Griffe extension: render docstrings written for doctest and Sphinx as Markdown.

* A run of ``>>>`` lines with their output (up to a blank line) becomes a fenced
  ``pycon`` block, instead of Markdown reading ``>`` as a quotation.
* Sphinx roles (``:func:`~drawdsl.loop```) become inline code naming the object.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):`~?([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match.group(1)
    return f"`{target.rsplit('.', 1)[-1] if match.group(0).count('~') else target}`"


def markdown(text: str) -> str:
    """The docstring ``text`` with doctest runs fenced and Sphinx roles as code."""
    out: list[str] = []
    in_fence = in_doctest = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_fence:
            if stripped.startswith(">>>") and not in_doctest:
                out.append("```pycon")
                in_doctest = True
            elif in_doctest and not stripped:
                out.append("```")
                in_doctest = False
            if not in_doctest:
                line = _ROLE.sub(_role, line)
        out.append(line)
    if in_doctest:
        out.append("```")
    return "\n".join(out)


class DoctestAsMarkdown(griffe.Extension):
    """Rewrite every docstring once, when its object is loaded."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
