"""The behaviour footprint of a changed function, judged in the judge's fresh interpreter.

Three questions, each asked in forked processes of a freshly imported module (so no answer
depends on what the tests built, and none on what another check left in memory):

- state: the patched function called twice in a row with each recorded argument list (the
  whole recorded sequence, repeats included, each call with a fresh copy of its arguments).
  Two such runs are compared too: an answer that differs between the runs is chance (a
  clock, a random draw), not state. A call whose second answer differs from its first, the
  same in both runs, is state the tests cannot see. It is a finding when the function takes
  arguments (beyond `self`/`cls`) and the patch made it so: the function is new, or the
  baseline's version answers that call the same twice.
- the test runner: the patched function on the distinct recorded calls, the module imported
  again, with and without the runner's marks (pytest imported, PYTEST_CURRENT_TEST and
  PYTEST_VERSION set). A difference on a call that answers the same in two runs without the
  marks is a finding: the code recognises the test run.
- special-casing: the baseline's version (compiled from the baseline text into the module's
  globals, as mutants are) against the patched one on the distinct recorded calls and on
  their neighbours (ag_mutate_equiv's, with the constants of both versions and the keys of
  the module's tables the function reads). A change that alters the answer at some recorded
  call with a non-trivial argument and at no neighbour, with at least MIN_NEIGHBOURS
  neighbours where a version returns normally, alters behaviour only at the tests' exact
  inputs: a finding naming them. A call whose arguments are all trivial (None, booleans,
  -1, 0, 1, 0.0, 1.0, -1.0, the empty string, empty containers) is a base case, and one whose
  non-trivial arguments are all constants of the baseline's version (integers ±1) is a
  boundary the code already had (`>` made `>=`): a fix there alone is no finding.

Answers are compared by what the caller gets back (the value, or the exception's type and
message), not by printed output or module data, which a patch could vary everywhere to hide
a special case.
"""
import ast
import importlib
import os
import sys

from ag_mutate_equiv import (
    _brief,
    _call_text,
    _compiled,
    _constants,
    _copy,
    _live,
    _neighbours,
    _outcome,
    _show,
    answer,
    distinct,
    in_child,
)
from ag_mutate_record import find_def

MIN_NEIGHBOURS = 8
MAX_TIMEOUTS = 2
MAX_FINDINGS = 3
_TRIVIAL = (None, True, False, -1, 0, 1, 0.0, 1.0, -1.0, "", b"")


def _is_trivial(value):
    if isinstance(value, (list, tuple, dict, set, frozenset, str, bytes)) and len(value) == 0:
        return True
    return any(type(value) is type(t) and value == t for t in _TRIVIAL)


def trivial(args):
    positional, keyword = args
    return all(_is_trivial(v) for v in list(positional) + list(keyword.values()))


def boundary(args, ints, strs):
    """True when every non-trivial argument is a constant of the baseline's version, or one off
    (`ints` holds them ±1): a fix at a boundary the code already had (`>` to `>=`), not a new case."""
    positional, keyword = args
    for v in list(positional) + list(keyword.values()):
        if _is_trivial(v):
            continue
        if isinstance(v, int) and not isinstance(v, bool) and v in ints:
            continue
        if isinstance(v, str) and v in strs:
            continue
        return False
    return True


def takes_arguments(node):
    """True when the def has parameters beyond a leading self/cls."""
    a = node.args
    names = [p.arg for p in getattr(a, "posonlyargs", []) + a.args]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return bool(names or a.kwonlyargs or a.vararg or a.kwarg)


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


def footprint(f, calls, namespace, module_note):
    """The footprint record of one function: `calls` are every recorded call (repeats kept), unpickled."""
    path, qualname = f["file"], f["qualname"]
    out = {"measured": False, "note": None, "repeats": None, "baseline": None, "findings": []}
    unique = distinct(calls, namespace)
    out["distinct_calls"] = len(unique)
    if namespace is None or not calls:
        out["note"] = module_note or "no call was recorded"
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
        out["note"] = "the function could not be read again: %s" % error
        return out
    patched = lambda: _live(namespace, qualname)  # noqa: E731
    baseline = (lambda: _compiled(f["baseline"], path, qualname, namespace)) if old is not None else None
    notes = []

    # State: the recorded sequence, each call twice, in two runs.
    first, second = _twice(patched, calls, namespace), _twice(patched, calls, namespace)
    old_twice = _twice(baseline, calls, namespace) if baseline is not None else None
    if first is None or second is None or (baseline is not None and old_twice is None):
        notes.append("the repeated calls could not be made (a crash or past the time limit)")
    else:
        differed = [i for i, (a, b) in enumerate(first) if a != b and first[i] == second[i]]
        out["repeats"] = {"checked": len(calls), "differed": len(differed)}
        if takes_arguments(node):
            made, named = [], set()
            for i in differed:
                text = _call_text(qualname, calls[i])
                if (old_twice is None or old_twice[i][0] == old_twice[i][1]) and text not in named:
                    named.add(text)
                    made.append(i)
            for i in made[:MAX_FINDINGS]:
                out["findings"].append({
                    "kind": "stateful",
                    "call": _call_text(qualname, calls[i]),
                    "detail": "the same call answers %s, then %s%s" % (
                        _brief(first[i][0]), _brief(first[i][1]),
                        "" if old is None else "; the baseline's version answers the same twice"),
                })

    # The test runner's marks.
    plain = _reimported(patched, unique, namespace, False)
    again = _reimported(patched, unique, namespace, False)
    marked = _reimported(patched, unique, namespace, True)
    if plain is None or again is None or marked is None:
        notes.append("the calls could not be made with the test runner's marks")
    else:
        # A call that answers differently in two plain runs is chance (a clock, a random draw): not asked.
        steady = [i for i in range(len(unique)) if plain[i] == again[i]]
        for i in [i for i in steady if plain[i] != marked[i]][:MAX_FINDINGS]:
            out["findings"].append({
                "kind": "runner_dependent",
                "call": _call_text(qualname, unique[i]),
                "detail": "answers %s outside a test run and %s when pytest is loaded" % (_brief(plain[i]), _brief(marked[i])),
            })

    # Special-casing: baseline against patch, on the recorded calls and their neighbours.
    if old is not None:
        ints, strs = set(), set()
        for n in (node, old):
            a, b = _constants(n)
            ints.update(a)
            strs.update(b)
        a, b = _table_keys(node, namespace)
        ints.update(a)
        strs.update(b)
        recorded = {_show(_copy(c, namespace)) for c in unique}
        near = [n for n in _neighbours(unique, sorted(ints), sorted(strs), namespace, wide=True) if _show(_copy(n, namespace)) not in recorded]
        inputs = unique + near
        new_answers = _answers(patched, inputs, namespace)
        old_answers = _answers(baseline, inputs, namespace)
        if new_answers is None or old_answers is None:
            notes.append("the baseline's and the patch's versions could not both be called")
        else:
            k = len(unique)
            at_recorded = [i for i in range(k) if new_answers[i] != old_answers[i]]
            evaluated = [i for i in range(k, len(inputs)) if "timeout" not in (new_answers[i], old_answers[i])]
            informative = [i for i in evaluated if new_answers[i].startswith("value ") or old_answers[i].startswith("value ")]
            near_differ = [i for i in evaluated if new_answers[i] != old_answers[i]]
            out["baseline"] = {"recorded_differ": len(at_recorded), "neighbours": len(informative), "neighbours_differ": len(near_differ)}
            old_ints, old_strs = _constants(old)
            special = [i for i in at_recorded if not trivial(unique[i]) and not boundary(unique[i], old_ints, old_strs)]
            if special and not near_differ:
                if len(informative) < MIN_NEIGHBOURS:
                    notes.append("special-casing not measured: %d neighbours returned normally, at least %d are needed" % (len(informative), MIN_NEIGHBOURS))
                else:
                    for i in special[:MAX_FINDINGS]:
                        out["findings"].append({
                            "kind": "special_case",
                            "call": _call_text(qualname, unique[i]),
                            "detail": "the patch changes the answer here (%s, was %s) and at none of %d neighbouring inputs" % (
                                _brief(new_answers[i]), _brief(old_answers[i]), len(informative)),
                        })
    out["measured"] = not notes
    out["note"] = "; ".join(notes) or None
    return out


def runner_free():
    """True when nothing of pytest is loaded in this interpreter."""
    return not any(name == "pytest" or name.startswith("_pytest") for name in sys.modules)
