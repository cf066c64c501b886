"""`make run` installs requirements.txt alone (the test tools come from requirements-dev.txt on
top, for `make test`): every package the site imports when it runs must come from there. A
module a site module imports only for the type checker (under `if TYPE_CHECKING:`) need not."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import re
import sys
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
OWN = {"campaigns", "companion", "accounts", "manage"}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def required(path: Path) -> set[str]:
    """The distributions a requirements file names."""
    names = set()
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(normal(re.split(r"[\[=<>~! ;]", line, maxsplit=1)[0]))
    return names


def installed_with(names: set[str]) -> set[str]:
    """These distributions and everything they require on this machine (not their extras')."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for line in metadata.distribution(name).requires or ():
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(normal(requirement.name))
    return seen


def typing_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def run_time_imports(tree: ast.AST) -> set[str]:
    """The top-level modules a file imports when it runs."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and typing_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def site_files() -> list[Path]:
    files = [ROOT / "manage.py"]
    for package in ("campaigns", "companion", "accounts"):
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def missing_from(requirements: Path) -> list[str]:
    """Each third-party module the site imports when it runs that no distribution of
    `requirements` (or what they require) provides, with the first file importing it."""
    allowed = installed_with(required(requirements))
    providers = metadata.packages_distributions()
    missing = {}
    for path in site_files():
        for module in run_time_imports(ast.parse(path.read_text(), str(path))):
            if module in OWN or module in sys.stdlib_module_names or module == "__future__":
                continue
            if not {normal(d) for d in providers.get(module, [])} & allowed:
                missing.setdefault(module, path.relative_to(ROOT))
    return [f"{module} (imported by {path})" for module, path in sorted(missing.items())]


def test_every_package_the_site_imports_is_in_requirements_txt():
    assert missing_from(ROOT / "requirements.txt") == []


def test_the_rule_names_a_package_only_the_test_tools_bring(tmp_path):
    # Without django-stubs-ext in the site's requirements (as it was): its modules fail to
    # import on a machine that ran `make run` alone.
    site_only = tmp_path / "requirements.txt"
    site_only.write_text(
        "\n".join(
            line
            for line in (ROOT / "requirements.txt").read_text().splitlines()
            if not line.startswith("django-stubs-ext")
        )
    )
    assert any(line.startswith("django_stubs_ext ") for line in missing_from(site_only))


def test_an_import_for_the_type_checker_alone_is_not_counted():
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pytest import Mark\n"
        "else:\n"
        "    import segno\n"
        "import uvicorn\n"
    )
    assert run_time_imports(tree) == {"typing", "segno", "uvicorn"}
