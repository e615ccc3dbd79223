"""The kg ontology's terms as a closed namespace, and the prefixes kg writes.

``KG.Evnt`` raises AttributeError: a typo in a term fails loudly. ``tests/test_vocab.py``
checks that this list and ``ontology/kg.ttl`` declare the same terms.
"""
from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import DCTERMS, FOAF, OWL, PROV, RDF, RDFS, SKOS, XSD, DefinedNamespace

KG_NS = "https://w3id.org/kg-news/ns#"


class KG(DefinedNamespace):
    """Classes, properties and individuals of the kg ontology (ontology/kg.ttl)."""

    _NS = Namespace(KG_NS)
    _fail = True

    # classes
    Article: URIRef
    Entity: URIRef
    Person: URIRef
    Organization: URIRef
    Place: URIRef
    Group: URIRef
    Event: URIRef
    Evidence: URIRef
    Modality: URIRef
    Naming: URIRef
    # modality individuals
    asserted: URIRef
    reported: URIRef
    planned: URIRef
    hypothetical: URIRef
    generic: URIRef
    # object properties
    actor: URIRef
    target: URIRef
    modality: URIRef
    reportedBy: URIRef
    claimedBy: URIRef
    eventClass: URIRef
    datelinePlace: URIRef
    evidence: URIRef
    mentions: URIRef
    entity: URIRef
    entityType: URIRef
    # datatype properties
    action: URIRef
    negated: URIRef
    confidence: URIRef
    rule: URIRef
    sentence: URIRef
    beginIndex: URIRef
    endIndex: URIRef
    contentHash: URIRef
    former: URIRef
    lemma: URIRef
    classReason: URIRef
    timeText: URIRef
    name: URIRef
    alias: URIRef
    roleLabel: URIRef
    layoutVersion: URIRef
    # entity resolution (kg/resolve/, the {base}resolution graph)
    mentionedIn: URIRef
    mentionCount: URIRef
    labelWord: URIRef
    inputDigest: URIRef


SCHEMA = Namespace("https://schema.org/")
ORG = Namespace("http://www.w3.org/ns/org#")
SEM = Namespace("http://semanticweb.cs.vu.nl/2009/11/sem/")
NIF = Namespace("http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#")
TIME = Namespace("http://www.w3.org/2006/time#")
#: The CAMEO concept scheme of ontology/cameo.ttl: root classes CAMEO["01"]..CAMEO["20"] and the
#: four quad classes CAMEO["verbal-cooperation"], ... (see ``cameo_class`` and ``quad_concept``).
CAMEO_NS = "https://w3id.org/kg-news/cameo/"
CAMEO = Namespace(CAMEO_NS)
CAMEO_SCHEME = URIRef("https://w3id.org/kg-news/cameo")

PREFIXES: dict[str, str] = {
    "kg": KG_NS,
    "schema": str(SCHEMA),
    "org": str(ORG),
    "sem": str(SEM),
    "time": str(TIME),
    "cameo": CAMEO_NS,
    "prov": str(PROV),
    "dcterms": str(DCTERMS),
    "skos": str(SKOS),
    "foaf": str(FOAF),
    "rdfs": str(RDFS),
    "rdf": str(RDF),
    "xsd": str(XSD),
    "owl": str(OWL),
}

#: kg entity type name -> the classes an entity of that type carries (kg's and the standard ones).
TYPE_CLASSES: dict[str, tuple[URIRef, ...]] = {
    "Person": (KG.Person, SCHEMA.Person, FOAF.Person),
    "Organization": (KG.Organization, ORG.Organization, SCHEMA.Organization),
    "Place": (KG.Place, SCHEMA.Place),
    "Group": (KG.Group, FOAF.Group),
}

MODALITY_TERMS: dict[str, URIRef] = {
    "asserted": KG.asserted,
    "reported": KG.reported,
    "planned": KG.planned,
    "hypothetical": KG.hypothetical,
    "generic": KG.generic,
}


def cameo_class(code: str) -> URIRef:
    """The SKOS concept of a CAMEO root class ("18" -> cameo:18)."""
    return CAMEO[code]


def quad_concept(quad: str) -> URIRef:
    """The SKOS concept of a CAMEO quad class ("material conflict" -> cameo:material-conflict)."""
    return CAMEO[quad.replace(" ", "-")]


def sparql_prefixes(*names: str) -> str:
    """``PREFIX`` lines for SPARQL text kg writes, taken from ``PREFIXES`` (where kg's namespaces are written once)."""
    return "".join(f"PREFIX {name}: <{PREFIXES[name]}>\n" for name in names)


#: Time.datatype -> the XSD datatype of its value.
TIME_DATATYPES: dict[str, URIRef] = {"date": XSD.date, "gYearMonth": XSD.gYearMonth, "gYear": XSD.gYear}
#: Time.datatype -> the OWL-Time property of an instant that carries such a value.
INSTANT_PROPERTIES: dict[str, URIRef] = {
    "date": TIME.inXSDDate, "gYearMonth": TIME.inXSDgYearMonth, "gYear": TIME.inXSDgYear,
}
