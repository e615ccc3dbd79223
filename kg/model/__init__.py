"""The data kg passes between stages: fact dataclasses, the ontology's terms, IRIs, CAMEO classes, name keys (no spaCy, no rdflib objects in the facts)."""
