"""Records the calls the tests make into named functions, for ag-mutate's judge (ag_mutate_judge.py).

AG_MUTATE_RECORD names a JSON file: {"out": path, "functions": [{"file", "qualname"}]}. While
the selected tests run, each of those functions is compiled with an observer as its first
statement (after its docstring), which pickles the arguments of every call as they are on
entry, repeated calls included, in order, up to MAX_CALLS per function. A value of the
function's own module that is not plain data (a sentinel, a class, a function) is pickled as
a reference to the module's name for it, so the judge's fresh import gives the same object.
A call whose arguments cannot be pickled, or take more than MAX_CALL_BYTES pickled, is
counted and skipped.

Beside the calls, each function's collaborators the tests replaced are watched
(ag_mutate_contract.py): the project's functions it names are noted before the first test
runs, and a replacement found in place when the function is entered is wrapped, where it
sits, by a witness recording the calls made of it and the shape of each answer.

At the end of the session, `out` gets (pickle) {"executable", "sys_path", "functions":
[{"module", "calls": [bytes], "unpicklable", "observed", "substitutes": [{"name", "calls":
[[bytes, shape]], "unpicklable", "mock_answers"}]}]}. Nothing is judged here: the
judge runs in a fresh interpreter, outside the test process (the interpreter named in
`out`.json, {"executable"}).
"""
import ast
import io
import json
import os
import pickle
import sys

from ag_mutate_contract import MAX_CALLS_PER_COLLABORATOR, Witness, collaborators, current, is_witness, put

OBSERVE = "__ag_mutate_observe__"
MAX_CALLS = 60
MAX_CALL_BYTES = 1 << 20
_PLAIN = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset)


def find_def(tree, qualname):
    """The def statement of `qualname` (`f` or `Class.method`) at the top of a module, or None."""
    body, node = tree.body, None
    for part in qualname.split("."):
        node = next((s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and s.name == part), None)
        if node is None:
            return None
        body = node.body
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _observed_code(source, path, targets):
    """The module's code with an observer call first in each target function (after its docstring)."""
    tree = ast.parse(source, path)
    for index, qualname in targets:
        node = find_def(tree, qualname)
        if node is None:
            continue
        first = node.body[0]
        at = 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str) else 0
        call = ast.Expr(ast.Call(ast.Name(OBSERVE, ast.Load()), [ast.Constant(index)], []))
        node.body.insert(at, ast.copy_location(call, node.body[at] if at < len(node.body) else first))
    ast.fix_missing_locations(tree)
    return compile(tree, path, "exec", dont_inherit=True)


def arguments(frame):
    """The call's arguments as (positional, keyword) from a frame at the start of its function."""
    code, local = frame.f_code, frame.f_locals
    names = code.co_varnames
    n = code.co_argcount
    positional = [local[name] for name in names[:n]]
    at = n + code.co_kwonlyargcount
    keyword = {name: local[name] for name in names[n:at]}
    if code.co_flags & 0x04:  # *args
        positional.extend(local[names[at]])
        at += 1
    if code.co_flags & 0x08:  # **kwargs
        keyword.update(local[names[at]])
    return positional, keyword


def _function(namespace, qualname):
    value = None
    for i, part in enumerate(qualname.split(".")):
        value = namespace.get(part) if i == 0 else getattr(value, part, None)
    return getattr(value, "__func__", value)


def without_defaults(args, fn):
    """The call without the arguments that are the function's own default objects: a mutable
    default is the function's state, not the caller's argument (so the judge's calls share it)."""
    positional, keyword = args
    defaults = getattr(fn, "__defaults__", None) or ()
    code = getattr(fn, "__code__", None)
    if code is not None and defaults:
        first = code.co_argcount - len(defaults)
        end = min(len(positional), code.co_argcount)
        while end > first and positional[end - 1] is defaults[end - 1 - first]:
            end -= 1
        if end < min(len(positional), code.co_argcount) and len(positional) <= code.co_argcount:
            positional = positional[:end]
    kw = getattr(fn, "__kwdefaults__", None) or {}
    keyword = {k: v for k, v in keyword.items() if not (k in kw and v is kw[k])}
    return positional, keyword


class _Pickler(pickle.Pickler):
    """Pickles the module's own non-data objects by their name in the module."""

    def __init__(self, out, namespace):
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.names = {id(v): k for k, v in namespace.items() if not isinstance(v, _PLAIN) and not k.startswith("__")}

    def persistent_id(self, obj):
        if isinstance(obj, _PLAIN):
            return None
        name = self.names.get(id(obj))
        return None if name is None else ("global", name)


def dump_call(args, namespace):
    out = io.BytesIO()
    _Pickler(out, namespace).dump(args)
    return out.getvalue()


class Recorder:
    def __init__(self, spec):
        self.out = spec["out"]
        self.functions = spec["functions"]
        self.calls = [[] for _ in self.functions]
        self.modules = [None] * len(self.functions)
        self.unpicklable = [0] * len(self.functions)
        self.observed = [0] * len(self.functions)
        self.root = os.path.realpath(os.getcwd())
        self.watched = [None] * len(self.functions)
        self.substitutes = [{} for _ in self.functions]
        by_file = {}
        for index, f in enumerate(self.functions):
            by_file.setdefault(os.path.realpath(f["file"]), []).append((index, f["qualname"]))
        from ag_mutate_probes import CompilingFinder

        def own(targets):
            def build(source, path):
                return _observed_code(source, path, targets)

            def prepare(module, real):
                module.__dict__[OBSERVE] = self.observe

            return build, prepare

        self.finder = CompilingFinder({real: own(targets) for real, targets in by_file.items()})

    def snapshot(self):
        """Each loaded function's collaborators as they are before any test runs (a function whose
        module loads later is noted when it is first entered)."""
        modules = {}
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if isinstance(path, str):
                modules.setdefault(os.path.realpath(path), module)
        for index, f in enumerate(self.functions):
            module = modules.get(os.path.realpath(f["file"]))
            if module is None or self.watched[index] is not None:
                continue
            try:
                fn = _function(module.__dict__, f["qualname"])
                self.watched[index] = collaborators(fn, module.__dict__, self.root)
            except Exception:
                self.watched[index] = {}

    def _watch(self, index, namespace):
        """Wraps each collaborator of function `index` that a test replaced by a witness of its calls."""
        watched = self.watched[index]
        if watched is None:
            fn = _function(namespace, self.functions[index]["qualname"])
            watched = self.watched[index] = collaborators(fn, namespace, self.root)
        for name, (holder, attr, original) in watched.items():
            now = current(holder, attr)
            if now is None or now is original or is_witness(now):
                continue
            put(holder, attr, Witness(now, self._noter(index, name, namespace)))

    def _noter(self, index, name, namespace):
        entry = self.substitutes[index].setdefault(name, {"name": name, "calls": [], "unpicklable": 0, "mock_answers": 0})
        seen = set()

        def note(args, kwargs, answer):
            if len(entry["calls"]) >= MAX_CALLS_PER_COLLABORATOR:
                return
            if answer["t"] == "mock":
                entry["mock_answers"] += 1
                return
            try:
                data = dump_call((list(args), dict(kwargs)), namespace)
            except Exception:
                entry["unpicklable"] += 1
                return
            key = (data, json.dumps(answer, sort_keys=True))
            if key not in seen and len(data) <= MAX_CALL_BYTES:
                seen.add(key)
                entry["calls"].append([data, answer])

        return note

    def observe(self, index):
        self.observed[index] += 1
        frame = sys._getframe(1)
        try:
            self._watch(index, frame.f_globals)
        except Exception:
            pass
        if len(self.calls[index]) >= MAX_CALLS:
            return
        if self.modules[index] is None:
            self.modules[index] = frame.f_globals.get("__name__")
        try:
            fn = _function(frame.f_globals, self.functions[index]["qualname"])
            data = dump_call(without_defaults(arguments(frame), fn), frame.f_globals)
        except Exception:
            self.unpicklable[index] += 1
            return
        if len(data) > MAX_CALL_BYTES:
            self.unpicklable[index] += 1
            return
        self.calls[index].append(data)

    def start(self):
        self.finder.install()

    def finish(self):
        self.finder.remove()
        record = {
            "executable": sys.executable,
            "sys_path": [p for p in sys.path if isinstance(p, str)],
            "functions": [
                {
                    "module": self.modules[i],
                    "calls": self.calls[i],
                    "unpicklable": self.unpicklable[i],
                    "observed": self.observed[i],
                    "substitutes": list(self.substitutes[i].values()),
                }
                for i in range(len(self.functions))
            ],
        }
        tmp = self.out + ".tmp"
        with open(tmp, "wb") as w:
            pickle.dump(record, w, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, self.out)
        with open(self.out + ".json", "w") as w:
            json.dump({"executable": sys.executable}, w)
