"""Per-test coverage of mutation sites by probes, for ag-mutate's pytest plugin.

sys.settrace slows every frame of every module (on 3.11 tracing turns the specialising
interpreter off): a suite of generators and arithmetic ran 5x slower traced. Instead, the
wanted files are imported through a loader that compiles them with a probe call before each
statement whose lines meet a site's lines; nothing else changes (line numbers, docstrings and
`from __future__` imports stay where they were). A probe records the site lines its statement
stands for: a simple statement its lines within the site's range, a compound one its header.
A file imported before the loader was installed has no probes and records nothing: its sites
are then unknown to the map, never uncovered.
"""
import ast
import importlib.machinery
import os
import sys

PROBE = "__ag_mutate_probe__"


def _header_end(stmt):
    """The last line of a compound statement's header (the line before its first child)."""
    children = [
        child.lineno
        for field in ("body", "handlers", "orelse", "finalbody", "cases")
        for child in getattr(stmt, field, None) or []
        if hasattr(child, "lineno")
    ]
    return max(stmt.lineno, min(children) - 1) if children else stmt.end_lineno


def _is_docstring(body, i):
    s = body[i]
    return i == 0 and isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)


def _is_future(s):
    return isinstance(s, ast.ImportFrom) and s.module == "__future__"


class _Insert(ast.NodeTransformer):
    def __init__(self, ranges):
        self.ranges = ranges

    def _lines(self, stmt):
        compound = any(getattr(stmt, f, None) for f in ("body", "handlers", "orelse", "finalbody", "cases"))
        first, last = stmt.lineno, (_header_end(stmt) if compound else stmt.end_lineno)
        out = []
        for a, b in self.ranges:
            out.extend(range(max(a, first), min(b, last) + 1))
        return sorted(set(out))

    def _body(self, body):
        out = []
        for i, stmt in enumerate(body):
            self.visit(stmt)
            lines = [] if _is_docstring(body, i) or _is_future(stmt) else self._lines(stmt)
            if lines:
                call = ast.Call(ast.Name(PROBE, ast.Load()), [ast.Constant(tuple(lines))], [])
                out.append(ast.copy_location(ast.Expr(call), stmt))
            out.append(stmt)
        return out

    def generic_visit(self, node):
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and all(isinstance(v, ast.stmt) for v in value):
                setattr(node, field, self._body(value))
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.AST):
                        self.visit(v)
            elif isinstance(value, ast.AST):
                self.visit(value)
        return node


def probed_code(source, path, ranges):
    """The module's code with probes before the statements that meet `ranges`."""
    tree = ast.parse(source, path)
    tree.body = _Insert(ranges)._body(tree.body)
    ast.fix_missing_locations(tree)
    return compile(tree, path, "exec", dont_inherit=True)


class _Loader(importlib.machinery.SourceFileLoader):
    """Compiles from source every time (never a cached .pyc) through `build`, and prepares the module with `prepare`."""

    def __init__(self, fullname, path, build, prepare):
        super().__init__(fullname, path)
        self._build = build
        self._prepare = prepare

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self._build(self.get_data(path), path)

    def exec_module(self, module):
        self._prepare(module, os.path.realpath(self.path))
        super().exec_module(module)


class CompilingFinder:
    """A meta path finder for some files: the standard search, with a loader that compiles them its own way.

    `files` maps a real path to (build, prepare): build(source bytes, path) -> code object,
    prepare(module, real path) runs before the module's code.
    """

    def __init__(self, files):
        self.files = files

    def find_spec(self, fullname, path=None, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        origin = None if spec is None else spec.origin
        if origin is None or not origin.endswith(".py"):
            return None
        own = self.files.get(os.path.realpath(origin))
        if own is None:
            return None
        spec.loader = _Loader(fullname, origin, *own)
        return spec

    def install(self):
        sys.meta_path.insert(0, self)

    def remove(self):
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def Finder(ranges, hit):
    """The probing finder: the wanted files compiled with probes that report to hit(real path, lines)."""

    def own(rs):
        def build(source, path):
            return probed_code(source, path, rs)

        def prepare(module, real):
            module.__dict__[PROBE] = lambda lines: hit(real, lines)
            hit(real, ())

        return build, prepare

    return CompilingFinder({os.path.realpath(f): own([tuple(r) for r in rs]) for f, rs in ranges.items()})
