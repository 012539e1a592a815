"""Word lists that tell what kind of thing a name is, from the words around it.

"KAIROS, a benchmark that ...", "the CHAIN benchmark", "a model named AgentFounder",
"HarnessDev: ..." - the head noun next to a name is the best evidence of its type. These
lists were written for the project from general knowledge of how papers describe things.
"""

from __future__ import annotations

from functools import lru_cache

from ..model import EntityType
from .names import singular

__all__ = [
    "LIST_JOINS",
    "HEAD_TYPES",
    "NAME_SUFFIX_TYPES",
    "head_type",
    "suffix_type",
    "NOT_NAMES",
    "FUNCTION_WORDS",
]

B, D, MO, ME, T, MT = (
    EntityType.BENCHMARK,
    EntityType.DATASET,
    EntityType.MODEL,
    EntityType.METHOD,
    EntityType.TASK,
    EntityType.METRIC,
)

# What joins the names of a list: "A, B and C", "A or B", "A/B".
LIST_JOINS = frozenset({",", "and", "or", "/"})
# Singular, lower-case head nouns.
HEAD_TYPES: dict[str, EntityType] = {
    **dict.fromkeys(
        "benchmark leaderboard testbed test-bed exam suite arena challenge gym environment "
        "playground evaluation".split(), B),
    **dict.fromkeys("""dataset corpus treebank collection data-set database lexicon cohort registry biobank survey
        catalogue catalog census""".split(), D),
    **dict.fromkeys(
        "model llm vlm mllm network net agent encoder decoder autoencoder auto-encoder transformer classifier "
        "detector tagger parser generator discriminator policy checkpoint reader planner solver "
        "retriever reranker ranker summarizer summariser translator recognizer segmenter captioner "
        "assistant chatbot surrogate".split(), MO),
    **dict.fromkeys(
        "method approach algorithm framework technique architecture mechanism strategy "
        "pipeline protocol workflow paradigm objective loss procedure scheme optimizer "
        "module system regularizer regularization estimator recipe attack defense tool "
        "toolkit library platform heuristic formulation layer operator search "
        "optimization learning training tuning distillation prompting decoding "
        "sampling alignment sequencing assay microscopy spectroscopy tomography chromatography "
        "cytometry magnetometry interferometry simulation fuzzer compiler checker analyzer analyser debugger "
        "profiler simulator emulator scheduler interpreter diffraction".split(), ME),
    **dict.fromkeys("metric measure score criterion indicator".split(), MT),
    **dict.fromkeys("task problem".split(), T),
    # "AdaMax, a variant of Adam": variants and extensions are usually of methods
    **dict.fromkeys("variant extension version generalization generalisation modification".split(), ME),
}

# Endings of coined names ("EdgeBench", "WebWalkerQA", "ResNet", "Trust-Score").
NAME_SUFFIX_TYPES: tuple[tuple[str, EntityType], ...] = (
    ("bench", B), ("Bench", B), ("Eval", B), ("eval", B), ("QA", B), ("Arena", B),
    ("Exam", B), ("Gym", B), ("World", B), ("Test", B), ("Suite", B), ("Hub", D),
    ("Set", D), ("Corpus", D), ("Data", D), ("DB", D), ("Instruct", D), ("bank", D), ("Bank", D),
    ("Net", MO), ("Former", MO), ("former", MO), ("BERT", MO), ("GPT", MO), ("LM", MO),
    ("LLM", MO), ("VLM", MO), ("Coder", MO), ("Agent", MO), ("Founder", MO),
    ("Score", MT), ("score", MT), ("@1", MT), ("@k", MT), ("@K", MT), ("BLEU", MT), ("ROUGE", MT),
    ("Loop", ME), ("Align", ME), ("PO", ME), ("RL", ME), ("Search", ME), ("Distill", ME),
    ("Prompt", ME), ("Tune", ME), ("Attention", ME), ("Attn", ME),
)

NOT_NAMES = frozenset(
    """AI GPU GPUs CPU CPUs TPU TPUs USD US USA UK EU API APIs URL URLs PDF ID IDs OK II III IV
    VI VII VIII IX XI XII ML DL CV IoT SOTA SoTA FLOPs FLOP FLOPS TFLOPS GFLOPs GFLOPS MFLOPs TFLOPs PFLOPs
    MACs GMACs GB MB KB TB GHz MHz
    HTML JSON XML SQL CSV HTTP PhD MSc BSc Q&A IQ TV PC DNA RNA MRI CT ECG EEG COVID-19 COVID
    eV keV MeV GeV TeV PeV kpc Mpc Gpc
    AM PM UTC GMT N.B. NB I/O IO OS iOS macOS Linux Windows Android GitHub Python PyTorch
    TensorFlow JAX Keras CUDA Java C++ English Chinese German French Japanese Spanish Korean
    Arabic Russian Hindi Wikipedia-based SOC O*NET GDP ReLU Softmax A/B AND OR NOT IF
    LaTeX TeX Internet Web X Y Z O(n) O(1) S&P A100 V100 P100 H100 H200 B200 K80 T4 L4 A10 A40 A6000
    RTX""".split()
)

FUNCTION_WORDS = frozenset(
    """a an the this that these those our we us their its his her my your it they them he she
    i you and or but nor of in on at to for from by with without into onto over under via as
    is are was were be been being has have had do does did can could may might must shall
    should will would not no yes such than then there here which who whom whose what when
    where why how all any each every some most more less many much few both either neither
    also only just very so thus hence however moreover furthermore finally first second
    third new novel existing previous prior recent current state-of-the-art through throughout
    during before after upon about against along around behind beyond despite except inside
    outside since toward towards until unlike while whereas if because although though
    whether either neither once whilst amongst besides between among per versus vs vs. via than
    across within without into onto upon off out up down near beside beneath wherein whereby thereby
    therein and/or""".split()
)


def head_type(word: str) -> EntityType | None:
    """Type named by a head noun: ``"benchmarks"`` -> Benchmark, ``"framework"`` -> Method."""
    return HEAD_TYPES.get(singular(word)) or HEAD_TYPES.get(word.lower())


@lru_cache(maxsize=65536)
def suffix_type(name: str) -> EntityType | None:
    """Type suggested by how a coined name ends: ``"EdgeBench"`` -> Benchmark."""
    core = name.rstrip("s") if name.endswith("s") and name[:-1].isupper() else name
    if "@" in core and core.rsplit("@", 1)[1].isdigit() and core[0].isalpha():
        return MT  # a measure at a cut-off: "Recall@20", "Acc@5"
    core = core.split("-")[0] if core.split("-")[-1].replace(".", "").isdigit() else core
    for suffix, type_ in NAME_SUFFIX_TYPES:
        if core.endswith(suffix) and len(core) > len(suffix):
            return type_
    return None
