"""Facts as RDF: the canned SPARQL queries (``queries/*.rq``, package data)."""
