"""The command line (``scholarkg --help``): a thin layer over the library."""

from .app import main

__all__ = ["main"]
