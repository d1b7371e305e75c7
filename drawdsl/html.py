"""Small HTML tables for Jupyter: what ``_repr_html_`` of results returns.

Cells are escaped; a :class:`~fractions.Fraction` cell shows as ``p/q`` followed by its
decimal value, so notebooks show the exact answer and a readable one side by side.

>>> from fractions import Fraction
>>> print(table(["pattern", "P(wins)"], [["HTH", Fraction(1, 3)], ["<b>", 0.5]], caption="race"))
... # doctest: +NORMALIZE_WHITESPACE
<table><caption>race</caption><thead><tr><th>pattern</th><th>P(wins)</th></tr></thead><tbody>
<tr><td>HTH</td><td>1/3 <small>(&asymp; 0.333333)</small></td></tr>
<tr><td>&lt;b&gt;</td><td>0.5</td></tr></tbody></table>
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction

__all__ = ["cell", "table"]


def cell(value: object) -> str:
    """One value as escaped HTML: fractions exact with their decimal, floats to 6 digits.

    >>> cell(Fraction(53, 110)), cell(2.0 / 3), cell("a&b")
    ('53/110 <small>(&asymp; 0.481818)</small>', '0.666667', 'a&amp;b')
    """
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{value.numerator}/{value.denominator} <small>(&asymp; {float(value):.6g})</small>"
    if isinstance(value, float):
        return f"{value:.6g}"
    return html.escape(str(value))


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], caption: str | None = None) -> str:
    """An HTML table of ``rows`` under ``headers`` (each cell through :func:`cell`)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("\n<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
