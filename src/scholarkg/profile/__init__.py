"""Author research profiles: one offline HTML page, or JSON, about an author in a graph.

>>> from scholarkg.profile import author_profile, profile_html          # doctest: +SKIP
>>> facts = author_profile("graphs/maojia-song", "Maojia Song")          # doctest: +SKIP
>>> open("profile.html", "w").write(profile_html(facts))                 # doctest: +SKIP
"""

from __future__ import annotations

from .data import author_profile, find_author, profile_json
from .page import profile_html

__all__ = ["author_profile", "find_author", "profile_json", "profile_html"]
