"""The ``scholarkg`` command: the group, logging to stderr, and errors as one line and an exit code.

Library errors become one line on stderr and the exit code of their class
(see :mod:`scholarkg.errors`); a traceback is shown only with ``--debug``. The commands live
in one module per group (:mod:`.graph`, :mod:`.query`, :mod:`.research`, :mod:`.store`),
which share :mod:`.common` and never import this module."""

from __future__ import annotations

import logging

import click

from .. import errors
from ..errors import ScholarKGError
from . import graph, query, research, store
from .common import end_progress_line


class _Handler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        prefix = {"WARNING": "warning: ", "ERROR": "error: "}.get(record.levelname, "")
        end_progress_line()
        click.echo(prefix + record.getMessage(), err=True)


class _Group(click.Group):
    """Runs a command and turns errors into one-line messages and exit codes."""

    def invoke(self, ctx: click.Context):
        debug = ctx.params.get("debug", False)
        try:
            return super().invoke(ctx)
        except ScholarKGError as exc:
            if debug:
                raise
            end_progress_line()
            click.echo(f"error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            ctx.exit(0)
        except Exception as exc:  # a bug: say so plainly, keep the traceback for --debug
            if debug:
                raise
            end_progress_line()
            if (reason := errors.disk_full(exc)) is not None:  # not a bug: the disk or the quota is full
                click.echo(f"error: {reason}: {errors.one_line(str(exc), 300)}", err=True)
                ctx.exit(errors.EXIT_STORE)
            click.echo(
                f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback "
                "and please report it)",
                err=True,
            )
            ctx.exit(errors.EXIT_INTERNAL)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("-v", "--verbose", is_flag=True, help="Say more about what is happening.")
@click.option("-q", "--quiet", is_flag=True, help="Only errors.")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.version_option(package_name="scholarkg")
def main(verbose: bool, quiet: bool, debug: bool) -> None:
    """Build, query, explore and export knowledge graphs of scholarly records.

    \b
    Exit codes: 0 done; 1 done but records had problems (--fail-on-problems);
    2 bad command line; 3 unreadable input, no usable record, or a bad record with --strict;
    4 bad, refused or timed-out query; 5 output or store not writable, or locked by another build;
    6 network service failed; 70 internal error (a bug: please report it).
    """
    root = logging.getLogger("scholarkg")
    root.handlers[:] = [_Handler()]
    root.setLevel(logging.ERROR if quiet else logging.DEBUG if debug else logging.INFO if verbose else logging.WARNING)
    root.propagate = False


for _command in (graph.build, graph.extract, query.query, query.render, graph.export, graph.stats,
                 research.evaluate, graph.validate, research.curate, research.enrich, research.profile,
                 store.serve, store.push, store.bulk):
    main.add_command(_command)
