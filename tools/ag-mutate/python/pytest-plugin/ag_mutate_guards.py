"""A new function's guards keyed on exact values, made false: the function without its special cases.

A new function has no baseline version to tell a special case on the tests' inputs from a
general change. Its keyed guards stand in for it: an `if` directly in the function's body, with
no `else`, that ends in `return` or `raise`, and whose test compares a parameter with literal
numbers or strings (`year == 1900`, `code in (404, 410)`, `a == 100 and n == 3`) or looks a
parameter up in a module-level table (`n in _CANONICAL`, `_KNOWN.get(year)`, `_KNOWN.get(year)
is not None`). The footprint calls the function with
those tests made `False` beside the function itself, as it calls the baseline's version beside a
changed one; ag-mutate's rules (src/apart/rules.ts) decide.
"""
import ast
import copy


def _literal(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, str, bytes)) and not isinstance(node.value, bool)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return len(node.elts) > 0 and all(_literal(e) for e in node.elts)
    return False


def _lookup(node, params):
    """`TABLE.get(param)`, TABLE a name that is no parameter."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id not in params
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id in params
    )


def _keyed(test, params):
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return all(_keyed(v, params) for v in test.values)
    if _lookup(test, params):
        return True
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return False
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if isinstance(op, (ast.IsNot, ast.NotEq)) and _lookup(left, params):
        return isinstance(right, ast.Constant) and right.value is None
    if isinstance(op, ast.Eq) and isinstance(right, ast.Name) and right.id in params:
        left, right = right, left
    if not (isinstance(left, ast.Name) and left.id in params):
        return False
    if isinstance(op, ast.Eq):
        return _literal(right)
    if isinstance(op, ast.In):
        return _literal(right) or (isinstance(right, ast.Name) and right.id not in params)
    return False


def unguarded(node):
    """A copy of the def `node` with its keyed guards' tests made False, or None when it has none."""
    a = node.args
    params = {p.arg for p in getattr(a, "posonlyargs", []) + a.args + a.kwonlyargs}
    variant = copy.deepcopy(node)
    changed = False
    for stmt in variant.body:
        if (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and isinstance(stmt.body[-1], (ast.Return, ast.Raise))
            and _keyed(stmt.test, params)
        ):
            stmt.test = ast.copy_location(ast.Constant(False), stmt.test)
            changed = True
    return variant if changed else None
