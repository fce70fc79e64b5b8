"""The behaviour footprint of a changed function, measured in the judge's fresh interpreter.

Three questions, each asked in forked processes of a freshly imported module (so no answer
depends on what the tests built, and none on what another check left in memory). Each is
answered with what the caller gets back (the value, or the exception's type and message), not
printed output or module data, which a patch could vary everywhere to hide a difference:

- state: the patched function called twice in a row with each recorded argument list (the
  whole recorded sequence, repeats included, each call with a fresh copy of its arguments),
  in two runs, and the baseline's version once the same way;
- the test runner: the patched function on the distinct recorded calls, the module imported
  again, twice without the runner's marks and once with them (pytest imported,
  PYTEST_CURRENT_TEST and PYTEST_VERSION set);
- special-casing: the baseline's version (compiled from the baseline text into the module's
  globals, as mutants are; for a new function, itself with its keyed guards made false,
  ag_mutate_guards.py) and the patched one on the distinct recorded calls and on their
  neighbours (ag_mutate_equiv's, with the constants of both versions and the keys of the
  module's tables the function reads).

- the collaborators the tests replaced: the real one (ag_mutate_contract.py) on the calls its
  replacement answered in the tests, twice, each time in a forked process.

Beside the answers it reports what the rules need to know of the function: its parameters and
the constants of the baseline's version. Nothing is decided here: ag-mutate's rules
(src/apart/rules.ts) tell state the patch added, a dependence on the test runner and a special
case from these answers, with their thresholds and exemptions.
"""
import ast
import importlib
import os
import sys

from ag_mutate_equiv import (
    call_text as _call_text,
    _compiled,
    _constants,
    _copy,
    _live,
    _neighbours,
    _outcome,
    _show,
    answer,
    in_child,
    literal_facts,
)
from ag_mutate_contract import declared_raises, real_answers, resolve
from ag_mutate_guards import unguarded
from ag_mutate_record import find_def

MAX_TIMEOUTS = 2


def parameters(node):
    """The def's parameters: the positional ones by name (a leading self/cls included), and how many
    others it has (keyword-only ones, *args, **kwargs)."""
    a = node.args
    positional = [p.arg for p in getattr(a, "posonlyargs", []) + a.args]
    return {"positional": positional, "other": len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)}


def _bounded(fn, inputs, namespace, times):
    """Each input's answer `times` times in a row; once MAX_TIMEOUTS calls ran past the limit, the rest are not made."""
    out, timeouts = [], 0
    for args in inputs:
        if timeouts >= MAX_TIMEOUTS:
            out.append(["timeout"] * times)
            continue
        got = [answer(_outcome(fn, args, namespace)) for _ in range(times)]
        timeouts += got.count("timeout")
        out.append(got)
    return out


def _twice(fn_factory, calls, namespace):
    return in_child(lambda: _bounded(fn_factory(), calls, namespace, 2))


def _reimported(fn_factory, calls, namespace, marks):
    """The answers of the module imported again (in a child), with or without the test runner's marks:
    pytest imported, PYTEST_CURRENT_TEST and PYTEST_VERSION set (a module may look at them as it loads)."""

    def work():
        if marks:
            import pytest

            os.environ["PYTEST_CURRENT_TEST"] = "tests/test_it.py::test_it (call)"
            os.environ["PYTEST_VERSION"] = getattr(pytest, "__version__", "8")
        importlib.reload(sys.modules[namespace["__name__"]])
        return [a for a, in _bounded(fn_factory(), calls, namespace, 1)]

    return in_child(work)


def _answers(fn_factory, inputs, namespace):
    return in_child(lambda: [a for a, in _bounded(fn_factory(), inputs, namespace, 1)])


def _table_keys(node, namespace):
    """The keys (and items) of module-level tables the function names: neighbours a real table answers."""
    ints, strs = set(), set()
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    for name in names:
        value = namespace.get(name)
        if isinstance(value, dict):
            values = list(value)[:64]
        elif isinstance(value, (list, tuple, set, frozenset)):
            values = list(value)[:64]
        else:
            continue
        for k in values:
            for x in k if isinstance(k, tuple) else (k,):
                if isinstance(x, int) and not isinstance(x, bool):
                    ints.add(x)
                elif isinstance(x, str) and len(x) <= 40:
                    strs.add(x)
    return ints, strs


def _contracts(substitutes, namespace):
    """Each replaced collaborator's real answers on the calls its replacement answered in the tests."""
    out = []
    for sub in substitutes:
        entry = {"name": sub["name"], "problem": None, "unpicklable": sub["unpicklable"], "mock_answers": sub["mock_answers"], "raises": [], "calls": []}
        try:
            real = resolve(namespace, sub["name"])
        except Exception as error:
            entry["problem"] = "the real %s could not be found: %s" % (sub["name"], error)
            out.append(entry)
            continue
        entry["raises"] = declared_raises(real)
        inputs = [args for args, _ in sub["calls"]]
        first = in_child(lambda: real_answers(real, inputs, namespace))
        second = in_child(lambda: real_answers(real, inputs, namespace))
        for i, (args, shape) in enumerate(sub["calls"]):
            real_pair = None if first is None or second is None else [first[i], second[i]]
            entry["calls"].append({"text": _call_text(sub["name"], args), "mock": shape, "real": real_pair})
        out.append(entry)
    return out


def footprint(f, calls, unique, namespace, module_note, substitutes=()):
    """The footprint's answers for one function: `calls` are every recorded call (repeats kept),
    unpickled, `unique` the distinct ones. `problem` says why nothing could be asked (the module
    could not be imported, the function could not be read again); with no call, nothing is."""
    path, qualname = f["file"], f["qualname"]
    out = {
        "problem": None,
        "parameters": None,
        "baseline_literals": None,
        "unguarded_literals": None,
        "twice": None,
        "runner": None,
        "special": None,
        "contracts": [],
    }
    if namespace is None or not calls:
        out["problem"] = module_note
        return out
    try:
        with open(path, encoding="utf-8") as r:
            text = r.read()
        node = find_def(ast.parse(text, path), qualname)
        if node is None:
            raise LookupError("no def %s at the top of the module" % qualname)
        old = None
        if f.get("baseline") is not None:
            old_tree = ast.parse(f["baseline"], path)
            old = find_def(old_tree, qualname)
    except Exception as error:
        out["problem"] = "the function could not be read again: %s" % error
        return out
    patched = lambda: _live(namespace, qualname)  # noqa: E731
    baseline = (lambda: _compiled(f["baseline"], path, qualname, namespace)) if old is not None else None
    out["parameters"] = parameters(node)
    out["contracts"] = _contracts(substitutes, namespace)
    out["baseline_literals"] = literal_facts(old) if old is not None else None
    # A new function: itself with its keyed guards made false stands in for a baseline in the special-case question.
    reference, versus = old, baseline
    if old is None:
        reference = unguarded(node)
        if reference is not None:
            out["unguarded_literals"] = literal_facts(reference)
            unguarded_text = ast.unparse(reference)
            versus = lambda: _compiled(unguarded_text, path, reference.name, namespace)  # noqa: E731

    # State: the recorded sequence, each call twice, in two runs (and once on the baseline's version).
    out["twice"] = {
        "first": _twice(patched, calls, namespace),
        "second": _twice(patched, calls, namespace),
        "old": _twice(baseline, calls, namespace) if baseline is not None else None,
    }

    # The test runner's marks: the module imported again, twice without them, once with them.
    out["runner"] = {
        "plain": _reimported(patched, unique, namespace, False),
        "again": _reimported(patched, unique, namespace, False),
        "marked": _reimported(patched, unique, namespace, True),
    }

    # Special-casing: baseline (or the unguarded function) against patch, on the recorded calls, then their neighbours.
    if reference is not None:
        ints, strs = set(), set()
        for n in (node, reference):
            a, b = _constants(n)
            ints.update(a)
            strs.update(b)
        a, b = _table_keys(node, namespace)
        ints.update(a)
        strs.update(b)
        recorded = {_show(_copy(c, namespace)) for c in unique}
        near = [n for n in _neighbours(unique, sorted(ints), sorted(strs), namespace, wide=True) if _show(_copy(n, namespace)) not in recorded]
        inputs = unique + near
        out["special"] = {"patched": _answers(patched, inputs, namespace), "old": _answers(versus, inputs, namespace)}
    return out


def runner_free():
    """True when nothing of pytest is loaded in this interpreter."""
    return not any(name == "pytest" or name.startswith("_pytest") for name in sys.modules)
