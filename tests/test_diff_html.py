"""The HTML diff report in a real browser: Debian's headless Chromium (installed by scripts/setup.sh).

The 2025-11-25 -> 2026-07-28 report is screenshotted, and a copy of it with a measuring script
appended (in the test's tmp dir: the shipped report has no test hooks) is loaded with --dump-dom:
the summary comes first and matches the JSON report, nothing overflows horizontally (at desktop and
phone widths, every group expanded, every filter on) and the filters show exactly the rows they
should. UPDATE_EXPECTED=1 also refreshes docs/diff-2025-11-25-to-2026-07-28.png.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest

from codegen import diff
from codegen.diff import render

REPO = Path(__file__).resolve().parents[1]
SCREENSHOT = REPO / "docs" / "diff-2025-11-25-to-2026-07-28.png"
UPDATE = os.environ.get("UPDATE_EXPECTED") == "1"

# Appended to a copy of the report: expands everything, measures, drives the filters, and writes
# what it found into the DOM for --dump-dom to print.
PROBE = """
<script>
(function () {
  function box(name, value, on) {
    var input = document.querySelector("#filters input[name=" + name + "][value=" + value + "]");
    if (input.checked !== on) { input.click(); }
  }
  function visible() {
    return Array.prototype.filter.call(document.querySelectorAll("tr[data-severity]"), function (row) {
      return !row.hidden;
    });
  }
  function overflow() {
    var width = document.documentElement.clientWidth, wide = [];
    document.querySelectorAll("body *").forEach(function (element) {
      var rect = element.getBoundingClientRect();
      if (rect.width > 0 && rect.right > width + 1) { wide.push(element.tagName + "." + element.className); }
    });
    return {scrollWidth: document.documentElement.scrollWidth, clientWidth: width, wide: wide.slice(0, 5)};
  }
  var found = {};
  var sections = Array.prototype.map.call(document.querySelectorAll("main > section"), function (s) { return s.id; });
  var summary = document.getElementById("summary");
  found.sections = sections;
  found.summaryTop = summary.getBoundingClientRect().top;
  found.summaryText = summary.innerText;
  document.querySelector("#filters button[data-open='1']").click();
  ["breaking", "compatible", "informational"].forEach(function (s) { box("severity", s, true); });
  found.all = visible().length;
  found.rows = document.querySelectorAll("tr[data-severity]").length;
  found.layout = overflow();
  box("severity", "compatible", false); box("severity", "informational", false);
  found.breaking = visible().map(function (row) { return row.dataset.severity; });
  box("side", "server", false); box("side", "none", false);
  found.clientBreaking = visible().map(function (row) { return row.dataset.sides; });
  found.hiddenGroups = document.querySelectorAll("details.group[hidden]").length;
  found.shown = document.getElementById("shown").textContent;
  var out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
})();
</script>
"""


def _chromium() -> str:
    found = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if found is None:
        pytest.fail("Chromium is not installed: run scripts/setup.sh (it installs Debian's chromium package)")
    return found


def _run(*args: str) -> str:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-dev-shm-usage"]
    result = subprocess.run([_chromium(), *flags, *args], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.fixture(scope="module")
def report() -> diff.Report:
    return diff.diff("2025-11-25", "2026-07-28")


@pytest.fixture(scope="module")
def page(report: diff.Report, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(render.render(report, "html"), encoding="utf-8")
    return path


def _probe(page: Path, width: int, height: int) -> dict[str, Any]:
    probe = page.with_name(f"probe-{width}.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = _run(f"--window-size={width},{height}", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri())
    match = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert match, dom[-2000:]
    text = match.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    data: dict[str, Any] = json.loads(text)
    return data


def test_screenshot(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    _run("--window-size=1280,2000", f"--screenshot={shot}", page.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1280, 2000)
    assert len(data) > 100_000  # a page of text and colour, not a blank canvas
    if UPDATE:
        SCREENSHOT.parent.mkdir(exist_ok=True)
        shutil.copyfile(shot, SCREENSHOT)


@pytest.mark.parametrize(("width", "height"), [(1280, 2000), (500, 900)])  # 500: headless Chromium's narrowest window
def test_summary_first_no_overflow_and_filters(page: Path, report: diff.Report, width: int, height: int) -> None:
    found = _probe(page, width, height)
    assert found["sections"][0] == "summary" and found["sections"][1] == "filters"
    assert found["summaryTop"] < 300
    wire = report.summary()["wire"]
    summary_text = found["summaryText"]
    assert f"{wire['breaking']}\nbreaking on the wire" in summary_text
    assert f"for clients {wire['breaking_for']['client']} · for servers {wire['breaking_for']['server']}" in summary_text
    assert "initialize" in summary_text and "server/discover" in summary_text
    layout = found["layout"]
    assert layout["clientWidth"] == width
    assert layout["scrollWidth"] <= layout["clientWidth"], layout
    assert layout["wide"] == [], layout
    everything = [*report.changes, *report.python_api]
    listed = [c for c in everything if not c.kind.startswith("definition-")]
    assert found["rows"] == found["all"] == len(listed) + len(report.methods)
    breaking = sum(1 for c in listed if c.severity == "breaking") + sum(1 for m in report.methods if m.severity == "breaking")
    assert found["breaking"] == ["breaking"] * breaking
    client = sum(1 for c in listed if c.severity == "breaking" and "client" in c.breaks)
    client += sum(1 for m in report.methods if m.severity == "breaking" and "client" in m.breaks)
    assert len(found["clientBreaking"]) == client and all("client" in s.split() for s in found["clientBreaking"])
    assert found["hiddenGroups"] > 0 and found["shown"] == f"showing {client} of {found['rows']} rows"
