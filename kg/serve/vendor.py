"""YASGUI, vendored: the query page's editor and result tables, served by ``kg serve`` from the
package (``kg/static/yasgui``), never from a CDN. The version, the npm tarball's integrity and the
files' hashes are pinned here; a file that does not match its hash is not served.

``python -m kg.serve.vendor TARBALL`` (``make yasgui``) checks a tarball from ``npm pack`` against
the pins and copies its files into the package.
"""
from __future__ import annotations

import base64
import hashlib
import sys
import tarfile
from functools import lru_cache
from pathlib import Path

YASGUI_PACKAGE = "@zazuko/yasgui"
YASGUI_VERSION = "4.6.2"
#: npm's ``dist.integrity`` of the tarball (``npm view @zazuko/yasgui@4.6.2 dist.integrity``).
YASGUI_INTEGRITY = "sha512-Zw45KdPoAE1KRaAoxIHdQqeJxvaVG1oQdntw0hy0ktX35Zu8ZccuOLrXCLwR+GU+0xMzLw8Mjw6BkSZV2vUuQw=="
#: The files served, as in the tarball's ``package/build/``, by SHA-256; and their licence.
YASGUI_FILES = {
    "yasgui.min.js": "55034eaac74c55f55fbd1eeed008ae38a79053651cbed2b453f1fcfd895a4b75",
    "yasgui.min.css": "085b94556b97f9928981bdedb6848fd11ad4d8d950e821f0d698c58ca538fc55",
}
#: The two ``<style>`` elements YASR's column resizer (column-resizer 1.4.0) adds to the page: its fixed
#: rules for the grips, and ``*{cursor:col-resize!important}`` while a column is dragged. The query
#: page's CSP allows exactly these texts by hash (``style-src``); any other inline style stays blocked.
YASGUI_STYLE_HASHES = ("sha256-zCK2EVMoPc04mRF/g5CotUvxbJPWS+8V0b+s9ptqQIk=", "sha256-c0O6TmFAkgpNbHxKAa1BrveWHHopjEtC47i0PzMudxg=")
LICENSE = "LICENSE"
VENDOR_DIR = Path(__file__).parent.parent / "static" / "yasgui"
#: Names under ``/static/`` and their media types.
MEDIA = {"yasgui.min.js": "text/javascript", "yasgui.min.css": "text/css", "yasgui-LICENSE.txt": "text/plain"}


@lru_cache(maxsize=None)
def vendored(name: str) -> bytes:
    """A vendored file's bytes (``yasgui-LICENSE.txt`` is the licence); ``ValueError`` if its hash is not the pinned one."""
    if name == "yasgui-LICENSE.txt":
        return (VENDOR_DIR / LICENSE).read_bytes()
    data = (VENDOR_DIR / name).read_bytes()
    found = hashlib.sha256(data).hexdigest()
    if found != YASGUI_FILES[name]:
        raise ValueError(f"{VENDOR_DIR / name}: SHA-256 {found}, pinned {YASGUI_FILES[name]}")
    return data


def unpack(tarball: Path, into: Path = VENDOR_DIR) -> None:
    """Check ``tarball`` against the pinned integrity and hashes, then write its files into ``into``."""
    data = tarball.read_bytes()
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    if integrity != YASGUI_INTEGRITY:
        raise ValueError(f"{tarball}: integrity {integrity}, pinned {YASGUI_INTEGRITY}")
    with tarfile.open(tarball, "r:gz") as tar:
        for name, digest in YASGUI_FILES.items():
            member = tar.extractfile(f"package/build/{name}")
            if member is None:
                raise ValueError(f"{tarball}: no package/build/{name}")
            body = member.read()
            if hashlib.sha256(body).hexdigest() != digest:
                raise ValueError(f"{tarball}: package/build/{name} is not the pinned file")
            into.mkdir(parents=True, exist_ok=True)
            (into / name).write_bytes(body)


if __name__ == "__main__":
    unpack(Path(sys.argv[1]))
    print(f"{YASGUI_PACKAGE} {YASGUI_VERSION}: {', '.join(YASGUI_FILES)} written to {VENDOR_DIR}")
