"""Is a surviving mutant probably equivalent? A differential check of its function, for ag-mutate.

The calls come from the tests (ag_mutate_record.py, inside pytest); the check runs in the
judge (ag_mutate_judge.py), a fresh interpreter that is not pytest and imported the module
under test afresh. Each version of the function is called on the distinct recorded calls
and on neighbours of them (one argument changed at a time: numbers one off, zero, the
constants the function holds; strings and sequences emptied, cut, reversed, turned into an
iterator), each version in a forked process of its own, so no version sees what another
left in memory:

- `live`: the function as the freshly imported module holds it (the unmutated code);
- `rebuilt`: the unmutated function compiled again from the file's text, as the mutants are;
- each mutant, compiled from its text into a copy of the module's globals.

An outcome is the return value (a generator or iterator drawn up to MAX_ITEMS items) or the
exception's type and message, the arguments after the call, the data the module holds after
it, and what was printed; memory addresses are masked. `rebuilt` must give `live`'s outcome
on every recorded call, or the rebuilding is not faithful and nothing is concluded
(`inconclusive`). A mutant is `probably_equivalent` only when at least MIN_CALLS distinct
calls were recorded, at least MIN_CALLS of them return normally here (outside the tests a
call may only raise: the tests' state is not here, and raising everywhere proves nothing),
and every input gave the same outcome as `rebuilt`; the first input that differs makes it
`distinguished`. Any failure of the check itself leaves the mutant a survivor.
"""
import ast
import copy
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

MIN_CALLS = 3
MAX_ITEMS = 2000
CALL_SECONDS = 0.5
VERSION_SECONDS = 30.0
MAX_NEIGHBOURS = 24
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
    """The data the function's module holds (not its modules, functions or classes): a side effect there is an outcome too."""
    namespace = getattr(inspect.unwrap(fn), "__globals__", None)
    if not isinstance(namespace, dict):
        return "?"
    parts = []
    for name in sorted(namespace):
        value = namespace[name]
        if name.startswith("__") or callable(value) or inspect.ismodule(value):
            continue
        try:
            parts.append("%s=%s" % (name, _show(value)[:500]))
        except Exception:
            parts.append("%s=?" % name)
    return ";".join(parts)[:8000]


def _constants(node):
    ints, strs = set(), set()
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and not isinstance(n.value, bool):
            if isinstance(n.value, int):
                ints.update((n.value - 1, n.value, n.value + 1))
            elif isinstance(n.value, str) and len(n.value) <= 40:
                strs.add(n.value)
    return sorted(ints), sorted(strs)


def _variants(value, ints, strs, wide=False):
    """Values near `value`: the same kind, changed a little (`wide`: numbers also ±10 and times ten)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        far = [value + 10, value - 10, 10 * value] if wide else []
        return [value - 1, value + 1, 0, -value, 2 * value, value // 2] + far + ints
    if isinstance(value, float):
        return [0.0, value + 0.5, value - 0.5, -value]
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


def _neighbours(calls, ints, strs, namespace, wide=False):
    out, seen = [], set()
    for positional, keyword in calls:
        slots = [("p", i) for i in range(len(positional))] + [("k", k) for k in keyword]
        for kind, key in slots:
            current = positional[key] if kind == "p" else keyword[key]
            for near in _variants(current, ints, strs, wide):
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


def _brief(outcome):
    """An outcome without its empty printed part, cut short for a note."""
    return (outcome[: -len(" | printed ")] if outcome.endswith(" | printed ") else outcome)[:240]


def _call_text(qualname, args):
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


def judge_mutants(calls, namespace, f, note_calls):
    """Each of `f`'s mutants judged on the distinct recorded `calls` (the fresh module's `namespace`)."""
    ids = [m["id"] for m in f["mutants"]]

    def every(verdict, note, inputs=0):
        return {i: {"verdict": verdict, "recorded_calls": len(calls), "inputs": inputs, "note": note} for i in ids}

    if namespace is None or len(calls) < MIN_CALLS:
        return every("inconclusive", "%d distinct calls recorded (%s); at least %d are needed" % (len(calls), note_calls, MIN_CALLS))
    path, qualname = f["file"], f["qualname"]
    try:
        with open(path, encoding="utf-8") as r:
            text = r.read()
        ints, strs = _constants(find_def(ast.parse(text, path), qualname))
    except Exception as error:
        return every("inconclusive", "the file could not be read again: %s" % error)
    inputs = calls + _neighbours(calls, ints, strs, namespace)
    live = _in_child(lambda: _live(namespace, qualname), calls, namespace)
    rebuilt = _in_child(lambda: _compiled(text, path, qualname, namespace), inputs, namespace)
    if live is None or rebuilt is None:
        return every("inconclusive", "the unmutated function could not be called again")
    if live != rebuilt[: len(calls)] or "timeout" in rebuilt:
        return every("inconclusive", "the function rebuilt from its text does not give what the module's own gives")
    returned = sum(1 for o in live if o.startswith("value "))
    if returned < MIN_CALLS:
        return every("inconclusive", "outside the tests only %d of the %d distinct recorded calls return normally; at least %d must" % (returned, len(calls), MIN_CALLS))
    out = {}
    for m in f["mutants"]:
        got = _in_child(lambda m=m: _compiled(m["text"], path, qualname, namespace), inputs, namespace)
        if got is None:
            out[m["id"]] = {"verdict": "inconclusive", "recorded_calls": len(calls), "inputs": len(inputs), "note": "the mutant's function could not be called"}
            continue
        differ = next((i for i, (a, b) in enumerate(zip(rebuilt, got)) if a != b), None)
        if differ is None:
            note = "same outcome on every input, outside the test process: %d recorded calls, %d neighbours" % (len(calls), len(inputs) - len(calls))
            out[m["id"]] = {"verdict": "probably_equivalent", "recorded_calls": len(calls), "inputs": len(inputs), "note": note}
        else:
            which = "recorded call" if differ < len(calls) else "neighbour input"
            note = "a %s differs: %s gives %s; the mutant gives %s" % (
                which, _call_text(qualname, inputs[differ]), _brief(rebuilt[differ]), _brief(got[differ]))
            out[m["id"]] = {"verdict": "distinguished", "recorded_calls": len(calls), "inputs": len(inputs), "note": note}
    return out
