"""kg entities and kg show, and the curation commands: merge, split, rename, retype, never-merge."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .. import api
from ..config import load_settings
from ..errors import KgError, UsageError
from .app import StoreOpt, _cell, _fail, _json_out, app, err, out, safe

CurationOpt = typer.Option(None, "--curation", help="curation file (default ./curation.toml, or KG_CURATION, "
                                                    "or tool.kg.curation in pyproject.toml)")


NoteOpt = typer.Option(None, "--note", help="why: kept with the decision in the curation file")


@app.command()
def entities(
    etype: Optional[str] = typer.Option(None, "--type", "-t", help="only this type: Person, Organization, Place, Group"),
    search: Optional[str] = typer.Option(None, "--search", "-s", help="only entities with a name containing this"),
    fmt: str = typer.Option("table", "--format", "-f", help="table or json"),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="at most this many (most mentioned first)"),
    store: Optional[str] = StoreOpt,
) -> None:
    """List entities after resolution: label, type, other names, mentions and articles."""
    import json

    from ..resolve.curation import to_ref

    try:
        if fmt not in ("table", "json"):
            raise UsageError(f"unknown format {fmt!r}; choose table or json")
        found = api.entities(store, type=etype, search=search, limit=limit)
        base = load_settings(store=store).base
    except KgError as e:
        _fail(e)
        return
    if fmt == "json":
        sys.stdout.write(_json_out(json.dumps([
            {"iri": c.canonical, "label": c.label, "type": c.type, "aliases": c.aliases, "mentions": c.mentions,
             "articles": len(c.counts), "members": c.members, "sameAs": c.external} for c in found],
            ensure_ascii=False, indent=1)) + "\n")
        return
    table = Table("entity", "type", "mentions", "articles", "also called")
    table.add_column("IRI", overflow="fold")
    for c in found:
        table.add_row(_cell(c.label), _cell(c.type), str(c.mentions), str(len(c.counts)), _cell("; ".join(c.aliases)),
                      _cell(to_ref(c.canonical, base)))
    out.print(table)
    err.print(f"{len(found)} entit{'y' if len(found) == 1 else 'ies'}", highlight=False)


@app.command()
def show(
    entity: str = typer.Argument(..., help="a label, alias, IRI or type/slug (person/halvard-moen)"),
    fmt: str = typer.Option("text", "--format", "-f", help="text or json"),
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """One entity: its names, IRIs, articles, and every event and role it takes part in (an event with
    its time and place, a role with its years), with the sentences."""
    import json

    from ..resolve.curation import to_ref

    try:
        if fmt not in ("text", "json"):
            raise UsageError(f"unknown format {fmt!r}; choose text or json")
        shown = api.show(entity, store, curation=curation)
    except KgError as e:
        _fail(e)
        return
    cl, facts, why, article_ids, base = shown.cluster, shown.facts, shown.why, shown.article_ids, shown.base
    if fmt == "json":
        sys.stdout.write(_json_out(json.dumps({
            "iri": cl.canonical, "label": cl.label, "type": cl.type, "aliases": cl.aliases, "sameAs": cl.external,
            "members": [{"iri": m, "rule": why.get(m, "")} for m in cl.members],
            "mentions": {article_ids.get(a, a): n for a, n in cl.counts.items()},
            "facts": [{"kind": f.kind, "as": f.role, "fact": f.text, "sentence": f.sentence, "article": f.article,
                       "iri": f.iri, "flags": f.flags, "when": f.when, "where": f.where} for f in facts]},
            ensure_ascii=False, indent=1)) + "\n")
        return

    def say(text: str = "") -> None:
        out.print(safe(text), markup=False, highlight=False, soft_wrap=True)

    say(f"{cl.label} ({cl.type})  {cl.canonical}")
    if cl.aliases:
        say(f"  also called: {'; '.join(cl.aliases)}")
    if len(cl.members) > 1:
        say("  IRIs: " + "; ".join(to_ref(m, base) + (f" ({why[m]})" if m in why and m != cl.canonical else "")
                                   for m in cl.members))
    for ext in cl.external:
        say(f"  same as: {ext}")
    say("  mentioned in: " + "; ".join(f"{article_ids.get(a, a)} ({n})" for a, n in cl.counts.items()))
    titles = {"actor": "events as actor", "target": "events as target", "reporter": "events it reported",
              "member": "roles", "organization": "members (as organization)"}
    for role, title in titles.items():
        mine = [f for f in facts if f.role == role]
        if not mine:
            continue
        say()
        say(f"{title} ({len(mine)})")
        for f in mine:
            context = "".join(f" ({part})" for part in (f.when, f"in {f.where}" if f.where else "") if part)
            say(f"  {f.text}{context}  [{f.article}{', ' + f.flags if f.flags else ''}]")
            if f.sentence:
                say(f"    \u201c{' '.join(f.sentence.split())}\u201d")
    if not facts:
        say()
        say("no events or roles")


def _curate(command: str, *args: str, store: Optional[str], curation: Optional[Path], **options: Optional[str]) -> None:
    from ..resolve.curate import curate

    try:
        settings = load_settings(store=store)
        said, path = curate(command, settings.store, settings.base, *args, curation_file=curation, **options)
    except KgError as e:
        _fail(e)
        return
    for line in said:
        err.print(f"kg: {safe(line)}", markup=False, highlight=False)
    if path is None:
        err.print("kg: nothing changed", highlight=False)
    else:
        err.print(f"kg: wrote {path}; the store's resolution graph is updated (kg view / kg export to refresh files)",
                  markup=False, highlight=False)


@app.command()
def merge(
    a: str = typer.Argument(..., help="one entity: label, alias, IRI or type/slug"),
    b: str = typer.Argument(..., help="the other entity (of the same type)"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Record that two entities are one (a merge entry in curation.toml) and apply it to the store."""
    _curate("merge", a, b, store=store, curation=curation, note=note)


@app.command()
def split(
    entity: str = typer.Argument(..., help="the IRI (or type/slug) to split off its entity, or a label with --article"),
    article: Optional[str] = typer.Option(None, "--article", help="split off the IRIs this article mentions (id or IRI)"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Take an IRI out of its entity: no automatic rule joins it to anything (a split entry)."""
    _curate("split", entity, store=store, curation=curation, article=article, note=note)


@app.command()
def rename(
    entity: str = typer.Argument(..., help="the entity: label, alias, IRI or type/slug"),
    label: str = typer.Argument(..., help="its new label"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Give an entity another label (a rename entry); its IRIs do not change."""
    _curate("rename", entity, label, store=store, curation=curation, note=note)


@app.command()
def retype(
    entity: str = typer.Argument(..., help="the entity: label, alias, IRI or type/slug"),
    etype: str = typer.Argument(..., metavar="TYPE", help="Person, Organization or Place"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Correct an entity's type (a retype entry); it then merges with entities of that type by the rules."""
    _curate("retype", entity, etype, store=store, curation=curation, note=note)


@app.command(name="never-merge")
def never_merge(
    a: str = typer.Argument(..., help="one entity: label, alias, IRI or type/slug"),
    b: str = typer.Argument(..., help="the other"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Record that two entities are different, whatever the rules say (a never_merge entry)."""
    _curate("never_merge", a, b, store=store, curation=curation, note=note)
