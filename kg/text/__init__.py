"""Articles in: files, folders, JSON lines and standard input as Article objects (no spaCy)."""
