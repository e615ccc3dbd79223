"""Building: the only place that knows the order of the stages (text, parse, extract, map, store, resolve, outputs), its jobs and workers."""
