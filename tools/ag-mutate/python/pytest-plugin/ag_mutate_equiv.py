"""The outcomes of a surviving mutant's function, for ag-mutate's differential check.

The calls come from the tests (ag_mutate_record.py, inside pytest); the check runs in the
judge (ag_mutate_judge.py), a fresh interpreter that is not pytest and imported the module
under test afresh. Each version of the function is called on the distinct recorded calls
and on neighbours of them (one argument changed at a time: numbers one off, zero, the
constants the function holds; strings and sequences emptied, cut, reversed, turned into an
iterator), each version in a forked process of its own, so no version sees what another
left in memory:

- `live`: the function as the freshly imported module holds it (the unmutated code), on the
  recorded calls;
- `rebuilt`: the unmutated function compiled again from the file's text, as the mutants are;
- each mutant, compiled from its text into a copy of the module's globals.

An outcome is the return value (a generator or iterator drawn up to MAX_ITEMS items) or the
exception's type and message, the arguments after the call, the data the module holds after
it, and what was printed; memory addresses are masked. Nothing is decided here: the outcomes
go back to ag-mutate, whose rules (src/apart/rules.ts) tell a probably equivalent mutant, one
an input tells apart, and a check that concludes nothing. This module also describes values
for those rules (`arg_facts`, `literals`) and for the notes (`call_text`).
"""
import ast
import copy
import decimal
import fractions
import inspect
import io
import itertools
import json
import os
import re
import select
import signal
import sys
import time
from contextlib import redirect_stdout

from ag_mutate_record import find_def

MAX_ITEMS = 2000
CALL_SECONDS = 0.5
VERSION_SECONDS = 30.0
MAX_NEIGHBOURS = 24
MAX_LITERAL = 40
ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")


class _Timeout(BaseException):
    """Raised in a call that ran past CALL_SECONDS (a BaseException: the function cannot catch it as an Exception)."""


def _copy(value, namespace):
    """A deep copy that keeps the module's own objects (a sentinel such as `_marker`) as they are."""
    memo = {id(v): v for v in (namespace or {}).values()}
    return copy.deepcopy(value, memo)


def _mask(text):
    return ADDRESS.sub("0x?", text)


def _is_iterator(value):
    return hasattr(value, "__next__") and hasattr(value, "__iter__")


def _show(value, depth=0):
    """A value as text to compare: containers item by item, an object without a repr of its own by its attributes."""
    if depth > 4:
        return "…"
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return repr(value)[:4000]
    if isinstance(value, (list, tuple)):
        return "%s[%s]" % (type(value).__qualname__, ", ".join(_show(v, depth + 1) for v in value[:MAX_ITEMS]))
    if isinstance(value, (set, frozenset)):
        return "%s{%s}" % (type(value).__qualname__, ", ".join(sorted(_show(v, depth + 1) for v in value)))
    if isinstance(value, dict):
        items = ("%s: %s" % (_show(k, depth + 1), _show(v, depth + 1)) for k, v in list(value.items())[:MAX_ITEMS])
        return "%s{%s}" % (type(value).__qualname__, ", ".join(items))
    if _is_iterator(value):
        return "iter:" + _show(list(itertools.islice(value, MAX_ITEMS)), depth + 1)
    if type(value).__repr__ is object.__repr__:
        attrs = getattr(value, "__dict__", None)
        slots = [n for c in type(value).__mro__ for n in getattr(c, "__slots__", ()) if isinstance(n, str) and hasattr(value, n)]
        fields = dict(attrs) if isinstance(attrs, dict) else {}
        fields.update({n: getattr(value, n) for n in slots})
        return "%s(%s)" % (type(value).__qualname__, ", ".join("%s=%s" % (k, _show(v, depth + 1)) for k, v in sorted(fields.items())))
    return "%s:%s" % (type(value).__qualname__, _mask(repr(value))[:4000])


def _outcome(fn, args, namespace):
    """What one call shows: its value or exception, the arguments after it, its printed output."""
    positional, keyword = _copy(args, namespace)
    out = io.StringIO()
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        with redirect_stdout(out):
            value = fn(*positional, **keyword)
            shown = _show(value)
        result = "value " + shown
    except _Timeout:
        return "timeout"
    except Exception as error:  # the function's own failure is part of its outcome
        result = "raise %s: %s" % (type(error).__qualname__, _mask(str(error))[:1000])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        after = _show(positional) + " " + _show(keyword)
    except Exception:
        after = "?"
    return "%s | args %s | module %s | printed %s" % (result, after, _state(fn), _mask(out.getvalue())[:2000])


def _state(fn):
    """The data the function's module holds (not its modules, functions or classes): a side effect there is an outcome too.
    The private data only this function names (a memo cache beside it) shows in its answers, which are compared: left out."""
    namespace = getattr(inspect.unwrap(fn), "__globals__", None)
    if not isinstance(namespace, dict):
        return "?"
    own = own_data(namespace.get("__file__"), getattr(fn, "__name__", None))
    parts = []
    for name in sorted(namespace):
        value = namespace[name]
        if name.startswith("__") or callable(value) or inspect.ismodule(value) or name in own:
            continue
        try:
            parts.append("%s=%s" % (name, _show(value)[:500]))
        except Exception:
            parts.append("%s=?" % name)
    return ";".join(parts)[:8000]


_OWN = {}


def own_data(path, function):
    """The module's private names (`_name`) that only the top-level def `function` names, and reads (a
    memo cache): no other def, class or module-level statement names them but their own assignment.
    A name only written (a log nothing reads) is no one's own. Empty when unknown."""
    if not isinstance(path, str) or not isinstance(function, str):
        return frozenset()
    if path not in _OWN:
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            tree = None
        _OWN[path] = _owners(tree) if tree is not None else ({}, set())
    owners, read = _OWN[path]
    return frozenset(n for n, o in owners.items() if o == {function} and n in read)


def _writes(tree):
    """The Name nodes whose use only writes: assigned, or the object of an item assigned or deleted,
    or of a method called as a statement of its own (`_log.append(x)`)."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(id(n))
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            out.add(id(n.target))
        elif isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)) and isinstance(n.value, ast.Name):
            out.add(id(n.value))
        elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute):
            if isinstance(n.value.func.value, ast.Name):
                out.add(id(n.value.func.value))
    return out


def _owners(tree):
    """Each private name the module names: the top-level defs that name it ("" for anywhere else), and
    the names some use reads."""
    owners, read = {}, set()
    writes = _writes(tree)
    for top in tree.body:
        owner = top.name if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) else ""
        declared = set()
        if isinstance(top, (ast.Assign, ast.AnnAssign)):
            targets = top.targets if isinstance(top, ast.Assign) else [top.target]
            declared = {id(t) for t in targets if isinstance(t, ast.Name)}
        for n in ast.walk(top):
            if isinstance(n, ast.Name) and n.id.startswith("_") and id(n) not in declared:
                owners.setdefault(n.id, set()).add(owner)
                if id(n) not in writes:
                    read.add(n.id)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.startswith("_"):
                owners.setdefault(n.value, set()).add("")  # named in a string (__all__, getattr): anyone's
    return owners, read


def literals(node):
    """The integer and short string constants a def holds, as written (booleans aside)."""
    ints, strs = set(), set()
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and not isinstance(n.value, bool):
            if isinstance(n.value, int):
                ints.add(n.value)
            elif isinstance(n.value, str) and len(n.value) <= MAX_LITERAL:
                strs.add(n.value)
    return sorted(ints), sorted(strs)


def _constants(node):
    """The neighbours' constants: a def's integers one off either way too, and its short strings."""
    ints, strs = literals(node)
    return sorted({x for v in ints for x in (v - 1, v, v + 1)}), strs


def _int_text(value):
    """An integer in decimal (a subclass's by its value, whatever its repr); None when it has too many digits to be written."""
    try:
        return int.__repr__(value)
    except ValueError:
        return None


def literal_facts(node):
    """`literals(node)` as ag-mutate reads them: the integers in decimal."""
    ints, strs = literals(node)
    return {"ints": [t for t in map(_int_text, ints) if t is not None], "strs": strs}


def _fact(value):
    """One argument as ag-mutate's rules read it (src/apart/argument-rules.ts, ArgFact): its kind, and its
    value or size where a base case or a constant could be told by them."""
    if value is None:
        return {"kind": "none"}
    if isinstance(value, bool):
        return {"kind": "bool"}
    if isinstance(value, int):
        text = _int_text(value)
        return {"kind": "other"} if text is None else {"kind": "int", "value": text, "exact": type(value) is int}
    if type(value) is float:
        return {"kind": "float", "value": repr(value)}
    if isinstance(value, str):
        return {"kind": "str", "value": str.__str__(value) if len(value) <= MAX_LITERAL else None, "size": len(value)}
    if isinstance(value, (list, tuple, dict, set, frozenset, bytes)):
        return {"kind": "sized", "size": len(value)}
    return {"kind": "other"}


def arg_facts(args):
    """A call's arguments (positional, then keyword values) as ag-mutate's rules read them."""
    positional, keyword = args
    return [_fact(v) for v in list(positional) + list(keyword.values())]


def _variants(value, ints, strs, wide=False):
    """Values near `value`: the same kind, changed a little (`wide`: numbers also ±10 and times ten)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        far = [value + 10, value - 10, 10 * value] if wide else []
        return [value - 1, value + 1, 0, -value, 2 * value, value // 2] + far + ints
    if isinstance(value, float):
        return [0.0, value + 0.5, value - 0.5, -value]
    if isinstance(value, (decimal.Decimal, fractions.Fraction)):
        try:
            return [value - 1, value + 1, type(value)(0), -value, 2 * value, value / 2]
        except (ArithmeticError, ValueError):  # NaN, infinities, a context that traps
            return []
    if isinstance(value, str):
        return ["", value + " ", " " + value, value[:1], value[1:], value[::-1], value.upper()] + strs
    if isinstance(value, (list, tuple)):
        kind = type(value)
        out = [kind(), kind(value[:1]), kind(value[::-1]), kind(list(value) + list(value[-1:])), iter(list(value))]
        out.append(tuple(value) if isinstance(value, list) else list(value))
        return out
    if isinstance(value, dict):
        return [{}, dict(list(value.items())[:1])]
    if isinstance(value, (set, frozenset)):
        return [type(value)(), list(value)]
    return []


def _peer_kind(value):
    """A number or a string (never a bool): a kind two arguments are compared as."""
    return isinstance(value, (int, float, str, decimal.Decimal, fractions.Fraction)) and not isinstance(value, bool)


def _neighbours(calls, ints, strs, namespace, wide=False):
    out, seen = [], set()
    for positional, keyword in calls:
        slots = [("p", i) for i in range(len(positional))] + [("k", k) for k in keyword]
        values = list(positional) + list(keyword.values())
        for kind, key in slots:
            current = positional[key] if kind == "p" else keyword[key]
            # Another argument of its kind too: a comparison between two arguments turns where they meet.
            peers = [v for v in values if v is not current and _peer_kind(v) and type(v) is type(current)]
            for near in _variants(current, ints, strs, wide) + peers:
                p, k = list(positional), dict(keyword)
                if kind == "p":
                    p[key] = near
                else:
                    k[key] = near
                try:
                    shown = _show(_copy((p, k), namespace))
                except Exception:
                    continue
                if shown not in seen:
                    seen.add(shown)
                    out.append((p, k))
                if len(out) >= MAX_NEIGHBOURS * max(1, len(calls)):
                    return out
    return out


def _in_child(fn_factory, inputs, namespace):
    """Every input's outcome, computed in a forked process; None when the child failed or ran too long."""

    def work():
        fn = fn_factory()
        return [_outcome(fn, args, namespace) for args in inputs]

    return in_child(work)


def in_child(work):
    """work()'s list (JSON data), computed in a forked process; None when the child failed or ran past VERSION_SECONDS."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            signal.signal(signal.SIGALRM, _raise_timeout)
            data = json.dumps(work()).encode()
        except BaseException as error:
            data = json.dumps({"error": "%s: %s" % (type(error).__name__, error)}).encode()
        with os.fdopen(write, "wb") as w:
            w.write(data)
        os._exit(0)
    os.close(write)
    chunks, deadline = [], time.monotonic() + VERSION_SECONDS

    with os.fdopen(read, "rb") as r:
        while True:
            left = deadline - time.monotonic()
            ready = select.select([r], [], [], max(0.0, left))[0] if left > 0 else []
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            chunk = os.read(r.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    os.waitpid(pid, 0)
    try:
        result = json.loads(b"".join(chunks).decode() or "null")
    except ValueError:
        return None
    return result if isinstance(result, list) else None


def _raise_timeout(signum, frame):
    raise _Timeout()


def _compiled(text, path, qualname, namespace):
    """The function `qualname` compiled alone from `text` into a copy of `namespace`."""
    node = find_def(ast.parse(text, path), qualname)
    if node is None:
        raise LookupError("no def %s" % qualname)
    ns = dict(namespace)
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec", dont_inherit=True), ns)
    return ns[node.name]


def _live(namespace, qualname):
    value = None
    for i, part in enumerate(qualname.split(".")):
        value = namespace[part] if i == 0 else getattr(value, part)
    return value


def call_text(qualname, args):
    positional, keyword = args
    try:
        parts = [_mask(repr(a))[:80] for a in positional] + ["%s=%s" % (k, _mask(repr(v))[:80]) for k, v in keyword.items()]
    except Exception:
        parts = ["…"]
    return "%s(%s)" % (qualname, ", ".join(parts))


def answer(outcome):
    """An outcome's value or exception alone (what a caller gets back), or the outcome when it is no call's."""
    return outcome.split(" | args ", 1)[0]


def distinct(calls, namespace):
    """The calls without repeats (by their shown arguments), in recorded order."""
    out, seen = [], set()
    for args in calls:
        try:
            shown = _show(_copy(args, namespace))
        except Exception:
            continue
        if shown not in seen:
            seen.add(shown)
            out.append(args)
    return out


def _rows(outcomes):
    """Each input's outcome as a row of the calls made of it (one here), or None."""
    return None if outcomes is None else [[o] for o in outcomes]


def measure_mutants(calls, namespace, f, min_calls):
    """The outcomes the survivors' check compares, for `f`'s mutants on the distinct recorded `calls`
    (the fresh module's `namespace`): every input's text, `live` on the recorded calls, `rebuilt`
    (`reference`) and each mutant on every input. With fewer than `min_calls` calls (ag-mutate's
    rules conclude nothing on so few) nothing is called; when the unmutated function could not be
    called, no mutant is (there is nothing to hold it to)."""
    out = {"problem": None, "inputs": [], "live": None, "reference": None, "mutants": {m["id"]: None for m in f["mutants"]}}
    if namespace is None or len(calls) < min_calls:
        return out
    path, qualname = f["file"], f["qualname"]
    try:
        with open(path, encoding="utf-8") as r:
            text = r.read()
        ints, strs = _constants(find_def(ast.parse(text, path), qualname))
    except Exception as error:
        out["problem"] = "the file could not be read again: %s" % error
        return out
    inputs = calls + _neighbours(calls, ints, strs, namespace)
    out["inputs"] = [call_text(qualname, args) for args in inputs]
    live = _in_child(lambda: _live(namespace, qualname), calls, namespace)
    rebuilt = _in_child(lambda: _compiled(text, path, qualname, namespace), inputs, namespace)
    out["live"], out["reference"] = _rows(live), _rows(rebuilt)
    if live is None or rebuilt is None:
        return out
    for m in f["mutants"]:
        got = _in_child(lambda m=m: _compiled(m["text"], path, qualname, namespace), inputs, namespace)
        out["mutants"][m["id"]] = _rows(got)
    return out
