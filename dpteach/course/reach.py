"""What a function's code reaches, read from its source without running it: whether it reaches the interpreter's
insides (:func:`out_of_bounds`: such a cell is not run at all) and whether it writes the function by hand
(:func:`library_route`: numpy and math only, no dpteach, no other library's sampler, no copy of dpteach's own code).

Every function here takes the source :class:`dpteach.course.reading.Cell` keeps of a function's cell (IPython's
magics commented out, the chapter's checker calls left out), which :mod:`ast` parses.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Sequence

__all__ = ["FORBIDDEN_ATTRIBUTES", "HAND_MODULES", "INTROSPECTION", "allowed_helpers", "library_route", "out_of_bounds",
           "reaches_forbidden"]


#: What a function's cell may not touch at all: the interpreter's insides. A mechanism needs none of it,
#: and with it a function could look at its caller or rewrite the checker's runner in its own process.
INTROSPECTION = {"sys", "inspect", "traceback", "gc", "ctypes", "os", "importlib", "builtins", "types", "threading",
                 "subprocess", "signal", "__import__", "eval", "exec", "compile", "globals", "locals", "vars",
                 "getattr", "setattr", "delattr", "open", "breakpoint", "__builtins__",
                 "pickle", "_pickle", "marshal", "copyreg", "shelve", "dill", "cloudpickle", "joblib"}
#: Attributes a function's cell may not use: frames, the module table, and loading pickled data
#: (``np.load(..., allow_pickle=True)`` unpickles, and a pickle can name any callable: ``eval``, ``os.system``).
#: ``exercises`` and ``course``: the checkers and the runner that calls the function (patching the generator
#: it hands over would make a function look like another in grading only).
FORBIDDEN_ATTRIBUTES = ("_getframe", "modules", "load", "loads", "fromfile", "exercises", "course")
#: The only modules a hand-written function's cell may import.
HAND_MODULES = {"numpy", "math"}


def out_of_bounds(source: str) -> str | None:
    """Why the cell reaches the interpreter's insides (a name of :data:`INTROSPECTION`, any dunder
    attribute, a frame's attributes, an attribute of :data:`FORBIDDEN_ATTRIBUTES`, ``allow_pickle``), or None.
    In the sandbox, :func:`dpteach.course.inside.guard` refuses the same routes when taken another way.
    Such a cell is not run: its function gets no point."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in INTROSPECTION:
            return f"it uses `{node.id}`"
        if isinstance(node, ast.Attribute) and (node.attr.startswith("__") or node.attr.startswith(("f_", "tb_", "gi_"))
                                                or node.attr in FORBIDDEN_ATTRIBUTES):
            return f"it uses `.{node.attr}`"
        if isinstance(node, ast.keyword) and node.arg == "allow_pickle":
            return "it passes `allow_pickle`"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                module = (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
                root = module.split(".")[0]
                parts = set(module.split(".")) | {alias.name}
                if root in INTROSPECTION or alias.name in INTROSPECTION or parts & {"exercises", "course"}:
                    return f"it imports `{module if isinstance(node, ast.Import) else module + '.' + alias.name}`"
    return None


def allowed_helpers(prompt: str) -> tuple[str, ...]:
    """The dpteach functions an exercise's prompt allows by name ("You may use `dp.all_databases`")."""
    found = re.search(r"[Yy]ou may use ((?:`dp\.\w+`(?:,\s*|\s+and\s+|\s+or\s+)?)+)", prompt)
    return tuple(re.findall(r"`dp\.(\w+)`", found.group(1))) if found else ()


def library_route(source: str, forbidden: Sequence[str], originals: dict[str, str] | None = None,
                  allowed: Sequence[str] = ()) -> str | None:
    """Why the cell does not write the function by hand, or None: it reaches a forbidden dpteach name
    (:func:`reaches_forbidden`), uses dpteach otherwise than as ``dp.<name>`` of a helper the exercise
    allows (``allowed``, from its prompt: :func:`allowed_helpers`), imports anything but numpy and math
    (scipy's Laplace, say), or holds a copy of a forbidden function's own source (``originals``: name →
    source), whatever its names."""
    reached = reaches_forbidden(source, forbidden)
    if reached:
        return f"your cell reaches dp.{reached}"
    tree = ast.parse(source)
    helpers = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id == "dp" and node.attr in allowed}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in ("dp", "dpteach") and id(node) not in helpers:
            return f"your cell uses `{node.id}`" + (f" beyond {', '.join(f'dp.{a}' for a in allowed)}" if allowed else "")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "dpteach" in node.value:
            return "your cell names dpteach in a string"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                module = (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
                if module.split(".")[0] not in HAND_MODULES:
                    return f"your cell imports `{module}`"
    mine = {_shape(node) for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for name, text in (originals or {}).items():
        try:
            theirs = [_shape(n) for n in ast.parse(textwrap.dedent(text)).body if isinstance(n, ast.FunctionDef)]
        except SyntaxError:
            continue
        if mine & set(theirs):
            return f"your cell holds a copy of dp.{name}'s own code"
    return None


def _shape(function: ast.FunctionDef) -> str:
    """A function's body as a tree, its docstring and its own names left out (a copy renamed is the same)."""
    body = function.body[1:] if function.body and isinstance(function.body[0], ast.Expr) and \
        isinstance(function.body[0].value, ast.Constant) and isinstance(function.body[0].value.value, str) else function.body
    names = {a.arg: f"_{i}" for i, a in enumerate(function.args.posonlyargs + function.args.args + function.args.kwonlyargs)}
    module = ast.Module(body=[ast.parse(ast.unparse(statement)).body[0] for statement in body], type_ignores=[])
    for node in ast.walk(module):
        if isinstance(node, ast.Name):
            node.id = names.get(node.id, node.id)
    return ast.dump(module, annotate_fields=False)


def reaches_forbidden(source: str, forbidden: Sequence[str]) -> str | None:
    """The forbidden dpteach name that a function's cell reaches, read from its source (never run), or None.

    Compiled, then every code object is read: an attribute, an import or an import alias of a forbidden
    name, a global of that name that the cell does not define itself, a string equal to it
    (``getattr(dp, "laplace_mechanism")``), or ``from dpteach... import *``.
    """
    import dis
    import types
    if not forbidden:
        return None
    code = compile(source, "<answer cell>", "exec")
    tree = ast.parse(source)
    own = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and not _mentions(node.value, forbidden):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own.update(t.id for t in targets if isinstance(t, ast.Name))
    codes = [code]
    if _imports_dpteach(tree):      # `from dpteach… import *` (an opcode before 3.12, an intrinsic call after)
        return forbidden[0]
    while codes:
        current = codes.pop()
        # before Python 3.11 a def stores its function's name as a string constant beside its code:
        # the name of a function the student defines is not a string reaching a forbidden function
        defined = {const.co_name for const in current.co_consts if isinstance(const, types.CodeType)}
        for const in current.co_consts:
            if isinstance(const, types.CodeType):
                codes.append(const)
            elif isinstance(const, str) and const in forbidden and const not in defined:
                return const
        for instruction in dis.get_instructions(current):
            name = instruction.argval
            if not isinstance(name, str):
                continue
            base = name.rsplit(".", 1)[-1]
            if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM", "IMPORT_NAME", "STORE_ATTR") \
                    and base in forbidden:
                return base
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and name in forbidden and name not in own:
                return name
    return None


def _mentions(node: ast.AST, forbidden: Sequence[str]) -> bool:
    return any((isinstance(n, ast.Name) and n.id in forbidden) or (isinstance(n, ast.Attribute) and n.attr in forbidden)
               for n in ast.walk(node))


def _imports_dpteach(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.ImportFrom) and (n.module or "").startswith("dpteach") and
               any(alias.name == "*" for alias in n.names) for n in ast.walk(tree))
