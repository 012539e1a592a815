"""A synthetic corpus of machine-learning paper records, for benchmarks.

``generate(n, seed)`` yields ``n`` JSON-lines-ready records (``id``, ``arxiv_id``, ``title``,
``abstract``, ``year``, ``categories``, ``authors``) that read like ML abstracts: they
introduce methods and benchmarks with acronyms ("Long-Horizon Retrieval Benchmark (LHRB)"),
evaluate named models on named benchmarks with scores ("reaches 81.4% accuracy on GSM8K"),
compare with baselines and link code. Popularity of entities, authors and categories
follows a Zipf-like law, so a few are everywhere and most are rare, as in arXiv. The same
``(n, seed)`` always gives the same records.

``extract_many(records)`` is a gazetteer extractor for exactly this vocabulary (same
interface as :func:`scholarkg.extract.extract_many`): it lets a benchmark build a graph with
the entity, mention and result structure of real extraction output at any size, whatever
extractor the tree currently ships.

    python bench/synthetic.py 1000 --seed 7 > corpus.jsonl
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
import re
import sys
from collections.abc import Iterable, Iterator
from decimal import Decimal

__all__ = ["generate", "extract_many", "EXTRACTOR_VERSION"]

EXTRACTOR_VERSION = "synthetic-gazetteer-1"

BENCHMARKS = """ImageNet CIFAR-10 CIFAR-100 GLUE SuperGLUE SQuAD MMLU GSM8K MATH HumanEval MBPP BIG-bench
HellaSwag ARC-Challenge TruthfulQA WinoGrande COCO ADE20K Cityscapes LibriSpeech WMT14 Natural-Questions
TriviaQA HotpotQA MS-MARCO BEIR BrowseComp SWE-bench GPQA AIME MiniF2F LongBench Kinetics-400 nuScenes
KITTI ScanNet VQAv2 TextVQA DocVQA ChartQA MT-Bench AlpacaEval Arena-Hard LiveCodeBench WebArena
OSWorld ToolBench MedQA PubMedQA FEVER XNLI TyDiQA FLORES-200 CommonVoice AudioSet ESC-50""".split()
MODELS = """GPT-4 GPT-4o GPT-3.5 Claude-3 Gemini-1.5 LLaMA-2-7B LLaMA-2-13B Llama-3-8B Llama-3-70B Mistral-7B
Mixtral-8x7B Qwen2.5-7B Qwen2.5-72B DeepSeek-V3 DeepSeek-R1 Phi-3 Gemma-2-9B BERT-base RoBERTa-large
T5-XL Flan-T5 BART ELECTRA ResNet-50 ResNet-101 ViT-B/16 ViT-L/14 Swin-T ConvNeXt CLIP SAM DINOv2
Whisper wav2vec-2.0 Stable-Diffusion DiT YOLOv8 DETR Mask-R-CNN PointNet GraphSAGE GCN""".split()
METHODS = """LoRA QLoRA RLHF DPO GRPO PPO SFT chain-of-thought self-consistency tree-of-thoughts
knowledge-distillation contrastive-learning masked-autoencoding mixture-of-experts speculative-decoding
retrieval-augmented-generation in-context-learning instruction-tuning curriculum-learning label-smoothing
dropout batch-normalization layer-normalization beam-search nucleus-sampling quantization pruning
data-augmentation self-training pseudo-labeling prompt-tuning adapter-tuning model-merging
reward-modeling test-time-scaling flash-attention sparse-attention""".split()
METRICS = ["accuracy", "F1", "exact match", "BLEU", "ROUGE-L", "pass@1", "mAP", "mIoU", "WER", "success rate"]
TASKS = """question answering|machine translation|image classification|semantic segmentation|code generation|
mathematical reasoning|speech recognition|object detection|summarization|information retrieval|
instruction following|tool use|web navigation|theorem proving|visual question answering|
text-to-image generation|dialogue|named entity recognition|relation extraction|graph learning""".replace("\n", "").split("|")
CATEGORIES = """cs.CL cs.LG cs.AI cs.CV stat.ML cs.IR cs.SE cs.RO cs.NE eess.AS cs.SD cs.CR cs.HC cs.MA
eess.IV cs.DC cs.DB cs.GR q-bio.QM math.OC""".split()
FIRST = """Wei Jing Yuki Anna Maria Luis Sofia Omar Priya Arjun Elena Ivan Chen Min-jun Fatima Kwame Lena
Tomás Aisha Hiroshi Sara David Mei Ahmed Olga Pedro Noura Jonas Ines Rafael Hana Mateo Zara Nikolai
Amara Kenji Laura Tariq Chloe Emeka Yara Felix Lucia Sanjay Mira Diego Astrid Hao Nadia Bruno""".split()
LAST = """Wang Zhang Li Liu Chen Yang Huang Zhao Wu Zhou Sato Suzuki Kim Park Nguyen Garcia Martinez
Rodriguez Smith Johnson Brown Müller Schmidt Rossi Russo Dubois Martin Silva Santos Kowalski Novak
Ivanova Petrov Singh Patel Kumar Sharma Okafor Mensah Haddad Khan Ali Hansen Larsen Virtanen
O'Brien Murphy Cohen Levi Costa Ferreira""".split()
ADJECTIVES = ["Robust", "Efficient", "Scalable", "Faithful", "Long-Horizon", "Multilingual", "Sparse", "Adaptive",
              "Unified", "Verifiable", "Lightweight", "Grounded", "Self-Improving", "Compositional", "Calibrated"]
NOUNS = ["Reasoning", "Retrieval", "Planning", "Alignment", "Distillation", "Search", "Attention", "Memory",
         "Routing", "Decoding", "Evaluation", "Perception", "Agents", "Tokenization", "Reward"]
KINDS = ["Benchmark", "Suite", "Arena", "Bench", "Eval"]
_WORD = re.compile(r"[A-Za-z0-9]")


class _Zipf:
    """Pick items with probability proportional to 1 / (rank + 1) ** s."""

    def __init__(self, items: list, s: float = 1.0):
        self.items = items
        self.cum = list(itertools.accumulate(1.0 / (i + 1) ** s for i in range(len(items))))

    def pick(self, rng: random.Random):
        return self.items[bisect.bisect(self.cum, rng.random() * self.cum[-1])]

    def sample(self, rng: random.Random, k: int) -> list:
        out: list = []
        while len(out) < min(k, len(self.items)):
            item = self.pick(rng)
            if item not in out:
                out.append(item)
        return out


def _acronym(words: list[str]) -> str:
    return "".join(w[0].upper() for w in " ".join(words).replace("-", " ").split())


def _new_name(rng: random.Random, kind: str | None = None) -> tuple[str, str]:
    words = [rng.choice(ADJECTIVES), rng.choice(NOUNS)] + ([kind] if kind else [rng.choice(NOUNS)])
    long = " ".join(words)
    return long, _acronym(words) + (str(rng.randint(2, 9)) if rng.random() < 0.3 else "")


def generate(n: int, seed: int = 0) -> Iterator[dict]:
    """``n`` synthetic ML paper records, the same for the same ``seed``."""
    rng = random.Random(seed)
    people = [f"{f} {l}" for f, l in itertools.product(FIRST, LAST)]
    random.Random(seed + 1).shuffle(people)
    authors = _Zipf(people, 0.9)
    benchmarks, models, methods = _Zipf(BENCHMARKS, 1.1), _Zipf(MODELS, 1.0), _Zipf(METHODS, 1.0)
    categories, tasks, metrics = _Zipf(CATEGORIES, 1.2), _Zipf(TASKS, 0.8), _Zipf(METRICS, 0.9)
    introduced: list[tuple[str, str]] = []  # names earlier papers introduced; later ones reuse some
    for i in range(n):
        year = min(2026, 2015 + int(11 * rng.random() ** 0.5))
        arxiv_id = f"{year % 100:02d}{rng.randint(1, 12):02d}.{i % 100000:05d}"
        task, bench, bench2 = tasks.pick(rng), *benchmarks.sample(rng, 2)
        model, baseline = models.sample(rng, 2)
        method = methods.pick(rng)
        new_long, new_short = _new_name(rng)
        sentences = [f"{task.capitalize()} remains hard for current systems, especially under distribution shift."]
        if rng.random() < 0.25:
            b_long, b_short = _new_name(rng, rng.choice(KINDS))
            introduced.append((b_long, b_short))
            sentences.append(f"We introduce {b_long} ({b_short}), a benchmark of {rng.randint(2, 90) * 100} problems for {task}.")
            bench2 = b_short
        sentences.append(f"We propose {new_long} ({new_short}), which combines {method} with {methods.pick(rng)}.")
        if introduced and rng.random() < 0.3:
            _, old_short = rng.choice(introduced)
            sentences.append(f"We also evaluate on {old_short}, introduced in prior work.")
        for b in (bench, bench2)[: rng.randint(1, 2)]:
            value = Decimal(f"{rng.uniform(20, 98):.1f}")
            sentences.append(f"On {b}, {new_short} with {model} reaches {value}% {metrics.pick(rng)}, outperforming {baseline} by {rng.uniform(0.3, 9):.1f} points.")
        if rng.random() < 0.5:
            sentences.append(f"Ablations show that {methods.pick(rng)} is essential for {task}.")
        if rng.random() < 0.5:
            sentences.append(f"Code is available at https://github.com/{new_short.lower()}-lab/{new_short.lower()}{i}.")
        elif rng.random() < 0.3:
            sentences.append(f"Project page: https://{new_short.lower()}{i}.github.io/.")
        title = rng.choice([
            f"{new_short}: {new_long} for {task.title()}",
            f"{new_long}: Towards {rng.choice(ADJECTIVES)} {task.title()}",
            f"Rethinking {method} for {task.title()} with {model}",
        ])
        cats = categories.sample(rng, rng.choice([1, 1, 2, 2, 3]))
        record = {
            "id": arxiv_id,
            "arxiv_id": arxiv_id,
            "title": f"{title} ({i})" if rng.random() < 0.02 else title,
            "abstract": " ".join(sentences),
            "year": year,
            "categories": cats,
            "primary_category": cats[0],
            "authors": authors.sample(rng, rng.choice([1, 2, 3, 3, 4, 4, 5, 6, 8])),
        }
        yield record


# -- a gazetteer extractor for this vocabulary -------------------------------------------------

def _lexicon():
    from scholarkg.model import EntityType as T

    entries = [(b, T.BENCHMARK) for b in BENCHMARKS] + [(m, T.MODEL) for m in MODELS]
    entries += [(m, T.METHOD) for m in METHODS] + [(m, T.METRIC) for m in METRICS] + [(t, T.TASK) for t in TASKS]
    return {name.casefold(): (name, kind) for name, kind in entries}


_DEFINED = re.compile(r"((?:[A-Z][\w-]+ ){2}[A-Z][\w-]+) \(([A-Z][A-Z0-9]+)\)")
_RESULT = re.compile(r"On ([\w.-]+), ([\w.-]+) with ([\w./-]+) reaches (\d+\.\d)% ([\w@ -]+?), outperforming")
_ACRONYM = re.compile(r"(?<![\w-])([A-Z][A-Z0-9]{2,})(?![\w-])")
_URL = re.compile(r"https?://[^\s]+[^\s.,;)]")


def extract_many(records: Iterable, nlp=None) -> Iterator:
    """(record, Extraction) for each record, finding this module's vocabulary and acronyms."""
    from scholarkg.model import EntityType, Extraction, Field, Link, LinkKind, Mention, Result, Role

    lexicon = _lexicon()
    names = sorted((re.escape(n) for n, _ in lexicon.values()), key=len, reverse=True)
    known = re.compile(r"(?<![\w-])(" + "|".join(names) + r")(?![\w-])")
    for record in records:
        mentions, results, links = [], [], []
        for field, text in ((Field.TITLE, record.title), (Field.ABSTRACT, record.abstract)):
            defined = {}
            for m in _DEFINED.finditer(text):
                kind = EntityType.BENCHMARK if m.group(1).split()[-1] in KINDS else EntityType.METHOD
                role = Role.INTRODUCES if text[max(0, m.start() - 13): m.start()].strip().endswith(("introduce", "propose")) else Role.MENTIONS
                defined[m.group(2)] = (m.group(1), kind)
                mentions.append(Mention(m.group(1), m.group(1), kind, m.start(1), m.end(1), field, role, 0.9, (m.group(2),)))
            for m in known.finditer(text):
                name, kind = lexicon[m.group(1).casefold()]
                before = text[max(0, m.start() - 25): m.start()]
                role = Role.EVALUATES_ON if "On " in before[-4:] else Role.COMPARES_WITH if "outperforming" in before else Role.USES
                mentions.append(Mention(m.group(1), name, kind, m.start(), m.end(), field, role, 0.8))
            for m in _ACRONYM.finditer(text):
                short = m.group(1)
                if text[m.start() - 1: m.start()] == "(":
                    continue  # the acronym of a definition, already part of that mention
                if short in defined:
                    (label, kind), role = defined[short], Role.MENTIONS
                elif text[max(0, m.start() - 12): m.start()].endswith("evaluate on "):
                    label, kind, role = short, EntityType.BENCHMARK, Role.EVALUATES_ON
                else:
                    continue
                mentions.append(Mention(short, label, kind, m.start(), m.end(), field, role, 0.7))
            if field is Field.ABSTRACT:
                for m in _RESULT.finditer(text):
                    results.append(Result(Decimal(m.group(4)), m.group(0), m.group(3), m.group(1), m.group(5), "%", field, m.start(4), m.end(4), 0.8))
                for m in _URL.finditer(text):
                    kind = LinkKind.CODE if "github.com" in m.group(0) else LinkKind.PROJECT
                    links.append(Link(m.group(0), kind, m.start(), m.end(), field))
        yield record, Extraction(record.id, tuple(mentions), tuple(results), tuple(links), EXTRACTOR_VERSION)


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Write n synthetic ML paper records as JSON lines.")
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for record in generate(args.n, args.seed):
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
