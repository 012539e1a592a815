"""Structure of model names: family, version, size and variant.

"Qwen 3-4B", "Qwen3-4B", "LLaMA-3-8b", "Llama 3.1 8B Instruct", "GPT-4o", "Qwen-2.5 series":
:func:`parse_model_name` splits such a name after a known family into its parts, and
:class:`ModelName` gives the canonical label and the chain of parents
(``Qwen 3-4B`` -> ``Qwen 3`` -> ``Qwen``).

>>> m = parse_model_name("Qwen 3-4B", "Qwen")
>>> m.label, m.parent
('Qwen 3-4B', 'Qwen 3')
>>> parse_model_name("LLaMA-3-8b", "LLaMA").label
'LLaMA 3-8B'
>>> parse_model_name("GPT-4o", "GPT").label, parse_model_name("GPT-4o", "GPT").parent
('GPT-4o', 'GPT')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["ModelName", "parse_model_name", "parse_known_model", "variant_base", "SUFFIX_RE", "VARIANT_WORDS",
           "HYPHEN_FAMILIES", "VERSIONED"]

# A name that ends in a release tag: "YOLOv8", "Mirothinker-v1.0", "Seurat v3" (not "RCV1", an acronym).
VERSIONED = re.compile(r"[A-Za-z](?:v|[ \-][vV])\d+(?:\.\d+)*$")

VARIANT_WORDS = (
    "Instruct|Chat|Base|Coder|Code|Math|Mini|mini|Pro|Turbo|Flash|Lite|Plus|Max|Nano|Ultra|Sonnet|Opus|"
    "Haiku|Preview|VL|Vision|Omni|Reasoner|Thinking|Distill|Large|large|Medium|Small|small|Tiny|tiny|"
    "XXL|XL|base|chat|instruct|hf|it|Base|RLHF|SFT|DPO|Zero|AWQ|GPTQ|Embedding"
)
HYPHEN_FAMILIES = frozenset({"GPT", "T5", "mT5", "Flan-T5", "BLIP", "CLIP", "ViT", "ResNet", "ResNeXt",
                             "VGG", "DenseNet", "EfficientNet", "DeepSeek", "RT", "Wide ResNet",
                             "BERT", "RoBERTa", "XLM", "DeiT", "Swin", "DINO", "OPT", "BLOOM", "Pythia",
                             "MobileNet", "Inception", "Gemini", "o", "Kimi", "GLM", "InternLM", "Phi"})

# What may follow a family name: version, size (possibly a range), variant words.
_VERSION = r"(?:v|V)?\d+(?:\.\d+)*[a-z]?(?![\d.]*[BbMmKkTt]\b)|[A-Z]\d+(?:\.\d+)?|[vV]\d+"
_SIZE = r"\d+(?:\.\d+)?[BbMmKkTt](?![a-zA-Z])|\d+x\d+[Bb]|[BbLlHhSsGg]/\d+"
SUFFIX_RE = re.compile(
    rf"(?:(?P<sep1>[ \-]?)(?P<version>{_VERSION}))?"
    rf"(?P<size>(?:[ \-](?:{_SIZE}))*)"
    rf"(?P<variant>(?:[ \-](?:{VARIANT_WORDS}|A\d+(?:\.\d+)?B)(?![\w]))*)"
)
_SIZE_RE = re.compile(_SIZE)


@dataclass(frozen=True, slots=True)
class ModelName:
    """A parsed model name. ``label`` is canonical; ``parent`` is the next family up."""

    family: str
    version: str = ""
    sizes: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()

    def _versioned(self) -> str:
        if not self.version:
            return self.family
        if self.family in HYPHEN_FAMILIES or self.family[-1].isdigit():
            joiner = "-"
        elif self.version[0] == "v":
            joiner = ""
        elif not self.version[0].isdigit():
            joiner = "-"
        else:
            joiner = " "
        return f"{self.family}{joiner}{self.version}"

    @property
    def label(self) -> str:
        parts = [self._versioned(), *self.sizes, *self.variants]
        return "-".join(parts)

    @property
    def parent(self) -> str | None:
        if self.variants:
            return ModelName(self.family, self.version, self.sizes).label
        if self.sizes:
            return self._versioned() if self.version else self.family
        if self.version:
            return self.family
        return None

    def parents(self) -> list[str]:
        """Every ancestor, nearest first."""
        out, current = [], self
        while True:
            if current.variants:
                current = ModelName(current.family, current.version, current.sizes)
            elif current.sizes:
                current = ModelName(current.family, current.version)
            elif current.version:
                current = ModelName(current.family)
            else:
                return out
            out.append(current.label)


# A tail that always marks a variant (a version tag, a dotted version, a size or variant word) ...
_STRONG_TAIL = re.compile(
    rf"^(?P<base>.*?[A-Za-z].*?)(?:[ \-](?:[vV]\d+(?:\.\d+)*|\d+\.\d+(?:\.\d+)*|\d+(?:\.\d+)?[KkMB]|[A-Z]{{1,2}}|XXL|en|zh|fr|de|ja|"
    rf"EN|ZH|Verified|Lite|Hard|Pro|Plus|Mini|Full|Small|Large|Base|{VARIANT_WORDS})|(?<=[A-Za-z])[vV]\d+(?:\.\d+)*)$"
)
# ... and one that may be part of the name itself ("Set14", "Market1501", "AutoEnv-36").
_WEAK_TAIL = re.compile(r"^(?P<base>.*?[A-Za-z].*?)(?:[ \-]\d+[a-z]?|(?<=[A-Za-z])\d+)$")


@lru_cache(maxsize=65536)
def variant_base(name: str) -> tuple[str, bool] | None:
    """The family a variant name belongs to, one step up, and whether the tail surely marks a
    variant (a version or variant word) rather than possibly being part of the name.

    >>> variant_base("MiroThinker-v1.0"), variant_base("YOLOv8-L"), variant_base("YOLOv8")
    (('MiroThinker', True), ('YOLOv8', True), ('YOLO', True))
    >>> variant_base("BrowseComp-en"), variant_base("Set14"), variant_base("GRPO")
    (('BrowseComp', True), ('Set', False), None)
    """
    for pattern, strong in ((_STRONG_TAIL, True), (_WEAK_TAIL, False)):
        m = pattern.match(name)
        if m is None:
            continue
        base = m.group("base").rstrip(" -")
        if sum(c.isalpha() for c in base) < 2 or base == name:
            return None
        return base, strong
    return None


def _norm_size(size: str) -> str:
    if "/" in size:
        return size.upper()
    return size[:-1] + size[-1].upper()


def parse_model_name(text: str, family_text: str, family: str | None = None) -> ModelName:
    """Parse ``text`` which starts with ``family_text`` (as written); ``family`` is its canonical form."""
    family = family or family_text
    rest = text[len(family_text):]
    m = SUFFIX_RE.match(rest)
    version = sizes = variants = ""
    if m:
        version = m.group("version") or ""
        sizes = m.group("size") or ""
        variants = m.group("variant") or ""
    size_list = tuple(_norm_size(s) for s in _SIZE_RE.findall(sizes))
    variant_list = tuple(v for v in re.split(r"[ \-]", variants) if v)
    return ModelName(family, version, size_list, variant_list)


def parse_known_model(label: str, families: dict[str, str]) -> ModelName | None:
    """Parse ``label`` if it starts with one of ``families`` (written form -> canonical family).

    The longest family name that is followed by a non-letter wins.
    """
    for written in sorted(families, key=len, reverse=True):
        if label.startswith(written) and (len(label) == len(written) or not label[len(written)].isalpha()):
            return parse_model_name(label, written, families[written])
    return None
