"""Events read from clauses and nouns: who did what to whom (``EventReader``)."""
