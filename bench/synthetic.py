"""A generator of realistic synthetic publication records, for benchmarks and load tests.

``generate(n, seed)`` yields ``n`` dicts with ``id``, ``title``, ``abstract``, ``year``,
``categories`` and ``authors`` (the JSON-lines reader's layout). Abstracts read like machine
learning abstracts of usual length (about 150-250 words): background, a problem statement, a
proposed method with an acronym, the models and benchmarks used, scores with percentages, an
analysis, sometimes a code URL. The same ``(n, seed)`` always
gives the same records.

    python bench/synthetic.py 1000 --seed 7 > synthetic.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

__all__ = ["generate"]

_ADJ = ["Scalable", "Efficient", "Robust", "Adaptive", "Hierarchical", "Sparse", "Contrastive", "Causal",
        "Multimodal", "Federated", "Self-Supervised", "Retrieval-Augmented", "Lightweight", "Unified"]
_NOUN = ["Attention", "Graph", "Policy", "Memory", "Reasoning", "Retrieval", "Alignment", "Distillation",
         "Routing", "Planning", "Tokenization", "Calibration", "Exploration", "Compression"]
_HEAD = ["Networks", "Transformers", "Learning", "Optimization", "Search", "Agents", "Decoding", "Pretraining"]
_TASKS = ["machine translation", "semantic segmentation", "question answering", "image classification",
          "object detection", "text summarization", "code generation", "mathematical reasoning",
          "speech recognition", "named entity recognition", "link prediction", "visual question answering",
          "long-context modeling", "dialogue generation", "depth estimation", "web navigation"]
_MODELS = ["BERT", "RoBERTa", "T5", "GPT-2", "Llama 3-8B", "Qwen 2.5-7B", "Mistral 7B", "ResNet-50",
           "ViT-B/16", "CLIP", "LSTM", "Transformer-XL", "DeBERTa", "Gemma 2-9B", "Phi-3-mini"]
_METHODS = ["reinforcement learning", "supervised fine-tuning", "knowledge distillation", "contrastive learning",
            "in-context learning", "beam search", "low-rank adaptation", "data augmentation", "dropout",
            "mixture of experts", "chain-of-thought prompting", "GRPO", "PPO", "DPO", "curriculum learning"]
_BENCHMARKS = ["GLUE", "SuperGLUE", "SQuAD", "ImageNet", "COCO", "Cityscapes", "WMT14", "MMLU", "GSM8K",
               "HumanEval", "BrowseComp", "GAIA", "LongBench", "CIFAR-10", "HotpotQA", "Natural Questions"]
_METRICS = ["accuracy", "F1", "BLEU", "mIoU", "exact match", "Pass@1", "top-1 accuracy", "ROUGE-L", "mAP"]
_CATS = ["cs.CL", "cs.LG", "cs.CV", "cs.AI", "cs.IR", "stat.ML", "cs.RO", "cs.SE"]
_GIVEN = ["Ana", "Wei", "Lukas", "Priya", "Omar", "Sofia", "Kenji", "Maria", "David", "Ling", "Amara", "Jonas"]
_FAMILY = ["Chen", "Garcia", "Müller", "Patel", "Kim", "Rossi", "Nguyen", "Okafor", "Silva", "Novak", "Sato"]

_TOPICS = ["long documents", "noisy labels", "distribution shift", "sparse rewards", "multilingual text",
           "high-resolution images", "user queries", "scientific articles", "source code", "medical records",
           "sensor streams", "dialogue histories", "knowledge graphs", "video frames", "speech signals",
           "tabular records", "web pages", "mathematical proofs", "robot trajectories", "protein sequences"]
_PROPERTIES = ["robustness", "sample efficiency", "interpretability", "calibration", "fairness", "latency",
               "memory footprint", "generalization", "faithfulness", "stability", "scalability", "privacy"]
_VERBS = ["degrades", "limits", "complicates", "undermines", "constrains", "obscures", "slows down"]
_BACKGROUND = [
    "Modern systems for {task} are trained on {topic}, which makes {prop} a central concern.",
    "A growing body of work studies how {prop} {verb} progress on {task}.",
    "In practice, {topic} are abundant while annotations remain scarce and expensive to collect.",
    "Most existing pipelines treat {task} and {task2} separately, ignoring their shared structure.",
    "This gap matters because {prop} directly {verb} deployment in real-world settings.",
    "Prior studies report that {prop} depends strongly on the quality of {topic}.",
]
_ANALYSIS = [
    "Ablation studies confirm that each component contributes to the final {prop}.",
    "We also find that gains are largest on {topic}, where baselines struggle most.",
    "A detailed error analysis reveals that remaining failures concern rare cases in {topic}.",
    "Human evaluation further shows improvements in {prop} over strong baselines.",
    "The method adds little computational overhead and scales to {topic} with millions of items.",
]
_OPENERS = [
    "{task_cap} remains challenging because existing approaches rely on expensive supervision.",
    "Recent {model} models have improved {task}, yet they scale poorly to long inputs.",
    "Despite rapid progress, {task} systems still fail on out-of-distribution inputs.",
    "Large language models are increasingly used for {task}, but their behaviour is poorly understood.",
]
_PROPOSALS = [
    "In this work, we propose {name} ({acro}), a {adj_low} framework that combines {method} with {method2}.",
    "We introduce {name} ({acro}), a method for {task} built on {method}.",
    "To address this, we present {acro}, a {adj_low} approach that uses {method} to guide {method2}.",
]
_DETAILS = [
    "{acro} is trained with {method} on top of {model} and requires no additional annotation.",
    "Unlike prior methods such as {model2}, {acro} keeps the backbone frozen.",
    "We further analyse the effect of {method2} and show that it reduces training cost.",
    "Our analysis covers {k} ablations across {k2} model sizes.",
]
_RESULTS = [
    "{acro} achieves {v1}% {metric} on {bench}, outperforming {model2} by {d} points.",
    "Experiments on {bench} and {bench2} show that {acro} reaches {bench} ({v1}\\%) and {bench2} ({v2}\\%).",
    "On {bench}, our model obtains {v1} {metric}, versus {v2} for {model2}.",
]
_CLOSERS = [
    "Code is available at https://github.com/{user}/{repo}.",
    "Project page: https://{user}.github.io/{repo}/.",
    "We release our models and data to support future research.",
    "These results suggest that {method} is a promising direction for {task}.",
]


def _acronym(words: list[str]) -> str:
    return "".join(w[0] for w in words if w[:1].isalpha()).upper()


def generate(n: int, seed: int = 0) -> Iterator[dict]:
    """Yield ``n`` synthetic records; deterministic for a given ``seed``."""
    rng = random.Random(seed)
    for i in range(n):
        words = [rng.choice(_ADJ), rng.choice(_NOUN), rng.choice(_HEAD)]
        name = " ".join(words)
        acro = _acronym(words) + rng.choice(["", "", "-2", "Net", "++"])
        task = rng.choice(_TASKS)
        benches = rng.sample(_BENCHMARKS, 2)
        fill = {
            "task2": rng.choice(_TASKS), "topic": rng.choice(_TOPICS), "prop": rng.choice(_PROPERTIES),
            "verb": rng.choice(_VERBS),
            "name": name, "acro": acro, "task": task, "task_cap": task[:1].upper() + task[1:],
            "adj_low": rng.choice(_ADJ).lower(), "method": rng.choice(_METHODS), "method2": rng.choice(_METHODS),
            "model": rng.choice(_MODELS), "model2": rng.choice(_MODELS), "bench": benches[0],
            "bench2": benches[1], "metric": rng.choice(_METRICS),
            "v1": f"{rng.uniform(20, 95):.1f}", "v2": f"{rng.uniform(20, 95):.1f}", "d": f"{rng.uniform(0.5, 9):.1f}",
            "k": rng.randint(3, 12), "k2": rng.randint(2, 5), "user": rng.choice(["lab-x", "nlp-group", "vision-ai"]),
            "repo": acro.lower().replace("+", "p"),
        }
        sentences = rng.sample(_BACKGROUND, rng.randint(2, 4)) + [rng.choice(_OPENERS), rng.choice(_PROPOSALS)]
        sentences += rng.sample(_DETAILS, rng.randint(2, 4))
        sentences += rng.sample(_RESULTS, rng.randint(1, 2))
        sentences += rng.sample(_ANALYSIS, rng.randint(1, 3))
        if rng.random() < 0.6:
            sentences.append(rng.choice(_CLOSERS))
        abstract = " ".join(s.format(**fill) for s in sentences)
        title = rng.choice([f"{acro}: {name} for {task[:1].upper() + task[1:]}", f"{name} for {task}",
                            f"Towards {rng.choice(_ADJ)} {task[:1].upper() + task[1:]}"])
        cats = rng.sample(_CATS, rng.randint(1, 3))
        authors = [f"{rng.choice(_GIVEN)} {rng.choice(_FAMILY)}" for _ in range(rng.randint(1, 6))]
        yield {"id": f"synth-{seed}-{i:06d}", "title": title, "abstract": abstract,
               "year": rng.randint(2015, 2026), "categories": cats, "authors": authors}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write synthetic records as JSON lines to stdout.")
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for record in generate(args.n, args.seed):
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
