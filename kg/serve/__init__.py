"""kg serve: the SPARQL 1.1 Protocol endpoint, its guard, its query workers, its pages."""
