"""Facts as RDF: the mapping of one article's facts to its named graph, running SPARQL, and the canned queries (queries/*.rq, package data)."""
