"""Reading the parse: token columns, clause arguments, passives and a sentence as evidence (no facts)."""
