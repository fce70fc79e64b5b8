"""Collaborators the tests replaced, and what the real ones answer on the same calls.

A changed function's collaborators are the project's own functions it names: a global of its
module (`rate`, bound by `from shop.fx import rate`) or an attribute of a module or class it
names (`fx.rate`, `Rates.get`). Before the first test runs, the recorder notes each one's
object; whenever the changed function is entered with one of them replaced (by
`unittest.mock.patch`, `monkeypatch.setattr`, a hand-written fake), the replacement is wrapped
where it sits by a witness that records each call's arguments and the *shape* of its answer
(the witness forwards everything else, so `assert_called_with` and `return_value` still work;
the test's own undo puts the original back over it). Then the judge, in a fresh interpreter,
calls the real collaborator with the same arguments, twice, and reports its answers and their
shapes. Nothing is decided here: ag-mutate's rules (src/apart/contract-rules.ts) tell a
replacement whose answers cannot be the real one's (a float where the real answers an int, a
key the real never has) from a test that merely chose other values.

A shape is plain JSON: {"t": "none" | "bool" | "int" | "float" | "complex" | "str" | "bytes" |
"mock" | "iter"}, {"t": "raise", "type": "KeyError"} (a replacement's exception), {"t": "seq" |
"set", "items": [shape]}, {"t": "map", "keys": {key: shape} or
null, "items": [shape]}, {"t": "object", "type": "module.Qualname"}. Only exact built-in
containers are looked into, and an iterator is never drawn, so taking a shape inside the test
process changes nothing the test sees.
"""
import ast
import inspect
import io
import os
import signal
import textwrap
import types
from contextlib import redirect_stdout

MAX_CALLS_PER_COLLABORATOR = 20
MAX_ITEMS = 16
MAX_KEYS = 32
_SCALARS = {bool: "bool", int: "int", float: "float", complex: "complex", str: "str", bytes: "bytes"}


def _is_mock(value):
    return any(getattr(c, "__module__", "") == "unittest.mock" for c in type(value).__mro__)


def shape(value, depth=0):
    """The shape of a value: its kind, and for exact built-in containers the shapes inside."""
    if value is None:
        return {"t": "none"}
    kind = _SCALARS.get(type(value))
    if kind is not None:
        return {"t": kind}
    if _is_mock(value):
        return {"t": "mock"}
    t = type(value)
    if depth < 3 and t in (list, tuple):
        return {"t": "seq", "items": _distinct(shape(v, depth + 1) for v in value[:MAX_ITEMS])}
    if depth < 3 and t in (set, frozenset):
        return {"t": "set", "items": _distinct(shape(v, depth + 1) for v in list(value)[:MAX_ITEMS])}
    if depth < 3 and t is dict:
        keys = list(value)[:MAX_KEYS]
        if len(value) <= MAX_KEYS and all(type(k) is str for k in keys):
            return {"t": "map", "keys": {k: shape(value[k], depth + 1) for k in keys}, "items": []}
        return {"t": "map", "keys": None, "items": _distinct(shape(value[k], depth + 1) for k in keys[:MAX_ITEMS])}
    if hasattr(t, "__next__") and hasattr(t, "__iter__"):
        return {"t": "iter"}
    return {"t": "object", "type": "%s.%s" % (getattr(t, "__module__", "?"), getattr(t, "__qualname__", t.__name__))}


def _distinct(shapes):
    out = []
    for s in shapes:
        if s not in out:
            out.append(s)
    return out


def _names(code):
    """Every name a code object and the code nested in it load (globals, attributes)."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names(c)
    return names


def _own_function(value, root):
    """The plain function behind `value` when the project (a file under `root`, not an installed package) defines it."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if not inspect.isfunction(value):
        return None
    path = os.path.realpath(value.__code__.co_filename)
    if not path.startswith(root + os.sep) or "site-packages" in path or "dist-packages" in path:
        return None
    return value


def collaborators(fn, namespace, root):
    """The project's functions `fn` names, as {name: (holder, attribute, original)}: a global of its
    module (holder: the module's dict) or an attribute of a module or class it names."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return {}
    names = _names(code)
    found = {}
    for name in names:
        if name.startswith("__") or name not in namespace:
            continue
        value = namespace[name]
        if inspect.ismodule(value) or inspect.isclass(value):
            own = vars(value)
            for attr in names:
                original = own.get(attr)
                if original is not None and _own_function(original, root) is not None:
                    found["%s.%s" % (name, attr)] = (value, attr, original)
        elif value is not fn and _own_function(value, root) is not None:
            found[name] = (namespace, name, value)
    return found


def current(holder, attr):
    return holder.get(attr) if isinstance(holder, dict) else vars(holder).get(attr)


def put(holder, attr, value):
    if isinstance(holder, dict):
        holder[attr] = value
    else:
        setattr(holder, attr, value)


class Witness:
    """Stands where a replacement sat: calls it, notes each call and the shape of its answer, and
    forwards every other attribute to it."""

    __slots__ = ("_ag_target", "_ag_note")

    def __init__(self, target, note):
        object.__setattr__(self, "_ag_target", target)
        object.__setattr__(self, "_ag_note", note)

    def __call__(self, *args, **kwargs):
        target = object.__getattribute__(self, "_ag_target")
        note = object.__getattribute__(self, "_ag_note")
        try:
            result = target(*args, **kwargs)
        except Exception as error:
            _quietly(note, args, kwargs, {"t": "raise", "type": type(error).__qualname__})
            raise
        _quietly(note, args, kwargs, shape(result))
        return result

    def __get__(self, instance, owner=None):
        target = object.__getattribute__(self, "_ag_target")
        if instance is None or not hasattr(target, "__get__") or _is_mock(target):
            return self
        return types.MethodType(self, instance)

    def __getattr__(self, name):
        return getattr(object.__getattribute__(self, "_ag_target"), name)

    def __setattr__(self, name, value):
        setattr(object.__getattribute__(self, "_ag_target"), name, value)

    def __repr__(self):
        return repr(object.__getattribute__(self, "_ag_target"))


def _quietly(note, args, kwargs, answer):
    try:
        note(args, kwargs, answer)
    except Exception:
        pass


def is_witness(value):
    return type(value) is Witness


# The judge's side: the real collaborator, in a fresh interpreter, on the recorded calls.


def resolve(namespace, name):
    """The real collaborator `name` (`rate` or `fx.rate`) in a freshly imported module's namespace."""
    parts = name.split(".")
    value = namespace[parts[0]]
    for part in parts[1:]:
        value = getattr(value, part)
    return value


def declared_raises(real):
    """The exception names the real collaborator's own source raises (`raise NotFound(...)`)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(real)))
    except Exception:
        return []
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name):
                names.add(target.id)
            elif isinstance(target, ast.Attribute):
                names.add(target.attr)
    return sorted(names)


def real_answers(real, calls, namespace):
    """Each recorded call made of the real collaborator: its answer as text and its shape (a forked child's work)."""
    from ag_mutate_equiv import _Timeout, _copy, _mask, _show  # the judge's side only

    out = []
    for args in calls:
        positional, keyword = _copy(args, namespace)
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        try:
            with redirect_stdout(io.StringIO()):
                value = real(*positional, **keyword)
                out.append({"answer": "value " + _show(value)[:2000], "shape": shape(value)})
        except _Timeout:
            out.append({"answer": "timeout", "shape": None})
        except Exception as error:
            out.append({"answer": "raise %s: %s" % (type(error).__qualname__, _mask(str(error))[:300]), "shape": None})
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return out
