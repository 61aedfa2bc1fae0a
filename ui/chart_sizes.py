"""The sizes of the app's charts: as drawn normally, and large for the presenting view.

``?present=true`` is for projecting the calculator page in a lecture hall, so every chart on it
has a ``large`` keyword. Only sizes change with it: text, line widths, point areas and heights.
Colours and dash patterns are the same at both sizes, so the contrast of the marks (WCAG AA)
and the dash patterns that tell the lines apart without colour hold in both.

The page's own charts keep the theme's font sizes unless large (:func:`fonts` adds none then),
so their normal specs are what they were before this module; the teaching charts set their
font size at both sizes (:func:`font`).
"""

from __future__ import annotations

import altair as alt

__all__ = [
    "FONT",
    "GROWTH",
    "LARGE_FONT",
    "LARGE_LABEL_LIMIT",
    "LARGE_TITLE_FONT",
    "TEXT",
    "axis",
    "font",
    "fonts",
    "grown",
    "grown_area",
    "label_room",
    "legend_text",
    "title_fonts",
]

#: Font size of the teaching charts' text at their normal size.
FONT = 13
#: Font size of the text of every chart when large: axis labels and titles, legends, notes.
LARGE_FONT = 20
#: Font size of a large chart's own title.
LARGE_TITLE_FONT = LARGE_FONT + 1
#: How many times longer a length is when large (heights, line widths); areas grow by its square.
GROWTH = 1.6
#: Widest legend label of a large chart, in pixels (Vega's default, 160, cuts "McNemar chi-square").
LARGE_LABEL_LIMIT = 320
#: The font-size properties of an axis or a legend: its labels and its title.
TEXT = ("labelFontSize", "titleFontSize")


def font(large: bool) -> int:
    """The teaching charts' font size: :data:`LARGE_FONT` when large, else :data:`FONT`.

    Examples
    --------
    >>> font(False), font(True)
    (13, 20)
    """
    return LARGE_FONT if large else FONT


def fonts(large: bool, properties: tuple[str, ...] = TEXT) -> dict[str, int]:
    """`properties` at the large font size when `large`; none at all otherwise, so the chart
    keeps the font sizes of the theme.

    Examples
    --------
    >>> fonts(True)
    {'labelFontSize': 20, 'titleFontSize': 20}
    >>> fonts(False)
    {}
    """
    return dict.fromkeys(properties, LARGE_FONT) if large else {}


def legend_text(large: bool) -> dict[str, int]:
    """A legend's font sizes when large, with room for its longest label at that size (Vega
    cuts a label past 160 px); none otherwise.

    Examples
    --------
    >>> legend_text(True)["labelLimit"]
    320
    """
    return {**fonts(large), **label_room(large)}


def label_room(large: bool) -> dict[str, int]:
    """Room for a legend label at the large font size when large; none otherwise.

    Examples
    --------
    >>> label_room(True), label_room(False)
    ({'labelLimit': 320}, {})
    """
    return {"labelLimit": LARGE_LABEL_LIMIT} if large else {}


def title_fonts(large: bool) -> dict[str, int]:
    """A chart title's font sizes (title and subtitle) when large; none otherwise.

    Examples
    --------
    >>> title_fonts(True)
    {'fontSize': 21, 'subtitleFontSize': 20}
    """
    return {"fontSize": LARGE_TITLE_FONT, "subtitleFontSize": LARGE_FONT} if large else {}


def axis(large: bool, **properties: object) -> alt.Axis | alt.UndefinedType:
    """An axis with `properties`, its labels and title at the large font size when `large`;
    no axis setting at all when there is nothing to set.

    Examples
    --------
    >>> axis(True, format="%").to_dict()["labelFontSize"]
    20
    >>> axis(False) is alt.Undefined
    True
    """
    if not (large or properties):
        return alt.Undefined
    return alt.Axis(**properties, **fonts(large))


def grown(length: int, large: bool) -> int:
    """A height or a line width: :data:`GROWTH` times longer (rounded) when large.

    Examples
    --------
    >>> grown(320, False), grown(320, True), grown(2, True)
    (320, 512, 3)
    """
    return round(GROWTH * length) if large else length


def grown_area(area: int, large: bool) -> int:
    """A point's area: :data:`GROWTH` squared times larger (rounded) when large, so that its
    width grows as a line's does.

    Examples
    --------
    >>> grown_area(100, True)
    256
    """
    return round(GROWTH**2 * area) if large else area
