"""scholarkg: publication records -> an RDF knowledge graph of authors, papers, categories
and the research entities they name.

The public API (see :mod:`scholarkg.api`): :func:`build`, :func:`load`, :func:`query`,
:func:`render`, :func:`export`. Imports are lazy so ``import scholarkg`` stays fast.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["build", "load", "query", "render", "export", "__version__"]


def __getattr__(name: str):
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'scholarkg' has no attribute {name!r}")
