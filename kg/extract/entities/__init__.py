"""Who is mentioned: named entities, unnamed groups, places and what pronouns refer to (``EntityIndex``)."""
