"""Loading the spaCy pipeline kg uses, with its own components (paragraphs, NER repairs)."""
