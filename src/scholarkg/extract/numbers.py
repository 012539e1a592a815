"""Numbers as papers write them: "48.6%", "48.6\\%" (TeX), "$1\\%$", "R^2 = 0.998", "up 12.56".

>>> [(v.text, str(v.value), v.unit) for v in find_values("BrowseComp (48.6\\\\%), GAIA (75.7%)")]
[('48.6\\\\%', '48.6', '%'), ('75.7%', '75.7', '%')]
>>> [str(v.value) for v in find_values("reaching R^2 = 0.998 with 1.7B and 4B models, 8x its size")]
['0.998']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

__all__ = ["Value", "find_values", "parse_number"]

_VALUE = re.compile(
    r"(?<![\w.^\\/\-@#{+])(?<!\^\()(?P<sign>[-+\u2212])?\$?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?![\d])(?P<unit>\s?(?:\\?%\$?|\s?percent\b|\s?pp\b|\s?points?\b|\s?pts\b|\s?dB\b|\s?ms\b|\s?FPS\b|\s?fps\b))?"
    r"(?![\w+\u00d7]|\.\d|-\d|-[A-Za-z]|\^|\s?[x\u00d7]\s?10)"  # not "4.38 x 10^(-22)", "s^(-2)"
)


@dataclass(frozen=True, slots=True)
class Value:
    """A number found in text: its exact text, offsets, decimal value and unit."""

    text: str
    start: int
    end: int
    value: Decimal
    unit: str | None


def parse_number(text: str) -> Decimal | None:
    """``"48.6\\%"`` -> ``Decimal("48.6")``; None when no number can be read."""
    m = re.search(r"[-+\u2212]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+\u2212]?\d+(?:\.\d+)?", text)
    if m is None:
        return None
    try:
        return Decimal(m.group(0).replace(",", "").replace("\u2212", "-"))
    except InvalidOperation:
        return None


def _unit(raw: str | None) -> str | None:
    if not raw:
        return None
    raw = raw.strip().strip("$").replace("\\", "")
    if raw in {"%", "percent"}:
        return "%"
    if raw in {"pp", "points", "point", "pts"}:
        return "points"
    if raw in {"dB", "ms"}:
        return raw
    if raw.lower() == "fps":
        return "FPS"
    return None


def find_values(text: str) -> list[Value]:
    """Every standalone number in ``text`` (not part of a name like "1.7B", "R^2", "GPT-4")."""
    out = []
    for m in _VALUE.finditer(text):
        number = m.group("num").replace(",", "")
        sign = "-" if m.group("sign") in {"-", "\u2212"} else ""
        try:
            value = Decimal(sign + number)
        except InvalidOperation:
            continue
        end = m.end()
        raw_unit = m.group("unit")
        if raw_unit and raw_unit.endswith("$") and not text[m.start() : m.start() + 1] == "$":
            end -= 1
        out.append(Value(text[m.start() : end], m.start(), end, value, _unit(raw_unit)))
    return out
