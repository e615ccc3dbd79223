"""How long the network view takes: HTML generation in Python, and first draw in headless Chromium.

    .venv/bin/python benchmarks/view_bench.py [--sizes 500,2000,10000] [--repeat 3] [--no-browser]

For each size, a generated network (tests/viewsamples.py ``synthetic_network``:
preferential attachment, two facts per entity, every fact with a sentence, an article,
a date and a CAMEO-like class) is rendered with ``kg.outputs.view.render_view`` (best of
``--repeat``) and written to a temporary folder. Then headless Chromium (networking off)
opens each page over the DevTools protocol on a pipe, and the page's own performance
marks are read: ``kg-first-draw`` (set at vis-network's first ``afterDrawing``, which
comes after the initial stabilisation) and ``kg-stabilized``; both are milliseconds
since navigation start, so they include parsing the page and its data. Pages with more
than ``kg.outputs.view.MAX_NODES`` entities draw only the most central ones first.

No thresholds: this machine is shared and noisy. The issue's target is HTML for a
10k-node graph in <= 5 s.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import viewsamples  # noqa: E402
from kg.outputs.view import MAX_NODES, render_view, write_view  # noqa: E402

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
    "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1400,900",
]


class Cdp:
    """DevTools over --remote-debugging-pipe: NUL-separated JSON, commands on fd 3, replies on fd 4."""

    def __init__(self, chromium: str, profile: str) -> None:
        cmd_r, self._cmd_w = os.pipe()
        self._out_r, out_w = os.pipe()

        def fds() -> None:
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)

        self.proc = subprocess.Popen(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(cmd_r)
        os.close(out_w)
        self._buf = b""
        self._id = 0
        self.session: str | None = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        self.call("Page.enable")

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 120) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if self.session and not method.startswith(("Target.", "Browser.")):
            msg["sessionId"] = self.session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self._buf:
                ready, _, _ = select.select([self._out_r], [], [], max(0.0, deadline - time.monotonic()))
                if not ready:
                    raise TimeoutError(method)
                chunk = os.read(self._out_r, 1 << 16)
                if not chunk:
                    raise EOFError("chromium closed the pipe")
                self._buf += chunk
            raw, self._buf = self._buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def js(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except (OSError, TimeoutError, EOFError, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_w, self._out_r):
            try:
                os.close(fd)
            except OSError:
                pass


_MARKS = """(() => { const m = n => { const e = performance.getEntriesByName(n); return e.length ? e[0].startTime : null; };
  return [m('kg-first-draw'), m('kg-stabilized'), document.body && document.body.dataset.visibleNodes]; })()"""


def first_draw(chromium: str, page: Path, timeout: float = 180) -> tuple[float | None, float | None, str]:
    """(first draw ms, stabilised ms, drawn nodes) of ``page`` in a fresh headless Chromium."""
    profile = tempfile.mkdtemp(prefix="kg-bench-profile-")
    cdp = Cdp(chromium, profile)
    try:
        cdp.call("Page.navigate", {"url": page.resolve().as_uri()})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            draw, stable, shown = cdp.js(_MARKS) or (None, None, None)
            if draw is not None and stable is not None:
                return draw, stable, shown or "?"
            time.sleep(0.05)
        return draw, stable, shown or "?"
    finally:
        cdp.close()
        shutil.rmtree(profile, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,2000,10000", help="entity counts, comma-separated")
    ap.add_argument("--repeat", type=int, default=3, help="renders per size (the best is shown)")
    ap.add_argument("--no-browser", action="store_true", help="only time the HTML generation")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    chromium = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)
    if args.no_browser:
        chromium = None
    out = Path(tempfile.mkdtemp(prefix="kg-view-bench-"))
    rows = []
    try:
        for n in sizes:
            network = viewsamples.synthetic_network(n)
            render_view(network)  # warm up: imports, template, assets
            times = []
            for _ in range(max(args.repeat, 1)):
                t0 = time.perf_counter()
                html = render_view(network)
                times.append(time.perf_counter() - t0)
            page = out / f"view-{n}.html"
            write_view(network, page)
            row = {"nodes": n, "edges": len(network.edges), "html_s": min(times), "mb": len(html.encode()) / 1e6}
            if chromium:
                draw, stable, shown = first_draw(chromium, page)
                row.update(first_draw_ms=draw, stabilized_ms=stable, drawn=shown)
            rows.append(row)
            print(f"  measured {n} nodes", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)

    print(f"view benchmark (top-N cut-off: {MAX_NODES} entities drawn at first; best of {args.repeat} renders)")
    head = f"{'nodes':>7} {'edges':>7} {'HTML (s)':>9} {'size (MB)':>10}"
    if chromium:
        head += f" {'drawn':>6} {'first draw (ms)':>16} {'stabilised (ms)':>16}"
    print(head)
    for r in rows:
        line = f"{r['nodes']:>7} {r['edges']:>7} {r['html_s']:>9.2f} {r['mb']:>10.1f}"
        if chromium:
            fd = "-" if r["first_draw_ms"] is None else f"{r['first_draw_ms']:.0f}"
            st = "-" if r["stabilized_ms"] is None else f"{r['stabilized_ms']:.0f}"
            line += f" {r['drawn']:>6} {fd:>16} {st:>16}"
        print(line)
    if not chromium and not args.no_browser:
        print("(chromium not found: no first-draw figures)")


if __name__ == "__main__":
    main()
