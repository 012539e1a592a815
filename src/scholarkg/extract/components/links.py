"""URLs in titles and abstracts, with their kind.

Code hosts (GitHub, GitLab, Bitbucket, Codeberg, SourceForge) give a ``CodeRepository``
when the path names an owner and a project; GitHub Pages, Google Sites and paths or hosts
that say "project"/"page" give a ``ProjectPage``; anything else is a ``WebPage``. Trailing
sentence punctuation is not part of a URL. ``Doc._.links`` holds ``(url, kind, start, end)``.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from spacy.language import Language
from spacy.tokens import Doc

from ..doctext import info
from ...model import LinkKind

__all__ = ["LinkFinder", "classify_url", "find_urls"]

_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"'{}|\\^`\[\]]+", re.IGNORECASE)
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sourceforge.net", "gitee.com")
_PAGE_HOSTS = (".github.io", ".gitlab.io", "sites.google.com", ".netlify.app", ".pages.dev", ".vercel.app")


def find_urls(text: str) -> list[tuple[str, int, int]]:
    """``(url, start, end)`` for each URL, without trailing punctuation or unmatched brackets."""
    out = []
    for m in _URL.finditer(text):
        url = m.group(0)
        while url and url[-1] in ".,;:!?)]}'\"":
            if url[-1] == ")" and url.count("(") >= url.count(")"):
                break
            url = url[:-1]
        if len(url) > 10:
            out.append((url, m.start(), m.start() + len(url)))
    return out


def classify_url(url: str) -> LinkKind:
    """Kind of a URL.

    >>> classify_url("https://github.com/FoundationAgents/AutoEnv").value
    'CodeRepository'
    >>> classify_url("https://social-ai-studio.github.io/CHAIN/").value
    'ProjectPage'
    """
    parts = urlsplit(url if "://" in url else "http://" + url)
    host = (parts.hostname or "").lower()
    path = [p for p in parts.path.split("/") if p]
    if any(host == h or host.endswith("." + h) for h in _CODE_HOSTS):
        return LinkKind.CODE if len(path) >= 2 else LinkKind.WEB
    if host.endswith(_PAGE_HOSTS) or host.startswith(("project", "page")) or "project" in parts.path.lower():
        return LinkKind.PROJECT
    return LinkKind.WEB


class LinkFinder:
    def __init__(self):
        if not Doc.has_extension("links"):
            Doc.set_extension("links", default=None)

    def __call__(self, doc: Doc) -> Doc:
        text = info(doc).text
        if "http" in text or "www." in text:
            doc._.links = [(url, classify_url(url), s, e) for url, s, e in find_urls(text)]
        else:
            doc._.links = []
        return doc


@Language.factory("scholarkg_links")
def make_links(nlp: Language, name: str) -> LinkFinder:
    return LinkFinder()
