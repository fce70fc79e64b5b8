"""pytest plugin of ag-mutate: per-test line coverage of the changed files, and test selection.

Loaded with ``-p ag_mutate_pytest`` (PYTEST_ADDOPTS, the package's python/ folder on
PYTHONPATH); does nothing unless one of its environment variables is set.

- AG_MUTATE_TRACE_DIR and AG_MUTATE_TRACE_FILES (a JSON list of absolute paths): record,
  for every test (setup, call and teardown), which lines of those files ran, and its
  duration; lines run outside any test (imports at collection) go under the key "".
  Written to TRACE_DIR/<pid>.json at the end of the session (one file per process, so
  xdist workers do not overwrite each other).
- AG_MUTATE_SELECT (a file with one node id per line): run only those tests, in that order,
  and stop at the first failure. The node id of the first failing test is written to
  AG_MUTATE_FAILED (if set).
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


class _Tracer:
    """Line events of the wanted files only: other frames get no local trace function."""

    def __init__(self, files):
        self.wanted = {os.path.realpath(f) for f in files}
        self.known = {}
        self.current = ""
        self.lines = {"": {}}
        self.durations = {}

    def _is_wanted(self, filename):
        hit = self.known.get(filename)
        if hit is None:
            hit = os.path.realpath(filename) in self.wanted
            self.known[filename] = hit
        return hit

    def global_trace(self, frame, event, arg):
        filename = frame.f_code.co_filename
        if not self._is_wanted(filename):
            return None
        self._line(filename, frame.f_lineno)
        return self.local_trace

    def local_trace(self, frame, event, arg):
        if event == "line":
            self._line(frame.f_code.co_filename, frame.f_lineno)
        return self.local_trace

    def _line(self, filename, line):
        per_test = self.lines.setdefault(self.current, {})
        per_test.setdefault(os.path.realpath(filename), set()).add(line)

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


_tracer = None
if _TRACE_DIR and os.environ.get("AG_MUTATE_TRACE_FILES"):
    _tracer = _Tracer(json.loads(os.environ["AG_MUTATE_TRACE_FILES"]))
    _tracer.start()


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


def pytest_sessionfinish(session, exitstatus):
    if _tracer is not None:
        _tracer.stop()
        _tracer.dump()


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
