"""CAMEO's event classes as kg uses them: the 20 root classes and the four quad classes they
group into (verbal and material cooperation and conflict): the one table of them."""
from __future__ import annotations

import re

#: CAMEO quad classes, in the order of the root codes they group (01-05, 06-09, 10-14, 15-20).
QUAD_CLASSES = ("verbal cooperation", "material cooperation", "verbal conflict", "material conflict")

#: The 20 CAMEO root event classes (CAMEO codebook 1.1b3): code -> label (ontology/cameo.ttl).
CAMEO_ROOTS: dict[str, str] = {
    "01": "make public statement",
    "02": "appeal",
    "03": "express intent to cooperate",
    "04": "consult",
    "05": "engage in diplomatic cooperation",
    "06": "engage in material cooperation",
    "07": "provide aid",
    "08": "yield",
    "09": "investigate",
    "10": "demand",
    "11": "disapprove",
    "12": "reject",
    "13": "threaten",
    "14": "protest",
    "15": "exhibit force posture",
    "16": "reduce relations",
    "17": "coerce",
    "18": "assault",
    "19": "fight",
    "20": "use unconventional mass violence",
}


def quad_of(code: str) -> str:
    """The quad class of a CAMEO root code ("18" -> "material conflict")."""
    n = int(code)
    return QUAD_CLASSES[0 if n <= 5 else 1 if n <= 9 else 2 if n <= 14 else 3]


def quad_class(code: str | None, *labels: str | None) -> str:
    """The CAMEO quad class of an event class: from a label that names one, else from its root code."""
    for label in labels:
        if label and label.strip().lower() in QUAD_CLASSES:
            return label.strip().lower()
    if code:
        m = re.fullmatch(r"0*(\d{1,2})\d*", code.strip())
        if m and 1 <= int(m.group(1)) <= 20:
            return quad_of(f"{int(m.group(1)):02d}")
    return ""
