"""Placeholder extractor (regular expressions) until the spaCy pipeline lands."""
from .model import *
from .graph.iri import normalise_key
class Linker:
    def __init__(self): self.e={}
    def add(self, ex):
        for m in ex.mentions: self.e[normalise_key(m.label)]=Entity(normalise_key(m.label), m.type, m.label)
        for r in ex.results:
            for l,t in ((r.model,EntityType.MODEL),(r.benchmark,EntityType.BENCHMARK)):
                if l: self.e.setdefault(normalise_key(l), Entity(normalise_key(l), t, l))
    def entities(self): return sorted(self.e.values(), key=lambda e:e.key)
    def resolve(self, label): return self.e.get(normalise_key(label))
