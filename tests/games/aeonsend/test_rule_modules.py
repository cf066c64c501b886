"""Issue 22: "where is the exhausted rule handled?" has one answer. The rule (rules.md §2a, §2d:
a player at 0 life is exhausted and gains no life, damage to them goes to Gravehold twice over
unless a sticker says otherwise, every player exhausted loses the game except in solo play)
lives in `aeonsend/exhausted.py`: its functions are defined there and in no other module of the
game, the other modules import them from there, and no other module reads or writes the
sticker's doubling switch."""

import ast
from pathlib import Path

from campaigns.games.aeonsend import exhausted

PACKAGE = Path(exhausted.__file__).parent
RULES = {
    "exhausted": (
        "is_exhausted",
        "refuse_gain",
        "gravehold_damage",
        "all_exhausted",
        "exhaustion_loses",
        "solo_exception",
        "apply_doubling",
        "exhausted_view",
    ),
}
# The rule's part of the state: named by its module alone.
KEYS = {"exhausted": ("exhausted_double",)}
# Who calls the rule rather than keeping a copy of it (the modules the rule was spread over).
CALLERS = {
    "is_exhausted": {"turns"},
    "refuse_gain": {"turns"},
    "gravehold_damage": {"turns"},
    "exhaustion_loses": {"ending"},
    "solo_exception": {"ending"},
    "exhausted_view": {"context"},
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
    from (`exhausted.x` is "exhausted"); a name it has from nowhere is "its own"."""
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


def naming(modules: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Each state key of a rule and the modules whose code names it (`state["…"]`, `.get("…")`)."""
    keys = {key for names in KEYS.values() for key in names}
    return {
        key: {
            stem
            for stem, tree in modules.items()
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value == key
        }
        for key in keys
    }


def test_the_exhausted_rule_is_defined_in_exhausted_py_alone():
    assert misplaced(definitions(trees())) == {}


def test_turns_and_ending_take_the_rule_from_exhausted_py():
    used = uses(trees())
    wrong = {
        (stem, name, source)
        for stem, names in used.items()
        for name, source in names.items()
        if source != "exhausted"
    }
    assert wrong == set()
    for name, callers in CALLERS.items():
        assert {stem for stem, names in used.items() if name in names} >= callers, name


def test_only_exhausted_py_reads_the_stickers_doubling_switch():
    assert naming(trees()) == {"exhausted_double": {"exhausted"}}


def test_the_checks_see_a_rule_kept_elsewhere():
    modules = trees()
    modules["turns"] = ast.parse(
        "def is_exhausted(life):\n"
        "    return life == 0\n"
        "def dial(state, value):\n"
        "    factor = 2 if state.get('exhausted_double', True) else 1\n"
        "    return is_exhausted(value), exhausted.all_exhausted(state)\n"
    )
    modules["ending"] = ast.parse("from campaigns.games.aeonsend.turns import solo_exception\n")
    assert misplaced(definitions(modules)) == {"is_exhausted": ["exhausted", "turns"]}
    used = uses(modules)
    assert used["turns"] == {"is_exhausted": "its own", "all_exhausted": "exhausted"}
    assert used["ending"] == {"solo_exception": "turns"}
    assert naming(modules) == {"exhausted_double": {"exhausted", "turns"}}


def test_the_readme_names_exhausted_py_for_the_exhausted_rule():
    readme = (PACKAGE.parents[2] / "README.md").read_text()
    assert "`aeonsend/exhausted.py`" in readme
