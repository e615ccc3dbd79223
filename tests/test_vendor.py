"""The vendored YASGUI: its files are the pinned ones, a tarball that is not the pinned one is refused,
and the query page's CSP allows by hash exactly the style texts the bundle's column resizer adds."""
from __future__ import annotations

import base64
import hashlib
import io
import re
import tarfile
from pathlib import Path

import pytest

from kg.serve import vendor
from kg.serve.middleware import PAGE_CSP
from kg.serve.pages import QUERY_CSP

pytestmark = pytest.mark.unit


def _tarball(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, body in files.items():
            info = tarfile.TarInfo(f"package/build/{name}")
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return path


def test_the_vendored_files_are_the_pinned_ones() -> None:
    for name in vendor.YASGUI_FILES:
        assert hashlib.sha256(vendor.vendored(name)).hexdigest() == vendor.YASGUI_FILES[name]
    notice = vendor.vendored("yasgui-LICENSE.txt").decode("utf-8")
    assert f"YASGUI {vendor.YASGUI_VERSION}" in notice and "The MIT License" in notice and "dompurify" in notice


def test_a_changed_file_is_not_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "yasgui.min.js").write_bytes(vendor.vendored("yasgui.min.js") + b"\nwindow.x = 1;")
    monkeypatch.setattr(vendor, "VENDOR_DIR", tmp_path)
    vendor.vendored.cache_clear()
    try:
        with pytest.raises(ValueError, match="SHA-256"):
            vendor.vendored("yasgui.min.js")
    finally:
        monkeypatch.undo()
        vendor.vendored.cache_clear()


def test_unpack_refuses_a_tarball_that_is_not_the_pinned_one(tmp_path: Path) -> None:
    fake = _tarball(tmp_path / "fake.tgz", {n: vendor.vendored(n) for n in vendor.YASGUI_FILES})
    out = tmp_path / "out"
    with pytest.raises(ValueError, match="integrity"):
        vendor.unpack(fake, out)
    assert not out.exists()


def test_the_csp_allows_exactly_the_resizers_styles() -> None:
    js = vendor.vendored("yasgui.min.js").decode("utf-8")
    fixed = re.findall(r"createStyle\(a,`([^`]*)`\)", js)
    dragged = re.findall(r"dragCursor:`([^`]*)`", js)
    assert len(fixed) == 1 and dragged == ["col-resize"]
    texts = [fixed[0], "*{cursor:" + dragged[0] + "!important}"]
    hashes = ["sha256-" + base64.b64encode(hashlib.sha256(t.encode()).digest()).decode() for t in texts]
    assert list(vendor.YASGUI_STYLE_HASHES) == hashes
    assert QUERY_CSP == PAGE_CSP.replace("style-src 'self'", "style-src 'self' " + " ".join(f"'{h}'" for h in hashes))
    assert "unsafe" not in QUERY_CSP and "script-src 'self';" in QUERY_CSP and "connect-src 'self';" in QUERY_CSP
