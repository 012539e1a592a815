"""Reading, finding and appending to curation files (TOML).

The build looks for a curation file in this order: ``--curation FILE``; else
``<stem>.curation.toml`` beside the first input (``examples/maojia-song.curation.toml`` for
``examples/maojia-song.txt``); else ``curation.toml`` in the first input's folder.

Appends are written by this module (TOML has no writer in the standard library): every
string is escaped as a TOML basic string, the whole file is parsed back before it replaces
the old one, and the write is atomic.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, UsageError
from .corrections import Correction, CorrectionError

__all__ = ["CurationFile", "load_curation", "default_curation_path", "find_curation", "append_correction", "HEADER"]

log = logging.getLogger(__name__)

HEADER = """\
# scholarkg curation file: corrections applied on every build, after extraction, in order.
# Entities are named by label or alias (case-insensitive), papers by arXiv id or title.
# Actions: merge, split, rename, alias, retype, drop, add, result, paper.
# `scholarkg curate --help` appends corrections; `scholarkg curate check` shows their status.
"""


@dataclass(frozen=True)
class CurationFile:
    path: Path
    corrections: tuple[Correction, ...]

    @property
    def name(self) -> str:
        return self.path.name


def load_curation(path: str | Path) -> CurationFile:
    """Read and check a curation file; any mistake raises InputError naming file, correction and field."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such curation file") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    return CurationFile(path, _parse(text, path))


def _parse(text: str, path: Path) -> tuple[Correction, ...]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    extra = sorted(set(data) - {"correction"})
    if extra:
        raise InputError(f"{path}: unknown top-level key {extra[0]!r} (corrections go in [[correction]] tables)")
    tables = data.get("correction", [])
    if not isinstance(tables, list):
        raise InputError(f"{path}: 'correction' must be an array of tables ([[correction]])")
    out: list[Correction] = []
    seen: dict[str, int] = {}
    for number, table in enumerate(tables, start=1):
        try:
            correction = Correction.from_table(table)
        except CorrectionError as exc:
            where = f"{path}: correction {number}"
            field = f" [{exc.field}]" if exc.field else ""
            raise InputError(f"{where}{field}: {exc}") from None
        if correction.id in seen:
            raise InputError(
                f"{path}: correction {number} [id]: {correction.id!r} repeats correction {seen[correction.id]}"
            )
        seen[correction.id] = number
        out.append(correction)
    return tuple(out)


def default_curation_path(first_input: str | Path) -> Path:
    """Where the curation file of ``first_input`` is written by default: ``<stem>.curation.toml`` beside it."""
    path = Path(first_input)
    return path.with_name(f"{path.stem}.curation.toml")


def find_curation(inputs: Iterable[str | Path]) -> Path | None:
    """The curation file a build of ``inputs`` uses by default, or None (see the module docstring)."""
    first = next(iter(inputs), None)
    if first is None:
        return None
    for candidate in (default_curation_path(first), Path(first).with_name("curation.toml")):
        if candidate.is_file():
            return candidate
    return None


# --- writing -------------------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (control characters escaped; lone surrogates refused)."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            raise UsageError(f"cannot write {text[:40]!r}: it is not valid Unicode text")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() else toml_string(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")  # pragma: no cover


def correction_toml(correction: Correction) -> str:
    lines = ["[[correction]]"]
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in correction.to_table().items()]
    return "\n".join(lines) + "\n"


def append_correction(path: str | Path, table: dict[str, Any]) -> Correction:
    """Check ``table`` as a correction and append it to the curation file at ``path``.

    The file is created (with a header) when missing. A correction with the same content
    as one already in the file is refused.
    """
    from ..fileio import locked, write_text

    path = Path(path)
    try:
        correction = Correction.from_table(table)
    except CorrectionError as exc:
        field = f" [{exc.field}]" if exc.field else ""
        raise UsageError(f"bad correction{field}: {exc}") from None
    with locked(path):
        if path.exists():
            existing = load_curation(path)
            text = path.read_text(encoding="utf-8")
        else:
            existing, text = CurationFile(path, ()), HEADER
        for number, old in enumerate(existing.corrections, start=1):
            if old.id == correction.id or old.fingerprint() == correction.fingerprint():
                raise UsageError(f"{path}: the same correction is already there (correction {number}, id {old.id})")
        if text and not text.endswith("\n"):
            text += "\n"
        text += "\n" + correction_toml(correction)
        _parse(text, path)  # never write a file the build could not read
        write_text(path, text)
    log.info("%s: added correction %s (%s)", path, correction.id, correction.describe)
    return correction
