"""How much time kg spends after the spaCy parse, side by side with the parse itself.

    .venv/bin/python benchmarks/extraction_cost.py [FOLDER] [--repeat N]

Parses the articles once per repeat (one process), then times extraction (entities,
coreference, events, roles) and mapping (facts -> triples) on the same Docs. Prints the
figures and the ratio; no thresholds: this machine is shared and noisy.
"""
from __future__ import annotations

import argparse
import statistics
import time

from kg.extract import extract_facts
from kg.model.iris import Minter
from kg.build.jobs import to_graph
from kg.nlp.pipeline import load
from kg.build.pipeline import prepare
from kg.text.sources import Skipped, read_articles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default="seeds")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    articles = [a for a in read_articles([args.folder]) if not isinstance(a, Skipped)]
    prepared = [prepare(a) for a in articles]
    words = sum(len(text.split()) for _, text in prepared)
    nlp = load()
    minter = Minter("https://kg.example.org/")
    parse_t, extract_t, map_t = [], [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        docs = list(nlp.pipe((text for _, text in prepared), batch_size=16))
        t1 = time.perf_counter()
        facts = [extract_facts(doc, art) for doc, (art, _) in zip(docs, prepared)]
        t2 = time.perf_counter()
        for f in facts:
            to_graph(f, minter)
        t3 = time.perf_counter()
        parse_t.append(t1 - t0)
        extract_t.append(t2 - t1)
        map_t.append(t3 - t2)
    p, e, m = (statistics.median(x) for x in (parse_t, extract_t, map_t))
    print(f"articles: {len(articles)}, words: {words}, repeats: {args.repeat} (medians, one process)")
    print(f"spaCy parse        {p * 1000:8.1f} ms  ({words / p:,.0f} words/s)")
    print(f"extraction         {e * 1000:8.1f} ms  ({e / p:.1%} of the parse)")
    print(f"mapping to triples {m * 1000:8.1f} ms  ({m / p:.1%} of the parse)")
    print(f"after the parse    {(e + m) * 1000:8.1f} ms  ({(e + m) / p:.1%} of the parse)")


if __name__ == "__main__":
    main()
