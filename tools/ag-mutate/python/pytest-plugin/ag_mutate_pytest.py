"""pytest plugin of ag-mutate: per-test line coverage of the changed files, and test selection.

Loaded with ``-p ag_mutate_pytest`` (PYTEST_ADDOPTS, the package's python/ folder on
PYTHONPATH); does nothing unless one of its environment variables is set.

- AG_MUTATE_TRACE_DIR and AG_MUTATE_TRACE_FILES (a JSON list of absolute paths): record,
  for every test (setup, call and teardown), which lines of those files ran, and its
  duration; lines run outside any test (imports at collection) go under the key "".
  Written to TRACE_DIR/<pid>.json at the end of the session (one file per process, so
  xdist workers do not overwrite each other). With AG_MUTATE_TRACE_LINES (a JSON object:
  absolute path -> [[first, last], ...]), no trace at all: those files are compiled with
  probes before the statements that meet the ranges (ag_mutate_probes.py).
- AG_MUTATE_SELECT (a file with one node id per line): run only those tests, in that order,
  and stop at the first failure. The node id of the first failing test is written to
  AG_MUTATE_FAILED (if set).
- AG_MUTATE_RECORD (a JSON file): record the calls the tests make into named functions
  (ag_mutate_record.py), for the judge that runs apart from pytest (ag_mutate_judge.py).
"""
import json
import os
import sys
import threading
import time

import pytest

_TRACE_DIR = os.environ.get("AG_MUTATE_TRACE_DIR")
_SELECT = os.environ.get("AG_MUTATE_SELECT")
_FAILED = os.environ.get("AG_MUTATE_FAILED")


def _code_lines(code):
    """The first and last line a code object's own instructions are on."""
    if hasattr(code, "co_lines"):
        numbers = [line for _, _, line in code.co_lines() if line is not None]
    else:
        import dis

        numbers = [line for _, line in dis.findlinestarts(code)]
    first = code.co_firstlineno
    return first, max(numbers + [first])


class _Tracer:
    """Line events of the wanted files only: other frames get no local trace function."""

    def __init__(self, files, ranges=None):
        self.wanted = {os.path.realpath(f) for f in files}
        self.ranges = (
            None
            if ranges is None
            else {os.path.realpath(f): [tuple(r) for r in rs] for f, rs in ranges.items()}
        )
        self.known = {}
        self.reals = {}
        self.codes = {}
        self.current = ""
        self.lines = {"": {}}
        self.durations = {}

    def _real(self, filename):
        """The real path of a code object's file, looked up once (realpath is a syscall per part)."""
        real = self.reals.get(filename)
        if real is None:
            real = self.reals[filename] = os.path.realpath(filename)
        return real

    def _is_wanted(self, filename):
        hit = self.known.get(filename)
        if hit is None:
            hit = self._real(filename) in self.wanted
            self.known[filename] = hit
        return hit

    def _holds_site(self, code):
        """True when the code object's lines span a site (always, without ranges)."""
        if self.ranges is None:
            return True
        first, last = _code_lines(code)
        return any(a <= last and first <= b for a, b in self.ranges.get(self._real(code.co_filename), []))

    def _traced(self, code):
        """True for a code object of a wanted file that holds a site: decided once per code object."""
        hit = self.codes.get(code)
        if hit is None:
            hit = self.codes[code] = self._is_wanted(code.co_filename) and self._holds_site(code)
        return hit

    def global_trace(self, frame, event, arg):
        code = frame.f_code
        if not self._traced(code):
            return None
        self._line(code.co_filename, frame.f_lineno)
        return self.local_trace

    def local_trace(self, frame, event, arg):
        if event == "line":
            self._line(frame.f_code.co_filename, frame.f_lineno)
        return self.local_trace

    def _line(self, filename, line):
        per_test = self.lines.setdefault(self.current, {})
        per_test.setdefault(self._real(filename), set()).add(line)

    def start(self):
        sys.settrace(self.global_trace)
        threading.settrace(self.global_trace)

    def stop(self):
        sys.settrace(None)
        threading.settrace(None)

    def dump(self):
        out = {
            "tests": {
                test: {path: sorted(lines) for path, lines in files.items()}
                for test, files in self.lines.items()
            },
            "durations": self.durations,
        }
        with open(os.path.join(_TRACE_DIR, "%d.json" % os.getpid()), "w") as f:
            json.dump(out, f)


class _Probed(_Tracer):
    """The same record, from probes compiled into the wanted files (ag_mutate_probes), not a trace."""

    def __init__(self, files, ranges):
        super().__init__(files, ranges)
        from ag_mutate_probes import Finder

        self.finder = Finder(ranges, self._hit)

    def _hit(self, real, lines):
        per_test = self.lines.setdefault(self.current, {}).setdefault(real, set())
        per_test.update(lines)

    def start(self):
        self.finder.install()

    def stop(self):
        self.finder.remove()


_tracer = None
if _TRACE_DIR and os.environ.get("AG_MUTATE_TRACE_FILES"):
    _ranges = os.environ.get("AG_MUTATE_TRACE_LINES")
    _files = json.loads(os.environ["AG_MUTATE_TRACE_FILES"])
    _tracer = _Tracer(_files) if not _ranges else _Probed(_files, json.loads(_ranges))
    _tracer.start()

_recorder = None
if os.environ.get("AG_MUTATE_RECORD"):
    from ag_mutate_record import Recorder

    with open(os.environ["AG_MUTATE_RECORD"]) as _spec:
        _recorder = Recorder(json.load(_spec))
    _recorder.start()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _tracer is None:
        yield
        return
    _tracer.current = item.nodeid
    _tracer.lines.setdefault(item.nodeid, {})
    started = time.perf_counter()
    yield
    _tracer.durations[item.nodeid] = (time.perf_counter() - started) * 1000
    _tracer.current = ""


def pytest_collection_finish(session):
    if _recorder is not None:
        _recorder.snapshot()


def pytest_sessionfinish(session, exitstatus):
    if _tracer is not None:
        _tracer.stop()
        _tracer.dump()
    if _recorder is not None:
        _recorder.finish()


def pytest_configure(config):
    if _SELECT:
        config.option.maxfail = 1


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    if not _SELECT:
        return
    with open(_SELECT) as f:
        order = [line.rstrip("\n") for line in f if line.strip()]
    rank = {nodeid: i for i, nodeid in enumerate(order)}
    keep = [item for item in items if item.nodeid in rank]
    drop = [item for item in items if item.nodeid not in rank]
    keep.sort(key=lambda item: rank[item.nodeid])
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep


def pytest_runtest_logreport(report):
    if _SELECT and _FAILED and report.failed:
        if not os.path.exists(_FAILED):
            with open(_FAILED, "w") as f:
                f.write(report.nodeid)
