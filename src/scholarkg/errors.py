"""One exception hierarchy, and the collector for problems found in input records.

The CLI turns any :class:`ScholarKGError` into a one-line message and the exit code
of its class, never a traceback. Problems with single records are not exceptions:
readers report them to a :class:`Problems` collector and go on with the next record.
"""

from __future__ import annotations

import errno
import logging
from dataclasses import dataclass

__all__ = [
    "ScholarKGError",
    "UsageError",
    "InputError",
    "RecordError",
    "QueryError",
    "StoreError",
    "LockedError",
    "NetworkError",
    "Problem",
    "Problems",
    "one_line",
    "disk_full",
    "EXIT_OK",
    "EXIT_PROBLEMS",
    "EXIT_USAGE",
    "EXIT_INPUT",
    "EXIT_QUERY",
    "EXIT_STORE",
    "EXIT_NETWORK",
    "EXIT_INTERNAL",
]

log = logging.getLogger("scholarkg")

EXIT_OK = 0
EXIT_PROBLEMS = 1  # finished, but some records had problems (only with --fail-on-problems)
EXIT_USAGE = 2  # bad command line (click's own code)
EXIT_INPUT = 3  # an input file cannot be read at all, or --strict and a record is bad
EXIT_QUERY = 4  # a SPARQL query is invalid, refused or timed out
EXIT_STORE = 5  # the output or store cannot be written, or is locked
EXIT_NETWORK = 6  # a remote service failed
EXIT_INTERNAL = 70  # a bug: please report it


class ScholarKGError(Exception):
    """Root of every error the library raises on purpose."""

    exit_code = EXIT_INTERNAL


class UsageError(ScholarKGError):
    """A bad argument that the command line could not catch (unknown format, bad name, ...)."""

    exit_code = EXIT_USAGE


class InputError(ScholarKGError):
    """An input file is missing, unreadable or in no known format."""

    exit_code = EXIT_INPUT


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem with one field of one record."""

    path: str
    position: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.position}" if self.position else self.path
        field = f" [{self.field}]" if self.field else ""
        return f"{where}{field}: {self.message}"


class RecordError(InputError):
    """A bad record, raised only in strict mode (otherwise it is a reported Problem)."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


class QueryError(ScholarKGError):
    exit_code = EXIT_QUERY


class StoreError(ScholarKGError):
    exit_code = EXIT_STORE


class LockedError(StoreError):
    """Another build holds the lock on the same output."""


class NetworkError(ScholarKGError):
    exit_code = EXIT_NETWORK


def one_line(text: str, limit: int = 1_000) -> str:
    r"""``text`` safe to print as part of one line: control, format and separator characters
    (newlines, terminal escapes, bidirectional overrides, lone surrogates) shown as escapes,
    and at most ``limit`` characters.

    >>> one_line("a\nb\x1b[31mc\u202e")
    'a\\nb\\x1b[31mc\\u202e'
    """
    if text.isprintable() and len(text) <= limit:
        return text
    out = "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii") for c in text[:limit])
    return out + ("…" if len(text) > limit else "")


_FULL_ERRNOS = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded"}
_FULL_WORDS = {"no space left on device": "no space left on device", "disk quota exceeded": "disk quota exceeded",
               "database or disk is full": "no space left on device"}
_SQLITE_FULL = 13


def disk_full(exc: BaseException | None) -> str | None:
    """Why ``exc`` (or an exception it came from) is a full disk or quota, else None.

    Python reports it as ``OSError`` with ``ENOSPC`` or ``EDQUOT``; SQLite as an error with
    code ``SQLITE_FULL`` ("database or disk is full"); RocksDB, through pyoxigraph, as an
    ``OSError`` without an errno whose text holds the system's message.

    >>> disk_full(OSError(errno.ENOSPC, "No space left on device"))
    'no space left on device'
    >>> disk_full(OSError("IO error: Disk quota exceeded: While appending to file: db/000008.log"))
    'disk quota exceeded'
    >>> disk_full(ValueError("no")) is None
    True
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
            return _FULL_ERRNOS[exc.errno]
        if getattr(exc, "sqlite_errorcode", None) == _SQLITE_FULL:
            return "no space left on device"
        if isinstance(exc, (OSError, ScholarKGError)) or type(exc).__module__ == "sqlite3":
            text = str(exc).lower()
            for words, reason in _FULL_WORDS.items():
                if words in text:
                    return reason
        exc = exc.__cause__ or exc.__context__
    return None


class Problems:
    """Collects record problems; in strict mode the first one is raised.

    Besides problems it keeps notes, which never stop a build: ``notes`` about whole files
    (shown in the summary), ``record_notes`` about single records (a repeated record merged
    into the first) and ``tallies``, counts of normal things worth a line in the summary (records
    without an abstract). Every problem and record note is written to ``problems.jsonl`` by
    :meth:`jsonl`; the log shows the first ``limit_logged`` problems and then only counts.

    >>> p = Problems()
    >>> p.report("in.jsonl", "line 3", "year", "not a year: 'soon'")
    >>> print(p.items[0])
    in.jsonl:line 3 [year]: not a year: 'soon'
    """

    def __init__(self, *, strict: bool = False, limit_logged: int = 20):
        self.strict = strict
        self.items: list[Problem] = []
        self.notes: list[str] = []
        self.record_notes: list[Problem] = []
        self.tallies: dict[str, int] = {}
        self.skipped_records = 0
        self._limit_logged = limit_logged

    def report(self, path: str, position: str, field: str, message: str) -> None:
        problem = Problem(one_line(str(path)), one_line(str(position)), one_line(field), one_line(message, 300))
        if self.strict:
            raise RecordError(problem)
        self.items.append(problem)
        if len(self.items) <= self._limit_logged:
            log.warning("%s", problem)
        elif len(self.items) == self._limit_logged + 1:
            log.warning("more problems follow; they are counted in the summary and all listed in problems.jsonl")

    def note(self, path: str, message: str) -> None:
        """Something worth telling the user that is not a problem with a record."""
        text = f"{one_line(str(path))}: {one_line(message, 300)}"
        self.notes.append(text)
        log.warning("%s", text)

    def note_record(self, path: str, position: str, field: str, message: str) -> None:
        """Something worth knowing about one record that is not a problem (never raises)."""
        note = Problem(one_line(str(path)), one_line(str(position)), one_line(field), one_line(message, 300))
        self.record_notes.append(note)
        log.info("%s", note)

    def tally(self, what: str, count: int = 1) -> None:
        """Count a normal occurrence (``"records without an abstract"``) for the summary."""
        self.tallies[what] = self.tallies.get(what, 0) + count

    def skip(self, path: str, position: str, field: str, message: str) -> None:
        """Report a problem that makes the whole record unusable."""
        self.report(path, position, field, message + " (record skipped)")
        self.skipped_records += 1

    def summary_notes(self) -> list[str]:
        """File notes, then one line per tally and one for the record notes."""
        lines = list(self.notes)
        lines += [f"{count:,} {what}" for what, count in sorted(self.tallies.items())]
        if self.record_notes:
            lines.append(f"{len(self.record_notes):,} record notes (repeated records merged, ...) in problems.jsonl")
        return lines

    def jsonl(self, file_name=None) -> bytes:
        """Every problem, then every record note, one JSON object a line: ``severity``
        (``problem`` or ``note``), ``file``, ``record``, ``field``, ``message``. ``file_name``
        maps each file's path to the name written (by default the path as given)."""
        import json

        lines = [
            json.dumps({"severity": severity, "file": file_name(p.path) if file_name else p.path, "record": p.position,
                        "field": p.field, "message": p.message}, ensure_ascii=False, sort_keys=True)
            for severity, group in (("problem", self.items), ("note", self.record_notes))
            for p in group
        ]
        return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""

    def __len__(self) -> int:
        return len(self.items)
