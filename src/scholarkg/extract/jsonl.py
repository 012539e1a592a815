"""Placeholder extractor (regular expressions) until the spaCy pipeline lands."""
def extraction_record(r, e, linker): return {"id": r.id, "title": r.title, "entities": [{"text": m.text, "label": m.label, "type": m.type.value} for m in e.mentions]}
