"""PNG charts of the analysis, with matplotlib's Agg backend (no display, no pyplot state).

``top_actors_chart``: horizontal bars of the most central entities, coloured by type.
``activity_chart``: events and roles per article date. ``write_charts`` writes both into
a folder. Labels come from articles, so they are drawn as plain text: ``$`` would
otherwise start matplotlib's mathtext.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..files import atomic_write
from .analysis import Activity, Rank, activity, rankings, top
from .network import Network

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["top_actors_chart", "activity_chart", "write_charts", "CHART_FILES"]

#: The files ``write_charts`` writes.
CHART_FILES = ("top-actors.png", "activity.png")

_TYPE_COLORS = {
    "Person": "#4e79a7",
    "Organization": "#f28e2b",
    "Place": "#59a14f",
    "Group": "#b07aa1",
    "Entity": "#9d9d9d",
}
_MEASURE_TITLES = {"pagerank": "PageRank", "degree": "links (degree)", "betweenness": "betweenness"}


def _plain(text: str, limit: int = 42) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text.replace("$", r"\$")


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig: Figure, path: str | os.PathLike[str]) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    atomic_write(path, lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None}))


def top_actors_chart(ranks: list[Rank], path: str | os.PathLike[str], measure: str = "pagerank", n: int = 15) -> None:
    """Bars of the ``n`` entities ranked first by ``measure``, best at the top."""
    best = top(ranks, measure, n)
    fig = _figure(8, max(2.5, 0.38 * len(best) + 1.2))
    ax = fig.add_subplot()
    if not best:
        ax.text(0.5, 0.5, "no entities yet", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    else:
        values = [getattr(r, measure) for r in reversed(best)]
        labels = [_plain(r.label) for r in reversed(best)]
        colors = [_TYPE_COLORS.get(r.type, _TYPE_COLORS["Entity"]) for r in reversed(best)]
        ax.barh(range(len(best)), values, color=colors)
        ax.set_yticks(range(len(best)), labels)
        ax.set_xlabel(_MEASURE_TITLES.get(measure, measure))
        ax.spines[["top", "right"]].set_visible(False)
        from matplotlib.patches import Patch

        present = [t for t in _TYPE_COLORS if any(r.type == t for r in best)]
        ax.legend(handles=[Patch(color=_TYPE_COLORS[t], label=t) for t in present], loc="lower right", frameon=False)
    ax.set_title(f"Top {len(best)} entities by {_MEASURE_TITLES.get(measure, measure)}", loc="left")
    _save(fig, path)


def _by_month(days: list[Activity]) -> list[Activity]:
    months: dict[str, list[int]] = {}
    for d in days:
        m = months.setdefault(d.date[:7], [0, 0, 0])
        m[0] += d.events
        m[1] += d.roles
        m[2] += d.articles
    return [Activity(k, *v) for k, v in months.items()]


def activity_chart(days: list[Activity], path: str | os.PathLike[str], max_bars: int = 40) -> None:
    """Stacked bars of events and roles per article date (undated articles as the last bar).

    With more than ``max_bars`` dates the bars are months (YYYY-MM) instead of days.
    """
    if len(days) > max_bars:
        days = _by_month(days)
    fig = _figure(max(6, min(16, 0.5 * len(days) + 3)), 4)
    ax = fig.add_subplot()
    if not days:
        ax.text(0.5, 0.5, "no facts yet", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    else:
        xs = range(len(days))
        events = [d.events for d in days]
        ax.bar(xs, events, color="#555555", label="events")
        ax.bar(xs, [d.roles for d in days], bottom=events, color="#8fa8c8", label="roles")
        ax.set_xticks(list(xs), [d.date or "undated" for d in days], rotation=45 if len(days) > 4 else 0, ha="right"
                      if len(days) > 4 else "center")
        ax.set_ylabel("facts")
        ax.spines[["top", "right"]].set_visible(False)
        ax.legend(frameon=False)
    ax.set_title("Facts per article date", loc="left")
    _save(fig, path)


def write_charts(network: Network, folder: str | os.PathLike[str], ranks: list[Rank] | None = None,
                 n: int = 15) -> list[Path]:
    """Write ``top-actors.png`` (by PageRank) and ``activity.png`` into ``folder``; their paths."""
    out = Path(folder)
    if not out.is_dir():
        raise UsageError(f"cannot write charts to {out}: not a directory; create it first")
    ranks = rankings(network) if ranks is None else ranks
    paths = [out / name for name in CHART_FILES]
    top_actors_chart(ranks, paths[0], "pagerank", n)
    activity_chart(activity(network), paths[1])
    return paths
