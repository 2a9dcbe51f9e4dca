"""The project source files a rule function runs, found by reading the code (nothing is imported).

A rule's job depends on the code it executes, not on every file of its paper: editing a plotting
module must rerun figure jobs only, and editing a module the sweep never reaches must rerun nothing of
the sweep. ``function_sources("icml26.ski_rental.rules:figures", src)`` returns

- the file that defines the function and the ``__init__.py`` of every package on the way to it;
- every project module the function's body refers to (through the names its module imports, or
  imports inside the body), followed through the module-level helpers and constants of the same
  module that the body uses, and each such module's own imports, transitively;
- the runner that calls every rule function (``icml26.common.runner``) and what it imports.

Only modules of the ``icml26`` package are followed; third-party libraries are pinned in
``pyproject.toml`` instead. The analysis is conservative for imported modules (all their imports count)
and precise only within the rule function's own module, which is where the papers keep figure,
compute and verdict functions side by side.

Reading every module costs about a second per Snakemake start, so :func:`rule_code` keeps the answers
on disk, valid for as long as no byte of the package's ``.py`` files changes.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

PACKAGE = "icml26"
RUNNER = "icml26.common.runner"


@dataclass(frozen=True)
class Module:
    """One parsed project module: its file, what its names refer to, and every module it imports."""

    name: str
    path: Path
    is_package: bool
    imported_names: dict[str, str] = field(default_factory=dict)  # local name -> project module it may be
    definitions: dict[str, ast.AST] = field(default_factory=dict)  # top-level def/class/assignment
    imports: frozenset[str] = frozenset()  # every project module imported anywhere in the file


def module_file(name: str, src: Path) -> tuple[Path, bool] | None:
    """``icml26.a.b`` -> (src/icml26/a/b.py, False) or (src/icml26/a/b/__init__.py, True); None if absent."""
    base = src.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py", True
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py"), False
    return None


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module name an ``from ... import`` statement reads from."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    anchor = parts if is_package else parts[:-1]
    anchor = anchor[: len(anchor) - (node.level - 1)]
    return ".".join([*anchor, node.module] if node.module else anchor)


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, src: Path) -> dict[str, str]:
    """Local name -> project module for one import statement (``from m import f`` maps ``f`` to ``m``)."""
    out: dict[str, str] = {}
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == PACKAGE:
                local = alias.asname or alias.name.split(".")[0]
                out[local] = alias.name if alias.asname else PACKAGE
        return out
    base = _absolute(module, is_package, node)
    if base.split(".")[0] != PACKAGE:
        return out
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        out[alias.asname or alias.name] = submodule if module_file(submodule, src) else base
    return out


def _loaded(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, src: Path) -> set[str]:
    """The project modules an import statement loads (``import icml26.a.b`` loads icml26.a.b, binds icml26)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE}
    return set(_targets(module, is_package, node, src).values())


@cache
def parse_module(name: str, src: Path) -> Module:
    found = module_file(name, src)
    if found is None:
        raise FileNotFoundError(f"no project module {name!r} under {src}")
    path, is_package = found
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    imported: dict[str, str] = {}
    definitions: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update(_targets(name, is_package, node, src))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            definitions[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        definitions[leaf.id] = node
    every_import = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            every_import |= _loaded(name, is_package, node, src)
    return Module(name, path, is_package, imported, definitions, frozenset(every_import))


def _packages(name: str) -> list[str]:
    """``icml26.a.b`` -> [``icml26``, ``icml26.a``]: the packages Python imports first."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _reachable(start: str, neighbours) -> set[str]:
    """Everything reachable from ``start`` through ``neighbours(item)`` (start included)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(neighbours(current))
    return seen


@cache
def module_closure(name: str, src: Path) -> frozenset[Path]:
    """Files of a module, its packages, and every project module it imports, transitively."""
    seen = _reachable(name, lambda m: [*_packages(m), *parse_module(m, src).imports])
    return frozenset(parse_module(m, src).path for m in seen)


def _names_used(node: ast.AST) -> set[str]:
    """Names a definition reads, less its own parameters (a parameter may shadow a module's name)."""
    names = {leaf.id for leaf in ast.walk(node) if isinstance(leaf, ast.Name)}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        names -= {arg.arg for arg in ast.walk(node.args) if isinstance(arg, ast.arg)}
    return names


def function_sources(spec: str, src: Path, with_runner: bool = True) -> list[Path]:
    """The project files that ``module:function`` executes (see the module docstring), sorted; ``with_runner=False``
    leaves out the runner's own files where the function does not reach them itself (what a kept paper-scale job is
    keyed on: icml26.common.units)."""
    module_name, _, func = spec.partition(":")
    src = Path(src).resolve()
    module = parse_module(module_name, src)
    if func not in module.definitions:
        raise LookupError(f"{module.path.name} defines no {func!r} (rule function {spec})")
    files = (set(module_closure(RUNNER, src)) if with_runner else set()) | {module.path}
    for package in _packages(module_name):
        files.add(parse_module(package, src).path)
    definitions = module.definitions
    used: dict[str, set[str]] = {}

    def helpers(name: str) -> list[str]:  # same-module definitions a definition refers to
        used[name] = _names_used(definitions[name])
        return [u for u in used[name] if u in definitions]

    for name in _reachable(func, helpers):
        for inner in ast.walk(definitions[name]):
            if isinstance(inner, (ast.Import, ast.ImportFrom)):
                for target in _loaded(module_name, module.is_package, inner, src):
                    files |= module_closure(target, src)
        for reference in used[name] & module.imported_names.keys():
            files |= module_closure(module.imported_names[reference], src)
    return sorted(files)


def function_part(spec: str, src: Path) -> str:
    """The lines of the function's own module that its calls can run: every top-level statement that is not a
    definition (imports, constants, module docstring), and the functions and classes reached from ``function`` or
    from those statements through the module's names, decorators included, in file order. What a kept paper-scale
    job is keyed on for that file (icml26.common.units), so a verdict added beside a long step does not invalidate
    its finished jobs, while an edit to anything the step reaches does. A module that looks its own names up at run
    time (``globals()``) counts whole: what such a lookup reaches cannot be read from the code."""
    module_name, _, func = spec.partition(":")
    module = parse_module(module_name, Path(src).resolve())
    text = module.path.read_text(encoding="utf-8")
    if "globals()" in text:
        return text
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text, filename=str(module.path))
    defining = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    kept = [node for node in tree.body if not isinstance(node, defining)]
    starts = {func} | {name for node in kept for name in _names_used(node)}
    reached: set[str] = set()
    for start in starts & module.definitions.keys():
        reached |= _reachable(start, lambda name: _names_used(module.definitions[name]) & module.definitions.keys())
    kept += [node for node in tree.body if isinstance(node, defining) and node.name in reached]
    spans = sorted((min([n.lineno, *(d.lineno for d in getattr(n, "decorator_list", ()))]), n.end_lineno) for n in kept)
    return "".join("".join(lines[first - 1 : last]) for first, last in spans)


def code_text(source: str) -> str:
    """Python source without its comments, docstrings and blank lines (each line's end trimmed): what a kept
    paper-scale job is keyed on (icml26.common.units), so rewording a docstring or a comment leaves its finished
    jobs valid while any edit to the code, string literals and indentation included, does not. Positions come from
    ``tokenize`` (comments) and ``ast`` (docstrings), which agree across Python versions, and the text between them
    is kept as written."""
    import io
    import tokenize

    lines = source.split("\n")  # numbered as tokenize and ast number them (splitlines also splits at \f, \x1c, ...)
    blank: list[tuple[int, int, int, int]] = []  # (first line, first column, last line, end column), 1-based lines
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            blank.append((*token.start, *token.end))
    for node in ast.walk(ast.parse(source)):
        if (doc := _docstring(node)) is not None:
            start = _column(lines[doc.lineno - 1], doc.col_offset)
            end = _column(lines[doc.end_lineno - 1], doc.end_col_offset)
            blank.append((doc.lineno, start, doc.end_lineno, end))
    for first_line, start, last_line, end in blank:
        for number in range(first_line, last_line + 1):
            line = lines[number - 1]
            left = start if number == first_line else 0
            right = end if number == last_line else len(line)
            lines[number - 1] = line[:left] + " " * (right - left) + line[right:]
    return "\n".join(line.rstrip() for line in lines if line.strip()) + "\n"


def _docstring(node: ast.AST) -> ast.Expr | None:
    """The docstring statement of a module, class or function, if it has one."""
    if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) or not node.body:
        return None
    first = node.body[0]
    value = first.value if isinstance(first, ast.Expr) else None
    return first if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def _column(line: str, utf8_offset: int) -> int:
    """The character column of ``ast``'s UTF-8 byte offset into ``line``."""
    return len(line.encode("utf-8")[:utf8_offset].decode("utf-8"))


class RuleFunctionError(LookupError):
    """A rule names a function that is not in the project's source (``spec`` is the rule's ``module:function``)."""

    def __init__(self, spec: str, error: BaseException):
        super().__init__(str(error))
        self.spec = spec


def summary_line(spec: str, src: Path) -> str:
    """``module:function`` and the first line of the function's docstring (read from source)."""
    module_name, _, func = spec.partition(":")
    node = parse_module(module_name, Path(src).resolve()).definitions.get(func)
    doc = ast.get_docstring(node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    return spec + (f": {doc.splitlines()[0]}" if doc else "")


def package_digest(src: Path) -> str:
    """A digest of every ``.py`` file of the package, names and bytes (tens of milliseconds)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted((Path(src) / PACKAGE).rglob("*.py")):
        digest.update(f"{path.relative_to(src)}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def rule_code(specs: list[str], src: Path, store: Path) -> dict[str, tuple[list[Path], str]]:
    """``spec -> (function_sources, summary_line)`` for every rule function, answered from ``store`` (a
    JSON file) when the package is byte-for-byte the one it was computed for, else computed and stored."""
    src = Path(src).resolve()
    digest = package_digest(src)
    try:
        kept = json.loads(store.read_text())
        known = kept["functions"] if kept.get("package") == digest else {}
    except (OSError, ValueError, KeyError, TypeError):
        known = {}
    missing = [spec for spec in specs if spec not in known]
    for spec in missing:
        try:
            files = function_sources(spec, src)
        except (LookupError, FileNotFoundError, SyntaxError) as error:
            raise RuleFunctionError(spec, error) from error
        known[spec] = {"files": [str(f.relative_to(src)) for f in files], "summary": summary_line(spec, src)}
    if missing:
        store.parent.mkdir(parents=True, exist_ok=True)
        partial = store.with_name(f"{store.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps({"package": digest, "functions": known}, sort_keys=True))
        partial.replace(store)  # atomic: a Snakemake started beside this one reads the old or the new file
    return {spec: ([src / f for f in known[spec]["files"]], known[spec]["summary"]) for spec in specs}
