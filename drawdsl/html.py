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

__all__ = ["cell", "table", "fields", "text", "latex_fraction"]


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
    return f"<table>{_caption(caption)}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def fields(items: Iterable[tuple[str, object]], caption: str | None = None) -> str:
    """A two-column HTML table of named values: each name a row header, each value a :func:`cell`.

    >>> print(fields([("P(A wins)", Fraction(53, 110)), ("hand", "<2 3>")], caption="War"))
    ... # doctest: +NORMALIZE_WHITESPACE
    <table><caption>War</caption><tbody>
    <tr><th>P(A wins)</th><td>53/110 <small>(&asymp; 0.481818)</small></td></tr>
    <tr><th>hand</th><td>&lt;2 3&gt;</td></tr></tbody></table>
    """
    body = "".join(f"\n<tr><th>{html.escape(name)}</th><td>{cell(value)}</td></tr>" for name, value in items)
    return f"<table>{_caption(caption)}<tbody>{body}</tbody></table>"


def text(value: object) -> str:
    """A value as plain text (not yet escaped), for captions: a fraction with its decimal.

    >>> text(Fraction(17, 4)), text(Fraction(7)), text(2.0 / 3)
    ('17/4 ≈ 4.25', '7', '0.666667')
    """
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{value.numerator}/{value.denominator} ≈ {float(value):.6g}"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def latex_fraction(p: Fraction, label: str | None = None) -> str:
    r"""One exact fraction as LaTeX (what ``_repr_latex_`` returns): ``label = p/q \approx d``.

    The label is text: LaTeX's special characters in it are escaped.

    >>> print(latex_fraction(Fraction(7, 8), "P(THH first) & more"))
    $\text{P(THH first) \& more} = \frac{7}{8} \approx 0.875$
    >>> print(latex_fraction(Fraction(1)))
    $1$
    """
    from drawdsl.distribution import _latex_text  # the escaping Distribution uses

    if p.denominator == 1:
        value = str(p.numerator)
    else:
        value = rf"\frac{{{p.numerator}}}{{{p.denominator}}} \approx {float(p):.6g}"
    return f"${_latex_text(label)} = {value}$" if label else f"${value}$"


def _caption(caption: str | None) -> str:
    return f"<caption>{html.escape(caption)}</caption>" if caption else ""
