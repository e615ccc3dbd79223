"""Entity resolution across articles: names, the rules, the resolution graph, and curation by hand."""
