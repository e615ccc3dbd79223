"""Curation as data: the file format, the commands, and decisions that survive a rebuild from scratch."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_resolve_rules import BASE, MINTER, _moen, article, iri, store_of
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import UsageError
from kg.resolve.curate import curate
from kg.resolve.curation import Curation, dumps, load, parse
from kg.resolve.graph import read_clusters, resolve_store, update_resolution
from kg.store import open_store

# --- the file -------------------------------------------------------------------------------

HAND_WRITTEN = '''\
# our decisions
# (reviewed weekly)

# the article misspells it
[[merge]]
entities = ["organization/wrold-bank", "organization/world-bank"]
note = "typo"

[[retype]]
# not an organization
entity = "organization/ostrova-lind"
type = "Person"

[[merge]]
entities = ["a/b", "a/a"]
'''


def test_the_file_is_written_sorted_and_stable_with_comments_kept():
    cur = parse(HAND_WRITTEN)
    text = dumps(cur)
    assert text.startswith("# our decisions\n# (reviewed weekly)\n")
    assert text.index('entities = ["a/a", "a/b"]') < text.index("# the article misspells it") < text.index(
        'entities = ["organization/world-bank", "organization/wrold-bank"]') < text.index(
        "# not an organization") < text.index("[[retype]]")
    assert dumps(parse(text)) == text  # a second write changes nothing
    import tomllib

    data = tomllib.loads(text)
    assert data["retype"] == [{"entity": "organization/ostrova-lind", "type": "Person"}]
    cur.add("merge", entities=["a/b", "a/a"])  # already there: not repeated
    assert dumps(cur) == text


def test_odd_strings_round_trip():
    cur = Curation()
    cur.add("rename", entity="person/x", label='say "hi" \\ \t\u00e9\U0001F642 # not a comment', note="line\nbreak")
    assert parse(dumps(cur)).entries[0].values == cur.entries[0].values


@pytest.mark.parametrize("text, message", [
    ("[[merge]]\nentites = ['a/b', 'a/c']\n", "unknown key 'entites'"),
    ("[[marge]]\nentities = ['a/b', 'a/c']\n", "unknown key or table 'marge'"),
    ("[[merge]]\nentities = ['a/b']\n", "two or more"),
    ("[[retype]]\nentity = 'a/b'\ntype = 'Thing'\n", "type must be one of"),
    ("[[rename]]\nentity = 'a/b'\n", "missing 'label'"),
    ("[[merge]\n", "not valid TOML"),
])
def test_a_bad_file_is_a_one_line_usage_error(text, message):
    with pytest.raises(UsageError, match=message):
        parse(text)


def test_the_path_comes_from_flag_env_then_pyproject(tmp_path, monkeypatch):
    from kg.resolve.curation import curation_path, using

    monkeypatch.delenv("KG_CURATION", raising=False)
    assert curation_path(cwd=tmp_path) == tmp_path / "curation.toml"
    (tmp_path / "pyproject.toml").write_text('[tool.kg]\ncuration = "data/decisions.toml"\n')
    assert curation_path(cwd=tmp_path) == tmp_path / "data" / "decisions.toml"
    monkeypatch.setenv("KG_CURATION", str(tmp_path / "env.toml"))
    assert curation_path(cwd=tmp_path) == tmp_path / "env.toml"
    with using(tmp_path / "flag.toml"):
        assert curation_path(cwd=tmp_path) == tmp_path / "flag.toml"
    assert curation_path("x.toml") == Path("x.toml")


# --- decisions applied ---------------------------------------------------------------------------

WB_A = article("a", "The World Bank criticised it.", [("u", "World Bank", "Organization")])
WB_B = article("b", "The Wrold Bank and United States criticised it.", [("u", "Wrold Bank", "Organization"),
                                                                        ("us", "United States", "Place")])


def test_merge_never_merge_split_rename_retype_are_applied():
    st = store_of(WB_A, WB_B, _moen("k"), article("c", "President Moen of Norway spoke.",
                                                [("k", "Moen", "Person"), ("af", "Norway", "Place")],
                                                roles=[("k", "President", "af")]),
                  article("d", "Ostrova-Lind of the Harbor Herald was detained; Mira Ostrova-Lind left.",
                          [("w", "Ostrova-Lind", "Organization"), ("r", "Mira Ostrova-Lind", "Person")]))
    un, untied = iri("Organization", "World Bank"), iri("Organization", "Wrold Bank")
    moen, halvard = iri("Person", "Moen"), iri("Person", "Halvard Moen")
    wh, mira = iri("Organization", "Ostrova-Lind"), iri("Person", "Mira Ostrova-Lind")

    res = resolve_store(st, BASE, Curation(), [])
    assert res.of[un] is not res.of[untied] and res.of[moen] is res.of[halvard] and res.of[wh] is not res.of[mira]

    cur = Curation()
    cur.add("merge", entities=["organization/world-bank", "organization/wrold-bank"])
    cur.add("never_merge", entities=["person/moen", "person/halvard-moen"])
    cur.add("retype", entity="organization/ostrova-lind", type="Person")
    cur.add("rename", entity="organization/world-bank", label="WB")
    res = resolve_store(st, BASE, cur, [])
    assert res.of[un] is res.of[untied] and res.of[un].label == "WB" and res.of[un].canonical == un
    assert res.of[moen] is not res.of[halvard]
    cl = res.of[wh]  # retyped, it joins the full name by the short-name rule (same article)
    assert cl is res.of[mira] and cl.type == "Person" and cl.canonical == mira
    assert iri("Person", "Ostrova-Lind") in cl.members  # the IRI the right type gives, minted

    cur = Curation()
    cur.add("split", entity="person/moen")
    assert resolve_store(st, BASE, cur, []).of[moen].members == [moen]


def test_merging_different_types_or_across_a_never_merge_is_refused_with_a_note():
    st = store_of(WB_A, WB_B)
    cur = Curation()
    cur.add("merge", entities=["organization/world-bank", "place/united-states"])
    cur.add("merge", entities=["organization/world-bank", "organization/wrold-bank"])
    cur.add("never_merge", entities=["organization/world-bank", "organization/wrold-bank"])
    cur.add("merge", entities=["organization/world-bank", "organization/nobody"])
    res = resolve_store(st, BASE, cur, [])
    assert len(res.of[iri("Organization", "World Bank")].members) == 1
    text = "\n".join(res.notes)
    assert "different types" in text and "never-merge" in text and "organization/nobody (a merge)" in text


def test_the_commands_edit_the_file_and_the_store(tmp_path):
    store_dir, cfile = tmp_path / "store", tmp_path / "curation.toml"
    st = open_store(store_dir)
    try:
        store_of(WB_A, WB_B, _moen("k"), article("c", "President Moen of Norway spoke.",
                                               [("k", "Moen", "Person"), ("af", "Norway", "Place")],
                                               roles=[("k", "President", "af")]), store=st)
        update_resolution(st, MINTER, curation=Curation())
    finally:
        st.close()
    said, path = curate("merge", str(store_dir), BASE, "Wrold Bank", "World Bank", curation_file=cfile, note="typo")
    assert path == cfile and said == ["merged World Bank into Wrold Bank"]
    assert load(cfile).of("merge")[0].values == {"entities": ["organization/world-bank", "organization/wrold-bank"],
                                                 "note": "typo"}
    said, path = curate("merge", str(store_dir), BASE, "Wrold Bank", "World Bank", curation_file=cfile)
    assert path is None and "already one entity" in said[0]
    with pytest.raises(UsageError, match="different types never merge"):
        curate("merge", str(store_dir), BASE, "World Bank", "United States", curation_file=cfile)
    with pytest.raises(UsageError, match="both name Halvard Moen"):
        curate("never_merge", str(store_dir), BASE, "Moen", "Halvard Moen", curation_file=cfile)
    curate("split", str(store_dir), BASE, "Halvard Moen", curation_file=cfile, article="c")
    assert load(cfile).of("split")[0].values == {"entity": "person/moen"}
    curate("rename", str(store_dir), BASE, "Halvard Moen", "President Halvard Moen", curation_file=cfile)
    curate("retype", str(store_dir), BASE, "Norway", "Organization", curation_file=cfile)
    with pytest.raises(UsageError, match="no entity named 'Nobody'"):
        curate("rename", str(store_dir), BASE, "Nobody", "x", curation_file=cfile)

    st = open_store(store_dir)
    try:
        clusters = {c.canonical: c for c in read_clusters(st, BASE)}
    finally:
        st.close()
    un = clusters[iri("Organization", "World Bank")]
    assert un.members == [iri("Organization", "World Bank"), iri("Organization", "Wrold Bank")]
    assert clusters[iri("Person", "Halvard Moen")].label == "President Halvard Moen"
    assert iri("Person", "Moen") in clusters  # split off: its own entity
    assert clusters[iri("Organization", "Norway")].type == "Organization"
    assert [e.table for e in load(cfile).entries] == ["merge", "split", "rename", "retype"]


def _write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


@pytest.mark.model
def test_a_merge_survives_a_rebuild_from_scratch(tmp_path):
    """build, kg merge, rm -rf the store, build again: the merge is still there (spaCy, the real CLI)."""
    src, store, cfile = tmp_path / "in", tmp_path / "store", tmp_path / "curation.toml"
    _write(src, "a.txt", "Protesters marched to the Ministry of Defence in Quito on Monday, police said.\n")
    _write(src, "b.txt", "The Defence Ministry said on Tuesday that the protesters had left Quito.\n")
    runner = CliRunner()
    common = ["--store", str(store), "--curation", str(cfile)]

    def build() -> None:
        res = runner.invoke(app, ["build", str(src), "--workers", "1", "--out", str(tmp_path / "out"), *common])
        assert res.exit_code == 0, res.output

    def entities() -> list[dict]:
        import json

        res = runner.invoke(app, ["entities", "--type", "Organization", "--format", "json", "--store", str(store)])
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)

    build()
    found = {e["label"]: e for e in entities()}
    assert {"Ministry of Defence", "Defence Ministry"} <= set(found), found
    res = runner.invoke(app, ["merge", "Ministry of Defence", "Defence Ministry", "--note", "same ministry", *common])
    assert res.exit_code == 0, res.output
    merged = [e for e in entities() if e["label"] == "Ministry of Defence"]
    assert len(merged) == 1 and "Defence Ministry" in merged[0]["aliases"] and merged[0]["articles"] == 2

    shutil.rmtree(store)
    build()
    again = [e for e in entities() if e["label"] == "Ministry of Defence"]
    assert again == merged
    assert (tmp_path / "out" / "graph.ttl").read_text(encoding="utf-8").count("owl:sameAs") >= 1

    shown = runner.invoke(app, ["show", "Defence Ministry", "--store", str(store), "--curation", str(cfile)])
    assert shown.exit_code == 0 and shown.stdout.startswith("Ministry of Defence (Organization)"), shown.output
    assert "organization/defence-ministry (curation)" in shown.stdout


def test_show_reads_the_store_resolution_not_the_curation_file(tmp_path, monkeypatch):
    """A rename and a never-merge applied through another curation file are what the store holds;
    ``kg show`` says what the store says (it recomputed from ./curation.toml, which has neither)."""
    import json

    from kg.resolve.curation import parse as parse_curation

    store_dir = tmp_path / "store"
    st = open_store(store_dir)
    try:
        store_of(_moen("a"), article("b", "President Moen of Norway spoke.",
                                       [("k", "Moen", "Person"), ("af", "Norway", "Place")],
                                       roles=[("k", "President", "af")]), store=st)
        decisions = parse_curation('[[rename]]\nentity = "person/halvard-moen"\nlabel = "H. Moen"\n\n'
                                   '[[never_merge]]\nentities = ["person/halvard-moen", "person/moen"]\n')
        update_resolution(st, MINTER, curation=decisions)
    finally:
        st.close()
    monkeypatch.chdir(tmp_path)  # no curation.toml here: computing afresh would undo both decisions
    runner = CliRunner()
    res = runner.invoke(app, ["show", "person/halvard-moen", "--format", "json", "--store", str(store_dir)])
    assert res.exit_code == 0, res.output
    shown = json.loads(res.stdout)
    assert shown["label"] == "H. Moen"
    assert [m["iri"] for m in shown["members"]] == [iri("Person", "Halvard Moen")]  # never merged
    listed = runner.invoke(app, ["entities", "--format", "json", "--store", str(store_dir)])
    assert {e["label"] for e in json.loads(listed.stdout)} >= {"H. Moen", "Moen"}
    text = runner.invoke(app, ["show", "person/moen", "--store", str(store_dir)])
    assert text.exit_code == 0 and text.stdout.startswith("Moen (Person)")
