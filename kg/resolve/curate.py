"""The curation commands: kg merge / split / rename / retype / never-merge.

Each takes the curation file (``kg.resolve.curation``), the current resolution (``kg.resolve``) and the
command's arguments, edits the curation (never the store) and returns what it did, one line per
change. ``curate`` runs one: it opens the store, edits and saves the file, then rewrites the
resolution graph.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..errors import UsageError
from ..store import opened
from .curation import RETYPES, Curation, Entry, curation_path, dumps, load, locked, save, to_iri, to_ref
from .data import load_data
from .graph import update_resolution
from .linking import linking_path, load_links
from .lookup import find_cluster
from .rules import Cluster, Resolution, compute


def _real(cluster: Cluster) -> str:
    """An IRI of the cluster that some article holds (the canonical one unless a retype minted it)."""
    if not cluster.minted:
        return cluster.canonical
    return next(m for m in cluster.members if m != cluster.canonical)


def _refs(entry: Entry, base: str) -> set[str]:
    return {to_iri(str(r), base) for r in entry.entities}


def cmd_merge(cur: Curation, res: Resolution, a: str, b: str, base: str,
              note: str | None = None) -> list[str]:
    (ca, _), (cb, _) = find_cluster(res, a, base), find_cluster(res, b, base)
    if ca is cb:
        return [f"{a} and {b} are already one entity, {ca.label} ({to_ref(ca.canonical, base)})"]
    if ca.type != cb.type:
        raise UsageError(f"{ca.label} is a {ca.type} and {cb.label} a {cb.type}: different types never merge; "
                         f"retype one first (kg retype)")
    if "Group" in (ca.type,):
        raise UsageError("groups are local to their article and are not merged")
    said = []
    side_a, side_b = set(ca.members), set(cb.members)
    gone = [e for e in cur.of("never_merge") if _refs(e, base) & side_a and _refs(e, base) & side_b]
    if gone:
        cur.remove(gone)
        said.append(f"removed {len(gone)} never-merge decision(s) between them")
    cur.add("merge", entities=[to_ref(_real(ca), base), to_ref(_real(cb), base)], note=note)
    return [f"merged {cb.label} into {ca.label}", *said]


def cmd_never_merge(cur: Curation, res: Resolution, a: str, b: str, base: str,
                    note: str | None = None) -> list[str]:
    (ca, ia), (cb, ib) = find_cluster(res, a, base), find_cluster(res, b, base)
    if ca is cb and (ia is None or ib is None or ia == ib):
        raise UsageError(f"{a!r} and {b!r} both name {ca.label}; give the IRIs of the two to keep apart "
                         f"(kg show {ca.label!r} lists them)")
    left = ia if ia is not None and ca is cb else _real(ca)
    right = ib if ib is not None and ca is cb else _real(cb)
    side_a = {ia} if ca is cb and ia else set(ca.members)
    side_b = {ib} if ca is cb and ib else set(cb.members)
    said = []
    gone = [e for e in cur.of("merge") if _refs(e, base) & side_a and _refs(e, base) & side_b]
    if gone:
        cur.remove(gone)
        said.append(f"removed {len(gone)} merge decision(s) between them")
    cur.add("never_merge", entities=[to_ref(left, base), to_ref(right, base)], note=note)
    return [f"{to_ref(left, base)} and {to_ref(right, base)} will never be merged", *said]


def cmd_split(cur: Curation, res: Resolution, entity: str, base: str, article: str | None = None,
              note: str | None = None) -> list[str]:
    cl, member = find_cluster(res, entity, base)
    real = [m for m in cl.members if res.data is None or (m in res.data.entities)]
    if article is not None:
        arts = [a for a, i in res.article_ids.items() if article in (a, i)]
        if not arts:
            raise UsageError(f"no article {article!r} in the store (give its id or IRI)")
        data = res.data
        targets = [m for m in real if data is not None and data.entities[m].articles & set(arts)]
        if not targets:
            raise UsageError(f"{cl.label} is not mentioned in {article}")
        if len(targets) == len(real):
            raise UsageError(f"every IRI of {cl.label} is mentioned in {article}, so there is nothing to split off: "
                             f"an IRI is one node in every article that names it (see docs/resolution.md)")
    elif member is not None:
        targets = [member]
    elif len(cl.members) == 1:
        raise UsageError(f"{cl.label} is a single IRI ({to_ref(cl.canonical, base)}); there is nothing to split")
    else:
        listed = ", ".join(to_ref(m, base) for m in cl.members)
        raise UsageError(f"{cl.label} has {len(cl.members)} IRIs ({listed}): name the one to split off, "
                         f"or give --article")
    said = []
    for t in targets:
        if res.data is not None and t not in res.data.entities:
            raise UsageError(f"{to_ref(t, base)} was minted by a retype; undo the retype instead (kg retype)")
        gone = [e for e in cur.of("merge") if t in _refs(e, base)]
        if gone:
            cur.remove(gone)
            said.append(f"removed {len(gone)} merge decision(s) naming {to_ref(t, base)}")
        cur.add("split", entity=to_ref(t, base), note=note)
        said.insert(0, f"split {to_ref(t, base)} off {cl.label}")
        if article is not None and res.data is not None and len(res.data.entities[t].articles) > 1:
            said.append(f"note: {to_ref(t, base)} is also mentioned in other articles; the split holds there too")
    return said


def cmd_rename(cur: Curation, res: Resolution, entity: str, label: str, base: str,
               note: str | None = None) -> list[str]:
    if not label.strip():
        raise UsageError("the new label is empty")
    cl, _ = find_cluster(res, entity, base)
    members = set(cl.members)
    cur.remove([e for e in cur.of("rename") if _refs(e, base) & members])
    cur.add("rename", entity=to_ref(_real(cl), base), label=" ".join(label.split()), note=note)
    return [f"renamed {cl.label} to {' '.join(label.split())}"]


def cmd_retype(cur: Curation, res: Resolution, entity: str, etype: str, base: str,
               note: str | None = None) -> list[str]:
    wanted = {t.casefold(): t for t in RETYPES}.get(etype.strip().casefold())
    if wanted is None:
        raise UsageError(f"type must be one of {', '.join(RETYPES)}, not {etype!r}")
    cl, _ = find_cluster(res, entity, base)
    if cl.type == "Group":
        raise UsageError(f"{cl.label} is a group, local to its article; groups are not retyped")
    if cl.type == wanted:
        return [f"{cl.label} is already a {wanted}"]
    data = res.data
    members = [m for m in cl.members if data is None or m in data.entities]
    cur.remove([e for e in cur.of("retype") if _refs(e, base) & set(members)])
    for m in members:
        if data is None or data.entities[m].stored_type != wanted:
            cur.add("retype", entity=to_ref(m, base), type=wanted, note=note)
    return [f"retyped {cl.label} to {wanted}"]


COMMANDS: dict[str, Callable[..., list[str]]] = {
    "merge": cmd_merge, "never_merge": cmd_never_merge, "split": cmd_split, "rename": cmd_rename, "retype": cmd_retype}


def curate(command: str, store_location: str, base: str, *args: str, curation_file: Path | str | None = None,
           **options: str | None) -> tuple[list[str], Path | None]:
    """Run one curation command: edit the curation file and rewrite the store's resolution graph.

    Returns what changed (one line each) and the file written (None if nothing changed).
    """
    path = curation_path(curation_file)
    with opened(store_location) as store:  # fails at once if another kg process holds the store
        with locked(path):  # from reading the file to writing it: no other command's decision is lost
            cur = load(path)
            links = load_links(linking_path(cur.linking_path()))
            res = compute(load_data(store), cur, links, base)
            if not res.clusters:
                raise UsageError(f"the store {store_location} holds no entities; build some articles first "
                                 "(kg build)")
            said = COMMANDS[command](cur, res, *args, base, **options)
            if dumps(cur) == dumps(load(path)):  # nothing changed: no file written (nor an empty one made)
                return said, None
            save(cur, path)
        after = update_resolution(store, base, curation=cur)
        said += [f"note: {n}" for n in (after.notes if after is not None else [])]
    return said, path
