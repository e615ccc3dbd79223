"""``kg serve``: a SPARQL 1.1 Protocol endpoint, a query page, entity pages and the view.

Safe by default (what Oxigraph server and Fuseki do, and what a naive rdflib endpoint does
not): read-only unless ``--allow-update`` *and* a bearer token; ``SERVICE`` and ``LOAD``
refused with a 400 before anything runs (by parsing, see ``kg.sparql.guard``); ``FROM``, ``FROM
NAMED`` and the dataset parameters choose graphs of the store and nothing else, relative IRIs resolve
against the endpoint's URL or ``--base`` (``kg.sparql.dataset``); every query in a worker process that is killed at the timeout; caps on
result rows and request bodies; CORS off unless ``--cors ORIGIN``; the Host header checked
(DNS rebinding); 127.0.0.1 unless told otherwise.

Routes::

    GET  /                 the query page (editor, canned queries, results table, CSV/JSON downloads)
    GET|POST /sparql       SPARQL 1.1 Protocol: query (GET ?query=, form POST, direct POST), update
                           (POST, with --allow-update and the token); no query: the service description
    GET|PUT|POST|DELETE /store   SPARQL 1.1 Graph Store Protocol (?graph=IRI or ?default); GET is a
                           read and always allowed, the others need --allow-update and the token
    GET  /queries          the canned queries of queries/ (name, description, text) as JSON
    GET  /view             the network view (kg.outputs.network + kg.outputs.view, rendered from the store)
    GET  /entity/{path}    the entity {base}entity/{path}: HTML, or Turtle / N-Triples / JSON-LD by Accept
    GET  /article/{id}     the article {base}article/{id}: its text with every fact highlighted (kg.outputs.view_article)
    GET  /static/{name}    the pages' scripts and stylesheets (kg.outputs.view_pages.static_text)
    GET  /openapi.json     the OpenAPI description of all this
"""
from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from .. import __version__
from ..sparql.pool import WorkerPool
from .config import ServeConfig, check_config
from .limits import OriginGuard
from .middleware import HeadAsGet, HostGuard, SecurityHeaders, _host_names
from .page_routes import router as page_router
from .sparql_routes import router as sparql_router
from .state import ServeState
from .store_routes import router as store_router


def create_app(config: ServeConfig, pool: WorkerPool | None = None) -> FastAPI:
    """The ASGI app. Without ``pool``, its lifespan starts (and stops) one over ``config.store``.

    The routes live in ``sparql_routes`` (the SPARQL Protocol), ``store_routes`` (the Graph Store
    Protocol) and ``page_routes`` (the pages); what they share is the ``ServeState`` kept on
    ``app.state.kg``; content negotiation is ``kg.serve.protocol``'s."""
    check_config(config)
    state = ServeState(config, pool)
    app = FastAPI(title="kg SPARQL endpoint", version=__version__, docs_url=None, redoc_url=None,
                  lifespan=state.lifespan, description=__doc__)
    app.state.kg = state
    app.include_router(sparql_router)
    app.include_router(store_router)
    app.include_router(page_router)
    if config.cors:
        app.add_middleware(CORSMiddleware, allow_origins=[config.cors], allow_credentials=False,
                           allow_methods=["GET", "POST"], allow_headers=["Accept", "Content-Type", "Authorization"],
                           expose_headers=["X-Kg-Truncated"], max_age=600)
    app.add_middleware(OriginGuard, cors=config.cors)  # a browser's POST from another origin: 403
    names, any_ip = _host_names(config)
    app.add_middleware(HostGuard, names=names, any_ip=any_ip)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)  # outermost: also on the guards' own answers
    return app
