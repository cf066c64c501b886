"""The suite does not lean on itself (issue 22): a test module imports only tests/factories.py,
tests/journeys.py and its own game's tests/games/<game>/helpers.py (a fixture comes from a
conftest by name, never by import), and no test sleeps: it waits for the condition it needs
(journeys.wait_until, Playwright's expect). The benchmarks in tests/bench may do either."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SHARED = {"tests.factories", "tests.journeys"}
# A pause, whatever it is called: the time module's and asyncio's, and Playwright's.
SLEEPS = {("time", "sleep"), ("asyncio", "sleep")}


def suite_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "bench" not in p.relative_to(TESTS).parts)


def allowed_for(path: Path) -> set[str]:
    parts = path.relative_to(TESTS).parts
    if parts[0] == "games" and len(parts) > 2:
        return SHARED | {f"tests.games.{parts[1]}.helpers"}
    return SHARED


def imported(path: Path, tree: ast.Module) -> list[tuple[int, str]]:
    """Every tests module this file imports, with its line: `from tests.x import y` is tests.x,
    `from tests import x` (or `from . import x`) is tests.x, `import tests.x` is tests.x."""
    package = ".".join(("tests", *path.relative_to(TESTS).parent.parts))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "tests"]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            if module.split(".")[0] != "tests":
                continue
            # A name may be a module of the package: `from tests import x`.
            for alias in node.names:
                inner = ROOT.joinpath(*module.split("."), alias.name)
                is_module = inner.with_suffix(".py").exists() or inner.is_dir()
                found.append((node.lineno, f"{module}.{alias.name}" if is_module else module))
    return sorted(set(found))


def sleeps(tree: ast.Module) -> list[int]:
    """Lines that pause: time.sleep(…), asyncio.sleep(…), a `sleep` imported from either, and
    Playwright's page.wait_for_timeout(…)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("time", "asyncio"):
            lines += [node.lineno for a in node.names if a.name == "sleep"]
        elif isinstance(node, ast.Attribute):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if (owner, node.attr) in SLEEPS or node.attr == "wait_for_timeout":
                lines.append(node.lineno)
    return lines


def test_every_test_module_imports_only_factories_journeys_and_its_games_helpers():
    wrong = []
    for path in suite_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        allowed = allowed_for(path)
        for line, module in imported(path, tree):
            if module not in allowed:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not wrong, (
        "Tests import only "
        + ", ".join(sorted(SHARED))
        + " and their game's "
        + ("helpers:\n" + "\n".join(wrong))
    )


def test_no_test_sleeps():
    wrong = []
    for path in suite_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        wrong += [f"{path.relative_to(ROOT)}:{line}" for line in sleeps(tree)]
    assert not wrong, "Wait for the condition (journeys.wait_until), not a while:\n" + "\n".join(
        wrong
    )


def test_the_checks_catch_what_they_are_for():
    """The two checks above, on modules written to break the rules."""
    here = TESTS / "games" / "eldritch" / "test_x.py"
    tree = ast.parse(
        "from tests.conftest import text\n"
        "from tests.games.arkham.helpers import post\n"
        "from tests import test_live_regions\n"
        "from . import helpers\n"
        "from .test_table import case\n"
        "import tests.server\n"
        "from tests import factories\n"
        "from tests.journeys import wait_until\n"
        "from tests.games.eldritch.helpers import x\n"
        "from tests.games.eldritch import helpers, test_table\n"
        "def test_it():\n"
        "    import time\n"
        "    time.sleep(1)\n"
        "    from asyncio import sleep\n"
        "    page.wait_for_timeout(250)\n"
    )
    assert sorted(
        (line, module) for line, module in imported(here, tree) if module not in allowed_for(here)
    ) == [
        (1, "tests.conftest"),
        (2, "tests.games.arkham.helpers"),
        (3, "tests.test_live_regions"),
        (5, "tests.games.eldritch.test_table"),
        (6, "tests.server"),
        (10, "tests.games.eldritch.test_table"),
    ]
    assert sorted(sleeps(tree)) == [13, 14, 15]
