"""ag-mutate's judge: the recorded calls made again in a fresh interpreter, outside the test process.

Run as `<the tests' python> ag_mutate_judge.py <spec.json>` in the tree copy, as the tests
are run (same uid, environment and limits), after a recording run of the tests
(ag_mutate_record.py). The spec: {"record": path, "out": path, "min_distinct_calls": n,
"functions": [{"file", "qualname", "baseline": text or null, "footprint": bool, "mutants":
[{"id", "text"}]}]}.

No pytest, no test module, no conftest: the interpreter takes the test process's sys.path,
imports each function's module afresh, and loads the recorded arguments through an
unpickler that refuses the test runner's and the tests' own modules (a call that needs one is
counted as not loadable). Then, per function, it measures: the outcomes of the mutants'
differential check (ag_mutate_equiv.measure_mutants) and the behaviour footprint's answers
(ag_mutate_footprint.footprint). It decides nothing: ag-mutate's rules (src/apart/rules.ts)
read the answers.

Writes to `out`: {"runner_free": bool, "functions": [{"file", "qualname", "recorded_calls",
"kept_calls", "unpicklable_calls", "calls": [every loaded call as text], "distinct": [{"text",
"args": [fact]}], "footprint": answers or null, "equivalence": outcomes or null}]}.
"""
import importlib
import io
import json
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_REFUSED_ROOTS = ("pytest", "_pytest", "pluggy", "py", "ag_mutate_pytest")


def _refused(module):
    parts = module.split(".")
    if parts[0] in _REFUSED_ROOTS:
        return True
    last = parts[-1]
    return last == "conftest" or last.startswith("test_") or last.endswith("_test") or last == "tests" or "tests" in parts


class _Unpickler(pickle.Unpickler):
    def __init__(self, data, namespace):
        super().__init__(io.BytesIO(data))
        self.namespace = namespace

    def find_class(self, module, name):
        if _refused(module):
            raise pickle.UnpicklingError("refused: %s is the test runner's or a test's module" % module)
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind, name = pid
        if kind != "global" or name not in self.namespace:
            raise pickle.UnpicklingError("no global %r in the module" % (name,))
        return self.namespace[name]


def _load(datas, namespace):
    calls, failed = [], 0
    for data in datas:
        try:
            positional, keyword = _Unpickler(data, namespace).load()
            calls.append((list(positional), dict(keyword)))
        except Exception:
            failed += 1
    return calls, failed


def _substitutes(record, namespace):
    """The collaborators the tests replaced, their recorded calls loaded: [{"name", "calls": [(args, shape)], "unpicklable", "mock_answers"}]."""
    out = []
    for sub in record.get("substitutes", []):
        calls, failed = [], 0
        for data, shape in sub["calls"]:
            loaded, bad = _load([data], namespace)
            failed += bad
            calls.extend((args, shape) for args in loaded)
        out.append({"name": sub["name"], "calls": calls, "unpicklable": sub["unpicklable"] + failed, "mock_answers": sub["mock_answers"]})
    return out


def main(spec_path):
    with open(spec_path) as r:
        spec = json.load(r)
    with open(spec["record"], "rb") as r:
        record = pickle.load(r)
    sys.path[:] = [p for p in record["sys_path"] if p != HERE] + [HERE]
    from ag_mutate_equiv import arg_facts, call_text, distinct, measure_mutants
    from ag_mutate_footprint import footprint, runner_free

    functions = []
    for f, rec in zip(spec["functions"], record["functions"]):
        namespace, module_note = None, None
        if rec["module"] is not None:
            try:
                module = importlib.import_module(rec["module"])
                if os.path.realpath(getattr(module, "__file__", "") or "") != os.path.realpath(f["file"]):
                    raise ImportError("it loads %s" % getattr(module, "__file__", None))
                namespace = module.__dict__
            except BaseException as error:
                module_note = "module %s could not be imported outside the tests: %s: %s" % (rec["module"], type(error).__name__, str(error)[:300])
        calls, failed = _load(rec["calls"], namespace) if namespace is not None else ([], 0)
        substitutes = _substitutes(rec, namespace) if namespace is not None else []
        unique = distinct(calls, namespace)
        qualname = f["qualname"]
        functions.append({
            "file": f["file"],
            "qualname": qualname,
            "recorded_calls": rec["observed"],
            "kept_calls": len(rec["calls"]),
            "unpicklable_calls": rec["unpicklable"] + failed,
            "calls": [call_text(qualname, args) for args in calls],
            "distinct": [{"text": call_text(qualname, args), "args": arg_facts(args)} for args in unique],
            "equivalence": measure_mutants(unique, namespace, f, spec["min_distinct_calls"]) if f["mutants"] else None,
            "footprint": footprint(f, calls, unique, namespace, module_note, substitutes) if f["footprint"] else None,
        })
    out = {"runner_free": runner_free(), "functions": functions}
    tmp = spec["out"] + ".tmp"
    with open(tmp, "w") as w:
        json.dump(out, w)
    os.replace(tmp, spec["out"])


if __name__ == "__main__":
    main(sys.argv[1])
