"""The graphs a build makes of three inputs, kept and compared: a change that should keep every graph the same
(a restructuring) is checked by a snapshot before and a comparison after; and the CoNLL04 scores.

    python benchmarks/graphs.py snapshot DIR        # build the dev set, the seeds and CoNLL04; keep their N-Quads
    python benchmarks/graphs.py compare DIR [--ignore PRED ...]   # build again; print what differs (exit 1 if any)
    python benchmarks/graphs.py conll04             # Kill and Work_For precision / recall / F1 on CoNLL04

The dev set and CoNLL04 are read from the workspace's shared data (``../shared/eval`` or ``KG_SHARED``) at
run time: CoNLL04 is research-use-only, so its sentences are written to a temporary folder, never into the
project. Each CoNLL04 sentence is an article of its own.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KG = str(Path(sys.executable).with_name("kg"))
RULE = "<https://w3id.org/kg-news/ns#rule>"

#: Verbs whose event is a killing (CoNLL04's Kill relation).
KILL_VERBS = ("kill", "murder", "assassinate", "shoot", "slay", "execute", "stab", "strangle", "behead",
              "gun down", "shoot down", "poison", "lynch", "massacre", "slaughter")


def shared() -> Path:
    """The workspace's shared data folder."""
    env = os.environ.get("KG_SHARED")
    path = Path(env) if env else ROOT.parent / "shared"
    if not (path / "eval").is_dir():
        sys.exit(f"no shared data at {path}: set KG_SHARED to the folder that holds eval/")
    return path


def detokenize(tokens: list[str]) -> str:
    """A CoNLL04 sentence as running text: no space before closing punctuation or after opening."""
    text = " ".join(tokens).replace("-LRB-", "(").replace("-RRB-", ")").replace("COMMA", ",")
    text = re.sub(r" ([,.;:!?%)\]'])", r"\1", text)
    text = re.sub(r"([(\[$]) ", r"\1", text)
    text = re.sub(r" (n't|'s|'re|'ve|'ll|'d)\b", r"\1", text)
    return text.replace("``", '"').replace("''", '"')


def conll04_articles(folder: Path) -> list[dict]:
    """Write each CoNLL04 test sentence to ``folder`` as ``cNNNN.txt``; return the items with their file stem."""
    items = json.loads((shared() / "eval" / "conll04" / "conll04_test.json").read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    for i, item in enumerate(items):
        item["stem"] = f"c{i:04d}"
        (folder / f"{item['stem']}.txt").write_text(detokenize(item["tokens"]) + "\n", encoding="utf-8")
    return items


def build(inputs: Path, work: Path) -> Path:
    """Build ``inputs`` into a new store under ``work``; return the store."""
    store = work / "store"
    subprocess.run([KG, "build", str(inputs), "--store", str(store)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return store


def nquads(store: Path, work: Path) -> list[str]:
    """The store's N-Quads, sorted, with the temporary folder's path (in sources' paths) written as WORK."""
    out = subprocess.run([KG, "export", "--format", "nquads", "--store", str(store)], check=True,
                         capture_output=True, text=True).stdout
    return sorted(line.replace(str(work), "WORK") for line in out.splitlines() if line.strip())


def graphs(work: Path) -> dict[str, list[str]]:
    """The sorted N-Quads of the dev set, the seeds and CoNLL04."""
    eval_dir = shared() / "eval"
    conll = work / "conll04-articles"
    conll04_articles(conll)
    sources = {"dev": eval_dir / "dev" / "articles", "seeds": ROOT / "seeds", "conll04": conll}
    out = {}
    for name, src in sources.items():
        print(f"building {name} ...", file=sys.stderr)
        out[name] = nquads(build(src, work / name), work)
    return out


def snapshot(target: Path) -> int:
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, lines in graphs(Path(tmp)).items():
            (target / f"{name}.nq").write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"{name}: {len(lines)} quads -> {target / (name + '.nq')}")
    return 0


def _drop(lines: list[str], ignore: list[str]) -> list[str]:
    return [line for line in lines if not any(f" {p} " in line for p in ignore)]


def compare(target: Path, ignore: list[str]) -> int:
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, lines in graphs(Path(tmp)).items():
            before = _drop((target / f"{name}.nq").read_text(encoding="utf-8").splitlines(), ignore)
            now = _drop(lines, ignore)
            gone, new = sorted(set(before) - set(now)), sorted(set(now) - set(before))
            print(f"{name}: {len(before)} quads before, {len(now)} now; {len(gone)} gone, {len(new)} new")
            for line in gone[:5]:
                print(f"  - {line[:220]}")
            for line in new[:5]:
                print(f"  + {line[:220]}")
            differ += len(gone) + len(new)
    return 1 if differ else 0


def _words(text: str) -> str:
    return " " + " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split()) + " "


def _same(label: str | None, gold: str) -> bool:
    """A label names a gold entity when either holds the other as whole words."""
    if not label:
        return False
    a, b = _words(label), _words(gold)
    return a in b or b in a


def _prf(right: int, predicted: int, found: int, gold: int) -> str:
    p = right / predicted if predicted else 0.0
    r = found / gold if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return f"P={p:.3f} R={r:.3f} F1={f:.3f} ({predicted} rows, {gold} gold)"


def conll04() -> int:
    import rdflib

    with tempfile.TemporaryDirectory() as tmp:
        items = conll04_articles(Path(tmp) / "articles")
        store = build(Path(tmp) / "articles", Path(tmp))
        ttl = Path(tmp) / "graph.ttl"
        subprocess.run([KG, "export", "--format", "turtle", "-o", str(ttl), "--store", str(store)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        graph = rdflib.Graph()
        graph.parse(str(ttl))
        events = graph.query((ROOT / "queries" / "events.rq").read_text(encoding="utf-8"))
        roles = graph.query((ROOT / "queries" / "roles.rq").read_text(encoding="utf-8"))
        by_stem: dict[str, dict[str, list]] = {it["stem"]: {"kill": [], "work": []} for it in items}
        for row in events:
            stem = re.search(r"c\d{4}", str(row.article))
            action = str(row.action)
            if stem and row.actor is not None and row.target is not None and any(
                    re.search(rf"\b{v}\b", action) for v in KILL_VERBS):
                by_stem[stem.group()]["kill"].append((str(row.actor), str(row.target)))
        for row in roles:
            stem = re.search(r"c\d{4}", str(row.article))
            if stem:
                by_stem[stem.group()]["work"].append((str(row.person), str(row.org)))
    for kind, rel in (("kill", "Kill"), ("work", "Work_For")):
        right = predicted = found = gold_n = 0
        for it in items:
            ents = [" ".join(it["tokens"][e["start"]:e["end"]]) for e in it["entities"]]
            locs = [ents[i] for i, e in enumerate(it["entities"]) if e["type"] == "Loc"]
            gold = [(ents[r["head"]], ents[r["tail"]]) for r in it["relations"] if r["type"] == rel]
            rows = by_stem[it["stem"]][kind]
            if kind == "work":  # CoNLL04's Work_For is person -> organization: a place is another relation
                rows = [r for r in rows if not any(_same(r[1], loc) and not any(_same(r[1], g[1]) for g in gold)
                                                   for loc in locs)]
            predicted += len(rows)
            right += sum(1 for r in rows if any(_same(r[0], g[0]) and _same(r[1], g[1]) for g in gold))
            gold_n += len(gold)
            found += sum(1 for g in gold if any(_same(r[0], g[0]) and _same(r[1], g[1]) for r in rows))
        print(f"CoNLL04 {rel}: {_prf(right, predicted, found, gold_n)}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("snapshot").add_argument("dir", type=Path)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("dir", type=Path)
    cmp_.add_argument("--ignore", nargs="*", default=[], help="predicates (as <IRI>) left out of the comparison")
    sub.add_parser("conll04")
    args = ap.parse_args()
    if args.cmd == "snapshot":
        return snapshot(args.dir)
    if args.cmd == "compare":
        return compare(args.dir, args.ignore)
    return conll04()


if __name__ == "__main__":
    sys.exit(main())
