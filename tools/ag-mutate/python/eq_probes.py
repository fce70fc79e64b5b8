"""Equality probes of Python files: ag-mutate's equality/py-hooks.ts asks, this answers.

Reads {"files": [{path, text, baseline, lines}]} on stdin (baseline: the file's old side, or
null; lines: the added lines) and writes {"files": [{path, error, probes: [{hook, line, column,
body_lines, comparison, fields, replacement, parses}]}]} on stdout.

A hook is a `__eq__` defined directly in a class body; the patch adds or changes it when one of
its lines (decorators included) is an added line and its code is not the baseline's. A hook the
patch leaves as it was is probed too when the patch gives its class public fields (assigned to
`self.NAME`, or annotated in the class body) that the hook does not read: the strict comparison
is then the patch's own hook with those fields equal too (`comparison: new_fields`). Its probe
is appended at the end of the file (no line moves): it wraps the class's `__eq__` so that it
answers "not equal" (or NotImplemented, for another type) wherever the strict comparison tells
the values apart, and the patch's own answer elsewhere. The strict comparison is the baseline's
`__eq__` where the baseline has the same class with one (and its body reads no private name, no
`super` and no `__class__`, which only work inside the class), else `type(other) is
type(self)` and the instance state (`vars()` and every `__slots__` entry) equal.
"""
import ast
import json
import sys
import textwrap

STATE = '''    def _ag_state(o):
        out = dict(vars(o)) if hasattr(o, "__dict__") else {}
        for c in type(o).__mro__:
            slots = c.__dict__.get("__slots__", ())
            for n in (slots,) if isinstance(slots, str) else slots:
                if n in ("__dict__", "__weakref__"):
                    continue
                if n.startswith("__") and not n.endswith("__"):
                    n = "_" + c.__name__.lstrip("_") + n
                if hasattr(o, n):
                    out[n] = getattr(o, n)
        return out

    def _ag_strict(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return _ag_state(self) == _ag_state(other)
'''

WRAP = '''

# adversary-gate: the equality probe of {hook} (not part of the patch)
def _ag_eq_probe(_ag_cls):
    _ag_patch = _ag_cls.__dict__.get("__eq__")
    if getattr(getattr(_ag_patch, "__code__", None), "co_firstlineno", None) != {first}:
        raise RuntimeError("adversary-gate equality probe: {hook} is not the hook at line {first}")
{strict}
    def _ag_probe(self, other):
        verdict = _ag_strict(self, other)
        if verdict is NotImplemented or not verdict:
            return verdict
        return _ag_patch(self, other)

    _ag_cls.__eq__ = _ag_probe


_ag_eq_probe({hook_cls})
del _ag_eq_probe
'''


def hooks(tree):
    """Every `__eq__` directly in a class body: (dotted class path or None when not reachable
    from the module's globals, the class name, the function node, the class node)."""
    out = []

    def visit(body, path):
        for node in body:
            if isinstance(node, ast.ClassDef):
                inner = None if path is None else path + [node.name]
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "__eq__":
                        out.append((inner, node.name, item, node))
                visit(node.body, inner)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(node.body, None)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    part = getattr(node, field, None)
                    if isinstance(part, list):
                        visit(part, path)
                for case in getattr(node, "cases", []) or []:
                    visit(case.body, path)

    visit(tree.body, [])
    return out


def first_line(fn):
    return fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno


def portable(fn):
    """May this `__eq__` run outside its class? No private names, no super(), no __class__."""
    for node in ast.walk(fn):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name is None:
            continue
        if name in ("super", "__class__") or (name.startswith("__") and not name.endswith("__")):
            return False
    return not fn.decorator_list and not isinstance(fn, ast.AsyncFunctionDef)


def public_fields(cls):
    """The public fields of a class: what its methods assign to `self.NAME` (their first
    parameter's attributes) and its annotated class attributes (a dataclass's fields); names
    starting with `_` (caches, private state) are not counted."""
    names = set()
    for item in cls.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) or not item.args.args:
            continue
        me = item.args.args[0].arg
        for node in ast.walk(item):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(el, ast.Attribute) and isinstance(el.value, ast.Name) and el.value.id == me:
                        names.add(el.attr)
    return {n for n in names if not n.startswith("_")}


def read_names(fn):
    """Every attribute name and string constant an `__eq__` reads (a field it compares)."""
    out = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
    return out


NEW_FIELDS = '''    def _ag_strict(self, other):
        if type(other) is not type(self):
            return True
        return all(getattr(self, n, None) == getattr(other, n, None) for n in {names!r})
'''


def baseline_strict(text, fn):
    lines = text.split("\n")[fn.lineno - 1 : fn.end_lineno]
    source = textwrap.dedent("\n".join(lines))
    return textwrap.indent(source, "    ") + "\n\n    _ag_strict = __eq__\n"


def probes_for(path, text, baseline, lines):
    try:
        tree = ast.parse(text, path)
    except SyntaxError as e:
        return {"path": path, "error": f"line {e.lineno}: {e.msg}", "probes": []}
    before = {}
    classes_before = {}
    if baseline is not None:
        try:
            for dotted, _, fn, cls in hooks(ast.parse(baseline, path)):
                if dotted is not None:
                    before[".".join(dotted)] = fn
                    classes_before[".".join(dotted)] = cls
        except SyntaxError:
            before = {}
            classes_before = {}
    out = []
    for dotted, cls_name, fn, cls in hooks(tree):
        first = first_line(fn)
        hook = ".".join(dotted or [cls_name]) + ".__eq__"
        base = before.get(".".join(dotted)) if dotted is not None else None
        new_fields = []
        if not any(first <= n <= fn.end_lineno for n in lines) or (base is not None and ast.dump(base) == ast.dump(fn)):
            # The hook as it was, in a class the patch gives public fields it does not read:
            # probed with those fields compared too.
            old_cls = classes_before.get(".".join(dotted)) if dotted is not None else None
            touched = any(first_line(cls) <= n <= cls.end_lineno for n in lines)
            if old_cls is None or not touched:
                continue
            new_fields = sorted(public_fields(cls) - public_fields(old_cls) - read_names(fn))
            if not new_fields:
                continue
        body_first = fn.body[0].lineno
        if len(fn.body) > 1 and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant):
            body_first = fn.body[1].lineno
        comparison = "new_fields" if new_fields else "baseline" if base is not None and portable(base) else "fields"
        if dotted is None:
            replacement, parses = "", False
        else:
            strict = (
                NEW_FIELDS.format(names=tuple(new_fields)) if new_fields
                else baseline_strict(baseline, base) if comparison == "baseline" else STATE
            )
            replacement = WRAP.format(hook=hook, first=first, strict=strict, hook_cls=".".join(dotted))
            if not text.endswith("\n") and text != "":
                replacement = "\n" + replacement
            try:
                compile(text + replacement, path, "exec", dont_inherit=True)
                parses = True
            except (SyntaxError, ValueError):
                parses = False
        out.append({
            "hook": hook,
            "line": fn.lineno,
            "column": fn.col_offset + 1,
            "body_lines": [body_first, fn.end_lineno],
            "comparison": comparison,
            "fields": new_fields,
            "replacement": replacement,
            "parses": parses,
        })
    return {"path": path, "error": None, "probes": out}


def main():
    request = json.load(sys.stdin)
    answer = [probes_for(f["path"], f["text"], f.get("baseline"), set(f.get("lines", []))) for f in request["files"]]
    json.dump({"files": answer}, sys.stdout)


if __name__ == "__main__":
    main()
