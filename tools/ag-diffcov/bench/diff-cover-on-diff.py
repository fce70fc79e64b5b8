#!/usr/bin/python3
"""diff-cover 7.4.0 (Debian's `diff-cover` package) on a diff file, which 7.4.0 cannot read itself.

  /usr/bin/python3 bench/diff-cover-on-diff.py PATCH.DIFF REPORT ROOT > answer.json

Runs diff-cover's own GitDiffReporter, XmlCoverageReporter or LcovCoverageReporter and
JsonReportGenerator; only `git diff` is replaced by the file's text (staged, unstaged and
untracked are empty) and the git root by ROOT (the directory the report's paths are under).
On the corpus it reproduces the recorded answers of the git-checkout runs but for `diff_name`.
Used to record test/fixtures/corpus/*/expected/diff-cover-7.4.0.cobertura-coverage.xml.json.
"""
import io
import sys
from xml.etree import ElementTree as etree

from diff_cover.diff_reporter import GitDiffReporter
from diff_cover.git_path import GitPathTool
from diff_cover.report_generator import JsonReportGenerator
from diff_cover.violationsreporters.violations_reporter import LcovCoverageReporter, XmlCoverageReporter

diff_file, report, root = sys.argv[1:4]
with open(diff_file, encoding='utf-8', errors='surrogateescape') as f:
    text = f.read()


class DiffFile:
    range_notation = '...'

    def diff_committed(self, compare_branch='origin/main'):
        return text

    def diff_staged(self):
        return ''

    def diff_unstaged(self):
        return ''

    def untracked(self):
        return []


GitPathTool._cwd = root
GitPathTool._root = root
diff = GitDiffReporter('base', git_diff=DiffFile(), ignore_staged=True, ignore_unstaged=True)
if report.endswith('.xml'):
    coverage = XmlCoverageReporter([etree.parse(report)], None)
else:
    coverage = LcovCoverageReporter([LcovCoverageReporter.parse(report)], None)
out = io.BytesIO()
JsonReportGenerator(coverage, diff).generate_report(out)
sys.stdout.write(out.getvalue().decode('utf-8'))
