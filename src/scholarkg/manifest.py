"""``build.json``: how a build folder was made, so it can be made again.

Written by :func:`scholarkg.pipeline.write_outputs` beside the graph files::

    {"curation": "../../examples/maojia-song.curation.toml", "enrichment": null,
     "format": null, "html": true, "inputs": ["../../examples/maojia-song.txt"]}

Paths are relative to the build folder (so the file does not depend on the working
directory). ``scholarkg enrich GRAPH`` reads it to rebuild the folder with the same inputs,
curation file and options after fetching arXiv metadata.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

__all__ = ["Manifest", "manifest_bytes", "read_manifest", "MANIFEST_NAME"]

MANIFEST_NAME = "build.json"


@dataclass(frozen=True)
class Manifest:
    folder: Path
    inputs: tuple[Path, ...]
    format: str | None = None
    curation: Path | None = None
    enrichment: Path | None = None
    html: bool = True


def _relative(path: str | Path, folder: Path) -> str:
    try:
        return Path(os.path.relpath(Path(path).resolve(), folder.resolve())).as_posix()
    except ValueError:  # another drive on Windows
        return Path(path).resolve().as_posix()


def manifest_bytes(result, out_dir: str | Path, *, html: bool = True) -> bytes:
    folder = Path(out_dir)
    data = {
        "inputs": [_relative(p, folder) for p in result.inputs],
        "format": result.format,
        "curation": _relative(result.curation, folder) if result.curation else None,
        "enrichment": _relative(result.enrichment, folder) if result.enrichment else None,
        "html": html,
    }
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8")


def read_manifest(folder: str | Path) -> Manifest:
    """The manifest of build folder ``folder``; InputError naming the field when it is unusable."""
    folder = Path(folder)
    path = folder / MANIFEST_NAME
    if not folder.is_dir():
        raise InputError(f"{folder}: not a build folder (written by `scholarkg build`)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: missing; rebuild the folder with `scholarkg build` first") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: unreadable ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object")
    inputs = data.get("inputs")
    if not isinstance(inputs, list) or not inputs or not all(isinstance(p, str) and p for p in inputs):
        raise InputError(f"{path} [inputs]: expected a non-empty list of paths")

    def optional(name: str) -> Path | None:
        value = data.get(name)
        if value is not None and (not isinstance(value, str) or not value):
            raise InputError(f"{path} [{name}]: expected a path or null")
        return Path(os.path.normpath(folder / value)) if value else None

    fmt = data.get("format")
    if fmt is not None and not isinstance(fmt, str):
        raise InputError(f"{path} [format]: expected a format name or null")
    return Manifest(
        folder,
        tuple(Path(os.path.normpath(folder / p)) for p in inputs),
        fmt,
        optional("curation"),
        optional("enrichment"),
        bool(data.get("html", True)),
    )
