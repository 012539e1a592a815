"""What the commands share: options, progress on stderr and the build summary."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

__all__ = [
    "INPUT_FORMATS", "PhaseProgress", "phase_progress", "end_progress_line", "echo_summary",
    "echo_store_report", "graph_or_store", "parse_params", "format_option", "strict_option", "fail_option",
    "store_option", "progress_option",
]


def echo_summary(summary: dict, problems_file: Path | None = None) -> None:
    entities = ", ".join(f"{k} {v}" for k, v in summary["entities"].items())
    click.echo(f"papers      {summary['papers']}")
    click.echo(f"authors     {summary['authors']}")
    click.echo(f"categories  {summary['categories']} ({', '.join(summary['category_labels'])})")
    click.echo(f"entities    {summary['entities_total']} ({entities})")
    click.echo(f"results     {summary['results']} scores, {summary.get('improvements', 0)} improvements")
    click.echo(f"links       {summary['code_repositories']} code, {summary['project_pages']} project pages")
    click.echo(f"triples     {summary['triples']}")
    if "problems" in summary:
        listed = f"; all listed in {problems_file}" if problems_file is not None and summary["problems"] else ""
        click.echo(f"problems    {summary['problems']} ({summary['skipped_records']} records skipped{listed})")
    for note in summary.get("notes", []):
        click.echo(f"note        {note}")


# The names of the reader registry, kept here so that `--help` needs no reader import; a test
# checks that both agree.
INPUT_FORMATS = ("arxiv-atom", "arxiv-snapshot", "bibtex", "jsonl", "profile")
format_option = click.option(
    "--format", "input_format", default=None, type=click.Choice(INPUT_FORMATS),
    help="Input format [default: detected from content].",
)
strict_option = click.option("--strict", is_flag=True, help="Stop at the first bad record.")
fail_option = click.option(
    "--fail-on-problems", is_flag=True, help="Exit with code 1 when any record had a problem."
)
store_option = click.option(
    "--store", type=click.Path(file_okay=False, path_type=Path),
    help="An on-disk Oxigraph store folder (made by build --store or bulk) instead of GRAPH.",
)


def graph_or_store(graph: Path | None, store: Path | None) -> Path:
    if (graph is None) == (store is None):
        raise click.UsageError("give either GRAPH or --store DIR")
    if store is not None:
        from ..store.disk import check_store

        check_store(store)
    return graph if store is None else store


def parse_params(values: tuple[str, ...]) -> dict[str, str]:
    params = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--param")
        params[name.strip()] = value
    return params



_line = {"open": False}  # whether a progress line is on stderr, unfinished (no line break yet)


def end_progress_line() -> None:
    """Finish the progress line on stderr, if one is open, so that a message starts on a line of its own."""
    if _line["open"]:
        click.echo("", err=True)
        _line["open"] = False


class PhaseProgress:
    """A progress bar on stderr for the stages of a build and other long operations:
    ``phase [#####   ] done/total``, or ``phase done (rate/s)`` when the total is not known."""

    def __init__(self, enabled: bool, width: int = 30):
        self.enabled = enabled
        self.width = width
        self.phase = None
        self.last = self.started = 0.0
        self.base = 0  # what the phase had done when first reported
        self.pending: tuple[int, int | None] | None = None  # the phase's last state, when not shown

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        finished = total is not None and done >= total
        if phase == self.phase and now - self.last < 0.25 and not finished:
            self.pending = (done, total)  # shown if nothing follows in this phase
            return
        if phase != self.phase:
            self._flush()
            end_progress_line()
            self.started, self.base = now, done
        self._show(phase, done, total, now)

    def _show(self, phase: str, done: int, total: int | None, now: float) -> None:
        self.phase, self.last, self.pending = phase, now, None
        if total:
            filled = int(self.width * min(done, total) / total)
            line = f"{phase:<11} [{'#' * filled}{' ' * (self.width - filled)}] {done:,}/{total:,}"
        elif now - self.started >= 1.0:  # the rate since the phase was first reported
            line = f"{phase:<11} {done:,} ({(done - self.base) / (now - self.started):,.0f}/s)"
        else:
            line = f"{phase:<11} {done:,}"
        click.echo("\r" + line, err=True, nl=False)
        _line["open"] = True

    def _flush(self) -> None:
        """Show the last state of the current phase, if it came too soon after the one shown."""
        if self.phase is not None and self.pending is not None:
            self._show(self.phase, *self.pending, time.monotonic())

    def done(self) -> None:
        if self.enabled and self.phase is not None:
            self._flush()
            end_progress_line()
            self.phase = None


def phase_progress(flag: bool | None) -> PhaseProgress:
    return PhaseProgress(sys.stderr.isatty() if flag is None else flag)


progress_option = click.option(
    "--progress/--no-progress", default=None, help="Show a progress bar [default: when stderr is a terminal]."
)


def echo_store_report(report, store: Path) -> None:
    from ..store import GraphStore, store_summary

    click.echo(f"store       {store}")
    click.echo(f"records     {report.added} added, {report.updated} updated, {report.unchanged} unchanged"
               + (f", {report.relinked} others relinked" if report.relinked else "")
               + (f", {report.replaced} replaced under a new identity" if report.replaced else ""))
    with GraphStore(store) as opened:
        summary = store_summary(opened, report.statements)
    summary["problems"] = len(report.problems.items)
    summary["skipped_records"] = report.problems.skipped_records
    summary["notes"] = report.problems.summary_notes()
    echo_summary(summary, problems_file=store / "problems.jsonl")


