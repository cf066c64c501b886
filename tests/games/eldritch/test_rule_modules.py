"""Issue 22: "where is the awakening handled?" has one answer. Doom and the awakening (rules.md
§3a: doom toward 0, retreat refused after the awakening, the omen's comet, what the sheet's back
does, what a fall does to doom) live in `eldritch/doom.py`: its functions are defined there and
in no other module of the game, the other modules import them from there, and no other module
writes the doom track, the omen or the awakened flag."""

import ast
from pathlib import Path

from campaigns.games.eldritch import doom

PACKAGE = Path(doom.__file__).parent
RULES = {
    "doom": (
        "advance_doom",
        "awaken",
        "retreat_doom",
        "final_mystery_due",
        "fallen_status",
        "comet",
        "apply_doom",
        "apply_omen",
    ),
}
# The rule's part of the state: written by its module alone.
KEYS = {"doom": ("doom", "awakened", "omen")}
# Who calls the rule rather than keeping a copy of it (the modules the rule was spread over).
CALLERS = {
    "fallen_status": {"investigators"},
    "final_mystery_due": {"mysteries", "context"},
}


def trees() -> dict[str, ast.Module]:
    return {module.stem: ast.parse(module.read_text()) for module in PACKAGE.glob("*.py")}


def definitions(modules: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Each function or class defined at the top of a module of the game: where it is."""
    found: dict[str, set[str]] = {}
    for stem, tree in modules.items():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                found.setdefault(node.name, set()).add(stem)
    return found


def misplaced(defined: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each rule's function that is not defined in its module alone: where it is."""
    return {
        name: sorted(defined.get(name, set()))
        for rule, names in RULES.items()
        for name in names
        if defined.get(name) != {rule}
    }


def uses(modules: dict[str, ast.Module]) -> dict[str, dict[str, str]]:
    """In each module but the rule's, each rule function it names and the module it imports it
    from (`doom.x` is "doom"); a name it has from nowhere is "its own"."""
    owner = {name: rule for rule, names in RULES.items() for name in names}
    found: dict[str, dict[str, str]] = {}
    for stem, tree in modules.items():
        if stem in RULES:
            continue
        imported = {
            alias.asname or alias.name: (node.module or "").rsplit(".", 1)[-1]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        named = found.setdefault(stem, {})
        named.update({name: source for name, source in imported.items() if name in owner})
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in owner:
                named[node.id] = imported.get(node.id, "its own")
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in owner
                and isinstance(node.value, ast.Name)
                and node.value.id in RULES
            ):
                named[node.attr] = node.value.id
    return {stem: named for stem, named in found.items() if named}


def writers(modules: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Each state key of a rule and the modules that assign it (`game["doom"] = …`, `+=`)."""
    keys = {key for names in KEYS.values() for key in names}
    found: dict[str, set[str]] = {}
    for stem, tree in modules.items():
        for node in ast.walk(tree):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AugAssign)
                else []
            )
            for target in targets:
                key = target.slice if isinstance(target, ast.Subscript) else None
                if isinstance(key, ast.Constant) and key.value in keys:
                    found.setdefault(key.value, set()).add(stem)
    return found


def test_doom_and_the_awakening_are_defined_in_doom_py_alone():
    assert misplaced(definitions(trees())) == {}


def test_the_other_modules_take_the_rule_from_doom_py():
    used = uses(trees())
    wrong = {
        (stem, name, source)
        for stem, names in used.items()
        for name, source in names.items()
        if source != "doom"
    }
    assert wrong == set()
    for name, callers in CALLERS.items():
        assert {stem for stem, names in used.items() if name in names} >= callers, name


def test_only_doom_py_writes_the_doom_track_the_omen_and_the_awakening():
    assert {key: sorted(stems) for key, stems in writers(trees()).items()} == {
        key: ["doom"] for key in KEYS["doom"]
    }


def test_the_checks_see_a_rule_kept_elsewhere():
    modules = trees()
    modules["common"] = ast.parse(
        "def advance_doom(game, steps):\n"
        "    game['awakened'] = True\n"
        "def fall(game):\n"
        "    advance_doom(game, 1)\n"
        "    doom.comet(game)\n"
    )
    modules["mysteries"] = ast.parse("from campaigns.games.eldritch.common import awaken\n")
    assert misplaced(definitions(modules)) == {"advance_doom": ["common", "doom"]}
    used = uses(modules)
    assert used["common"] == {"advance_doom": "its own", "comet": "doom"}
    assert used["mysteries"] == {"awaken": "common"}
    assert writers(modules)["awakened"] == {"common", "doom"}


def test_the_readme_names_doom_py_for_doom_and_the_awakening():
    readme = (PACKAGE.parents[2] / "README.md").read_text()
    assert "`eldritch/doom.py`" in readme
    assert "common.py` (doom" not in readme
