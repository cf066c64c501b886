"""swap.js and the templates never drift apart (issue 21): every htmx attribute a template (or
the Python that writes markup) uses, every `hx-swap` way it asks for and every htmx header the
server sends is one swap.js implements, read from swap.js's code (not its comments, which name
what it does not do)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ATTRIBUTE = re.compile(r"\b(hx-[a-z]+(?:-[a-z]+)*)\s*=")
SWAP = re.compile(r"""\bhx-swap\s*=\s*["']([^"'{]+)["']""")
HEADER = re.compile(r"""["'](HX-[A-Za-z-]+)["']""")
# django-htmx's helpers, by the response header each one sets.
HELPERS = {
    "reselect": "HX-Reselect",
    "retarget": "HX-Retarget",
    "reswap": "HX-Reswap",
    "trigger_client_event": "HX-Trigger",
    "push_url": "HX-Push-Url",
    "replace_url": "HX-Replace-Url",
    "HttpResponseClientRedirect": "HX-Redirect",
    "HttpResponseClientRefresh": "HX-Refresh",
    "HttpResponseLocation": "HX-Location",
    "HttpResponseStopPolling": "HX-Stop-Polling",
}


def code_of(script: str) -> str:
    """The script without its comments (a `//` inside a string or a regular expression is not
    one in swap.js: it has none)."""
    script = re.sub(r"/\*.*?\*/", "", script, flags=re.S)
    return "\n".join(line.split("//")[0] for line in script.splitlines())


def swap_js() -> str:
    return code_of((ROOT / "static/js/swap.js").read_text())


def used_in(sources: dict[str, str]) -> dict[str, set[str]]:
    """What the sources ask of swap.js: {attribute, swap way or header: {where}}."""
    used: dict[str, set[str]] = {}
    for where, source in sources.items():
        names = set(ATTRIBUTE.findall(source)) | set(HEADER.findall(source))
        names |= {f"swap:{way.strip()}" for way in SWAP.findall(source)}
        names |= {
            header for helper, header in HELPERS.items() if re.search(rf"\b{helper}\(", source)
        }
        for name in names:
            used.setdefault(name, set()).add(where)
    return used


def unimplemented(sources: dict[str, str], script: str) -> dict[str, set[str]]:
    known = {name.lower() for name in re.findall(r"""["'\[](hx-[a-z-]+|HX-[A-Za-z-]+)""", script)}
    ways = set(re.findall(r"""how\s*===?\s*["']([a-zA-Z]+)["']""", script))
    ways.add("innerHTML")  # the default: what is left when no other way matched
    missing = {}
    for name, where in used_in(sources).items():
        if not (name[5:] in ways if name.startswith("swap:") else name.lower() in known):
            missing[name] = where
    return missing


def site_sources() -> dict[str, str]:
    files = [*ROOT.joinpath("templates").rglob("*.html")]
    files += [*ROOT.joinpath("campaigns").rglob("*.py"), *ROOT.joinpath("companion").rglob("*.py")]
    return {str(p.relative_to(ROOT)): p.read_text() for p in files}


@pytest.mark.sweep
def test_every_htmx_attribute_way_and_header_the_site_uses_is_one_swap_js_implements():
    sources = site_sources()
    assert used_in(sources), "the templates use htmx attributes"
    assert unimplemented(sources, swap_js()) == {}


def test_the_rule_sees_what_swap_js_does_not_do():
    script = swap_js()
    page = {
        "a.html": '<form hx-post="/x/" hx-confirm="Sure?" hx-swap="beforeend"></form>',
        "b.py": 'response["HX-Trigger"] = "done"\nreturn trigger_client_event(response, "x")',
        "c.html": '<form hx-post="/x/" hx-swap="outerHTML" hx-target="this"></form>',
    }
    assert set(unimplemented(page, script)) == {"hx-confirm", "swap:beforeend", "HX-Trigger"}
