"""Explore a study in a notebook: controls generated from its declared parameters.

A study notebook's "Explore" section is one line::

    Explorer(results)

It shows one control per parameter the study declares and its experiments do not set
themselves (an override of those is refused): a checkbox for a bool, a menu for a
parameter with choices, a number box bounded by the declared range for an int or a
float, a text box for a list (comma-separated) or a free string; each labelled with its
name and unit, its help text as the tooltip. **Run** checks the values with the study's
:class:`~transportlab.engine.params.ParameterSpace` (types, ranges, relations) and the
experiments, before anything runs; a problem is shown and nothing runs. Otherwise it
runs the study's figure for that point (what is cached is only loaded; in full mode on
the local cluster, as the notebook does) with a progress bar widget, saves it into the
point's exploration folder (``data/explore/<study>/<label>/``, never ``data/results``)
and shows it beside the committed full-mode figure.
"""

from __future__ import annotations

import html
import io
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from transportlab.cli import parse_value
from transportlab.engine import paths
from transportlab.engine.params import Param, ParameterError
from transportlab.engine.provenance import write_provenance
from transportlab.engine.results import Results

__all__ = ["Explorer", "control", "explorable_parameters"]

#: Where an unbounded number box stops (ipywidgets' bounded boxes need finite bounds).
_LARGE = 1e12


def explorable_parameters(results: Results) -> list[Param]:
    """The study's parameters a user may change for ``results``: those no experiment of
    its mode sets itself and that write no files."""
    study = results.study
    fixed = {
        name
        for experiment in results.experiments
        for point in experiment.point_list(dict(results.params), results.quick)
        for name in point
    }
    fixed |= set(study.output_parameters or ())
    return [p for p in study.parameters if p.name not in fixed]


def _label(param: Param) -> str:
    return f"{param.name} ({param.unit})" if param.unit else param.name


def control(param: Param, value: Any) -> widgets.Widget:
    """The widget for one declared parameter, showing ``value``."""
    common = {
        "description": _label(param),
        "tooltip": param.help,
        "style": {"description_width": "initial"},
        "layout": widgets.Layout(width="auto"),
    }
    if param.kind is bool:
        return widgets.Checkbox(value=bool(value), indent=False, **common)
    if param.choices is not None and param.kind is not list:
        return widgets.Dropdown(options=list(param.choices), value=value, **common)
    if param.kind in (int, float):
        low = -_LARGE if param.minimum is None else param.minimum
        high = _LARGE if param.maximum is None else param.maximum
        if param.kind is int:
            low = int(low) + (1 if param.exclusive_minimum else 0)
            return widgets.BoundedIntText(value=value, min=low, max=int(high), **common)
        return widgets.BoundedFloatText(value=value, min=low, max=high, step=None, **common)
    if param.kind is list:
        return widgets.Text(value=",".join(str(v) for v in value), **common)
    return widgets.Text(value=str(value), **common)


def _value(param: Param, widget: widgets.Widget) -> Any:
    if param.kind is list:
        return parse_value(param, widget.value)  # ParameterError on bad text
    return param.coerce(widget.value)


class Explorer(widgets.VBox):
    """Controls for one point of ``results``' study, a Run button, a progress bar, and
    the study's figure ``figure`` (default: its first) for that point beside the
    committed one. ``run()`` is what the button does (also for scripts and tests)."""

    def __init__(self, results: Results, figure: str | None = None) -> None:
        self.base = results
        study = results.study
        figures = list(study.reproduction.figures)
        if not figures:
            raise ValueError(f"{study.name} declares no figure to explore")
        if figure is not None and figure not in figures:
            raise KeyError(f"{study.name} declares no figure {figure!r}; figures: {figures}")
        self.figure_name = figure or figures[0]
        self.params = {p.name: p for p in explorable_parameters(results)}
        self.controls = {
            name: control(param, results.params[name]) for name, param in self.params.items()
        }
        first = results.experiments[0].name
        self.runs = widgets.BoundedIntText(
            value=results.runs(first), min=1, max=1000,
            description="runs per point", style={"description_width": "initial"},
            tooltip="ns-3 replications (RngRun 1..n) of every point",
        )  # fmt: skip
        self.button = widgets.Button(
            description="Run", button_style="primary", icon="play",
            tooltip="check the values, then simulate what is not cached and draw the figure",
        )  # fmt: skip
        self.button.on_click(lambda _: self.run())
        self.status = widgets.HTML()
        self.progress = widgets.Output()
        self.figures = widgets.HBox()
        #: the Results of the last point run (None before the first)
        self.explored: Results | None = None
        mode = "quick" if results.quick else "full"
        heading = widgets.HTML(
            f"<b>{study.title}</b>: {len(self.controls)} parameters ({mode} mode; the "
            f"experiments set the others). Figure: <code>{self.figure_name}</code>."
        )
        grid = widgets.GridBox(
            list(self.controls.values()),
            layout=widgets.Layout(grid_template_columns="repeat(2, minmax(0, 1fr))"),
        )
        super().__init__(
            [heading, grid, widgets.HBox([self.runs, self.button]), self.status,
             self.progress, self.figures]
        )  # fmt: skip

    # ------------------------------------------------------------------ values

    def overrides(self) -> dict[str, Any]:
        """The notebook's ``params`` and every control whose value differs from it.
        Raises ParameterError for text a list control cannot parse."""
        values = dict(self.base.overrides)
        problems = []
        for name, param in self.params.items():
            try:
                value = _value(param, self.controls[name])
            except ParameterError as exc:
                problems.append(str(exc))
                continue
            if value != self.base.params[name]:
                values[name] = value
        if problems:
            raise ParameterError("invalid parameters:\n  - " + "\n  - ".join(problems))
        return values

    def _runs_override(self) -> int | None:
        first = self.base.experiments[0].name
        changed = self.runs.value != self.base.runs(first)
        return self.runs.value if changed else self.base.runs_override

    # ------------------------------------------------------------------ running

    def plan(self) -> Results:
        """The Results of the controls' point: validated (ParameterSpace, experiments),
        planned, nothing run. Raises ParameterError or ValueError."""
        from tqdm.notebook import tqdm  # noqa: PLC0415 - ipywidgets' bar, only here

        overrides = self.overrides()
        self.base.study.parameters.validate(overrides, quick=self.base.quick)
        return Results(
            self.base.study, quick=self.base.quick, params=overrides,
            runs=self._runs_override(), scheduler=self.base.scheduler, progress_bar=tqdm,
        )  # fmt: skip

    def run(self) -> Results | None:
        """Check the controls' values; if they hold, run and draw the figure. Returns the
        point's Results, or None (the problem is in ``status``)."""
        try:
            explored = self.plan()
        except (ParameterError, ValueError) as exc:
            lines = [line.strip(" -") for line in str(exc).splitlines() if line.strip()]
            heading = lines.pop(0) if lines and lines[0].endswith(":") and len(lines) > 1 else ""
            message = (heading + " " if heading else "") + "; ".join(lines)
            self.status.value = f"<span style='color:#b00020'>Not run: {_escape(message)}</span>"
            return None
        simulations = sum(len(tasks) for tasks in explored.plan().values())
        self.status.value = f"Running: {simulations} simulations planned (cached ones load)."
        self.button.disabled = True
        try:
            self.progress.clear_output()
            with self.progress:
                figure = explored.figure(self.figure_name)
        finally:
            self.button.disabled = False
        self.explored = explored
        self.figures.children = self._side_by_side(figure)
        folder = explored.figures_dir() / f"{self.figure_name}.png"
        # the point's parameters beside its figure, as results.write() records them
        write_provenance(explored, [folder], keep=True)
        self.status.value = (
            f"Done: {self.figure_name} for {_escape(str(explored.overrides or 'the defaults'))}"
            f", {_runs(explored)}; saved to <code>{_relative(folder)}</code>."
        )
        return explored

    def _side_by_side(self, figure) -> tuple[widgets.Widget, ...]:
        import matplotlib.pyplot as plt  # noqa: PLC0415

        png = io.BytesIO()
        figure.savefig(png, format="png", dpi=80, bbox_inches="tight")
        plt.close(figure)
        boxes = []
        committed = paths.figures_dir(self.base.study.name, quick=False) / (
            f"{self.figure_name}.png"
        )
        if committed.is_file():
            boxes.append(_captioned("committed (full mode)", committed.read_bytes()))
        boxes.append(_captioned("this point", png.getvalue()))
        return tuple(boxes)


def _captioned(caption: str, png: bytes) -> widgets.Widget:
    image = widgets.Image(value=png, format="png", layout=widgets.Layout(max_width="560px"))
    return widgets.VBox([widgets.HTML(f"<b>{caption}</b>"), image])


def _runs(results: Results) -> str:
    runs = sorted({results.runs(e.name) for e in results.experiments if results.available(e.name)})
    return f"{'/'.join(map(str, runs))} run{'s' if runs != [1] else ''} per point"


def _relative(path: Path) -> str:
    try:
        return path.relative_to(paths.project_root()).as_posix()
    except ValueError:
        return str(path)


def _escape(text: str) -> str:
    return html.escape(text)
