"""The package's shape: wings by job, imports running one way, no reaching into private names."""

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "euchre_sim"
# a wing may import its own modules and those of lower wings, never a higher one; the Click app
# (`cli`) is the top wing: it may import any wing, and nothing in the package imports it
WINGS = ("core", "runs", "bidding", "solver", "play", "game", "sim", "advice", "report", "api",
         "web", "cli")


def _imports():
    """(module path, wing, imported module's dotted name inside euchre_sim, names) for every
    import of the package's own modules: `from ... import`, relative or not, and `import`."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "euchre_sim":
                        yield path, parts[0], alias.name.split(".")[1:], []
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = list(parts[:-node.level]) if node.level <= len(parts) else []
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "euchre_sim":
                target = node.module.split(".")[1:]
            else:
                continue
            names = [a.name for a in node.names]
            if not target:  # `from euchre_sim import cli`: the names are the modules
                for name in names:
                    yield path, parts[0], [name], [name]
            else:
                yield path, parts[0], target, names


def test_every_module_lives_in_a_wing():
    loose = [p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert sorted(folders - {"data"}) == sorted(WINGS)  # data: package data, no modules
    assert [p.name for p in (PACKAGE / "data").glob("*.py")] == ["__init__.py"]


def test_imports_run_from_higher_wings_to_lower_ones():
    upward = []
    for path, wing, target, _ in _imports():
        if path == PACKAGE / "__init__.py":  # the package's face: `test_the_package_...`
            continue
        if target and target[0] in WINGS and WINGS.index(target[0]) > WINGS.index(wing):
            upward.append(f"{path.relative_to(PACKAGE)} imports {'.'.join(target)}")
    assert upward == []


def test_the_package_names_only_the_public_api():
    """`import euchre_sim` is the API wing's names, nothing below it."""
    targets = {".".join(target) for path, _, target, _ in _imports()
               if path == PACKAGE / "__init__.py"}
    assert targets == {"api"}


def _faces_imports() -> dict[str, set[str]]:
    """For each module of the front ends (cli/, web/), the modules below the API it imports."""
    below = {}
    for path, wing, target, _ in _imports():
        if wing in ("cli", "web") and target and target[0] in WINGS \
                and WINGS.index(target[0]) < WINGS.index("api"):
            below.setdefault(path.relative_to(PACKAGE).as_posix(), set()).add(".".join(target))
    return below


def test_the_command_line_and_the_page_stand_on_the_public_api():
    """cli/ and web/ import the API wing and their own modules, nothing below (issue 73)."""
    assert _faces_imports() == {}


def test_no_module_imports_another_modules_private_names():
    private = [f"{path.relative_to(PACKAGE)}: {name} from {'.'.join(target)}"
               for path, _, target, names in _imports() for name in names
               if name.startswith("_") and not name.startswith("__")]
    assert private == []


def test_the_check_sees_a_violation():
    """The parser above finds relative imports across wings (so the two tests can fail)."""
    found = {(path.name, ".".join(target)) for path, _, target, _ in _imports()}
    assert ("calltable.py", "core.calls") in found
    assert ("model_strategy.py", "play.playout") in found
    assert ("serve_commands.py", "web.hosts") in found  # the CLI is checked too


# the most a reader keeps in mind at once, kernels included: a kernel's tables, players and
# buffers travel as named tuples, which Numba passes as their fields (no cost to a call)
MAX_PARAMETERS = 8
# functions still over the limit, each with its reason (none now)
LONG_KERNELS: set[str] = set()


def test_no_function_takes_more_than_max_parameters():
    """A question with many fields is a typed object built and checked in one place, and a
    kernel's tables, players and buffers travel as records (Click commands aside: their
    parameters are the options). LONG_KERNELS holds the rest, each entry still over."""
    long = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            decorators = " ".join(ast.unparse(d) for d in node.decorator_list)
            if any(word in decorators for word in ("click", "command", "option")):
                continue
            args = node.args
            count = len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
            count -= bool(args.args) and args.args[0].arg in ("self", "cls")
            if count > MAX_PARAMETERS:
                long.add(f"{path.relative_to(PACKAGE).as_posix()}: {node.name}")
    assert long == LONG_KERNELS


def _model_names() -> tuple[set[str], set[str]]:
    """(names only a play model has, names a play model shares with a bidder)."""
    from euchre_sim.bidding.params import ALL_BIDDERS
    from euchre_sim.play.models import PLAY_MODELS

    return set(PLAY_MODELS) - set(ALL_BIDDERS), set(PLAY_MODELS) & set(ALL_BIDDERS)


def _leaf(node: ast.expr) -> str:
    """The name a compared expression ends in: `player.play` -> play, `plays[0]` -> plays."""
    while isinstance(node, ast.Subscript | ast.Call):
        node = node.value if isinstance(node, ast.Subscript) else node.func
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _strings(node: ast.expr) -> list[str]:
    """The string constants of an expression, a subscript's key aside (`row["pimc"]` reads a
    field, it names no model)."""
    if isinstance(node, ast.Subscript):
        return _strings(node.value)
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    return [text for child in ast.iter_child_nodes(node) for text in _strings(child)]


def _model_name_comparisons(tree: ast.AST) -> list[str]:
    """Comparisons in `tree` with a play model's name: one only a model has, or one a bidder
    shares (dd, rules) compared with something named for play, a model or a name."""
    only, shared = _model_names()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        names = {text for o in operands for text in _strings(o)}
        leaves = " ".join(_leaf(o) for o in operands)
        if names & only or (names & shared and any(w in leaves for w in ("play", "model", "name"))):
            found.append(ast.unparse(node))
    return found


def _script_model_names(script: str) -> list[str]:
    """The play models' names a script compares with or sets (`=== "pimc"`, `= "learned"`)."""
    named = "|".join(re.escape(name) for name in set().union(*_model_names()))
    return re.findall(rf"""[=!]=?=?\s*["']({named})["']""", script)


def test_no_play_model_is_told_apart_by_its_name_outside_the_registry():
    """What a model does is a field of its record (`play.models`), so that a new model is one
    entry and its kernel: no module compares a model's name, and the page reads the registry
    (`/api/rules`) instead of naming models."""
    compared = [f"{path.relative_to(PACKAGE)}: {found}"
                for path in sorted(PACKAGE.rglob("*.py"))
                if path != PACKAGE / "play" / "models.py"
                for found in _model_name_comparisons(ast.parse(path.read_text()))]
    assert compared == []
    for script in sorted((PACKAGE / "web" / "static").glob("*.js")):
        assert _script_model_names(script.read_text()) == [], script.name


def test_the_model_name_check_sees_a_comparison():
    """The check above can fail: a model's name compared, alone or among others, and the
    bidders' own names compared with a bidder pass."""
    for source in ('play == "pimc"', 'x.play != "dd"', 'sides.plays == ("dd", "dd")',
                   'name in ("learned", "learned-search")', 'question.model == "rules"'):
        assert _model_name_comparisons(ast.parse(source)) == [ast.unparse(ast.parse(source))]
    for source in ('p.bidder == "dd"', '"dd" in bidders', 'player.bidder == "rules"',
                   'row["pimc"] is None'):
        assert _model_name_comparisons(ast.parse(source)) == []
    assert _script_model_names('if (play === "pimc") x.value = "learned";') == ["pimc",
                                                                               "learned"]
    assert _script_model_names('el("td", { "data-key": "pimc" })') == []
