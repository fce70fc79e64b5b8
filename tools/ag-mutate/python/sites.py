"""List mutation sites of Python files on given lines (the ag-mutate Python engine).

Reads {"files": [{"path", "text", "lines"}]} as JSON on stdin and writes
{"files": [{"path", "error", "sites": [{start, end, operator, rank, replacement, parses}]}]}
on stdout. Offsets are code-point offsets into the text, end exclusive. Uses only the
standard library (ast, tokenize), so it runs on the project's own interpreter.
"""
import ast
import io
import json
import sys
import tokenize

CMP_SWAPS = {
    ast.Lt: ("<=",), ast.LtE: ("<",), ast.Gt: (">=",), ast.GtE: (">",),
    ast.Eq: ("!=",), ast.NotEq: ("==",), ast.Is: ("is not",), ast.IsNot: ("is",),
    ast.In: ("not in",), ast.NotIn: ("in",),
}
BIN_SWAPS = {
    ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "/"), ast.Div: ("/", "*"),
    ast.FloorDiv: ("//", "/"), ast.Mod: ("%", "*"), ast.Pow: ("**", "*"),
}
ARID_ROOTS = {"print", "logging", "logger", "log", "warnings", "metrics", "telemetry"}


class Offsets:
    """Turns (line, byte column) from ast into code-point offsets."""

    def __init__(self, text):
        parts = text.split("\n")
        self.lines = [part + "\n" for part in parts[:-1]] + [parts[-1]]
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def at(self, line, col_bytes):
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.starts[line - 1] + len(text.encode("utf-8")[:col_bytes].decode("utf-8", "replace"))

    def node(self, n):
        return self.at(n.lineno, n.col_offset), self.at(n.end_lineno, n.end_col_offset)


def root_name(node):
    while isinstance(node, (ast.Attribute, ast.Call)):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node.id if isinstance(node, ast.Name) else None


def is_arid(stmt):
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and root_name(stmt.value.func) in ARID_ROOTS


def is_docstring(stmt, parent):
    body = getattr(parent, "body", None)
    return (isinstance(body, list) and body and body[0] is stmt and isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str))


class Collector:
    def __init__(self, text):
        self.text = text
        self.off = Offsets(text)
        self.sites = []
        self.stmt_lines = (1, 1)
        self.tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type in (tokenize.OP, tokenize.NAME)]
        self.token_offsets = [(self.off.starts[t.start[0] - 1] + t.start[1], self.off.starts[t.end[0] - 1] + t.end[1], t.string)
                              for t in self.tokens]

    def add(self, start, end, operator, rank, replacement):
        if self.text[start:end] != replacement:
            self.sites.append({"start": start, "end": end, "operator": operator, "rank": rank, "replacement": replacement,
                               "stmt_lines": list(self.stmt_lines)})

    def op_between(self, lo, hi, words):
        """Span of the operator token(s) `words` between offsets lo and hi."""
        toks = [t for t in self.token_offsets if t[0] >= lo and t[1] <= hi]
        for i in range(len(toks) - len(words) + 1):
            if all(toks[i + k][2] == words[k] for k in range(len(words))):
                return toks[i][0], toks[i + len(words) - 1][1]
        return None

    def node(self, node, parent):
        s, e = self.off.node(node) if hasattr(node, "lineno") else (None, None)
        if isinstance(node, (ast.If, ast.While)):
            ts, te = self.off.node(node.test)
            self.add(ts, te, "ConditionalExpression", 1, "False")
            if isinstance(node, ast.If):
                self.add(ts, te, "ConditionalExpression", 1, "True")
        elif isinstance(node, ast.IfExp):
            ts, te = self.off.node(node.test)
            self.add(ts, te, "ConditionalExpression", 1, "False")
            self.add(ts, te, "ConditionalExpression", 1, "True")
        elif isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                swap = CMP_SWAPS.get(type(op))
                if swap:
                    lo, hi = self.off.node(left)[1], self.off.node(right)[0]
                    words = {ast.IsNot: ["is", "not"], ast.NotIn: ["not", "in"]}.get(type(op))
                    if words is None:
                        words = [self.text_op(op)]
                    span = self.op_between(lo, hi, words)
                    if span:
                        for to in swap:
                            self.add(span[0], span[1], "EqualityOperator", 2, to)
                left = right
        elif isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            to = "or" if word == "and" else "and"
            for a, b in zip(node.values, node.values[1:]):
                span = self.op_between(self.off.node(a)[1], self.off.node(b)[0], [word])
                if span:
                    self.add(span[0], span[1], "LogicalOperator", 3, to)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub, ast.Invert)):
            os_, _ = self.off.node(node.operand)
            self.add(s, os_, "UnaryOperator", 3, "")
        elif isinstance(node, ast.BinOp) and type(node.op) in BIN_SWAPS:
            sym, to = BIN_SWAPS[type(node.op)]
            if not (isinstance(node.op, ast.Add) and (is_str(node.left) or is_str(node.right))):
                span = self.op_between(self.off.node(node.left)[1], self.off.node(node.right)[0], [sym])
                if span:
                    self.add(span[0], span[1], "ArithmeticOperator", 4, to)
        elif isinstance(node, ast.AugAssign) and type(node.op) in BIN_SWAPS:
            sym, to = BIN_SWAPS[type(node.op)]
            if not (isinstance(node.op, ast.Add) and is_str(node.value)):
                span = self.op_between(self.off.node(node.target)[1], self.off.node(node.value)[0], [sym + "="])
                if span:
                    self.add(span[0], span[1], "AssignmentOperator", 4, to + "=")
        elif isinstance(node, (ast.Break, ast.Continue)):
            self.add(s, e, "ControlKeyword", 4, "continue" if isinstance(node, ast.Break) else "break")
        elif isinstance(node, ast.Return) and node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            self.add(s, e, "ReturnValue", 5, "return None")
        elif isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)):
            self.add(s, e, "StatementRemoval", 5, "pass")
        elif isinstance(node, ast.Raise):
            self.add(s, e, "StatementRemoval", 5, "pass")
        elif isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                self.add(s, e, "BooleanLiteral", 6, "False" if v else "True")
            elif isinstance(v, int) and not isinstance(parent, ast.UnaryOp):
                self.add(s, e, "NumberLiteral", 6, str(v + 1))
            elif isinstance(v, str) and not isinstance(parent, ast.JoinedStr):
                self.add(s, e, "StringLiteral", 7, '""' if v else '"XX"')
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) and node.elts and isinstance(node.ctx if hasattr(node, "ctx") else ast.Load(), ast.Load) and not isinstance(node, ast.Set):
            if isinstance(node, ast.List):
                self.add(s, e, "ArrayDeclaration", 7, "[]")
        elif isinstance(node, ast.Dict) and node.keys:
            self.add(s, e, "ObjectLiteral", 7, "{}")

    def text_op(self, op):
        return {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.In: "in"}[type(op)]


def is_str(node):
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


SKIP_FIELDS = {"annotation", "returns", "type_comment", "type_params"}


def stmt_lines(stmt):
    """Lines whose execution shows the statement ran: a compound statement's header, a simple one whole."""
    body = getattr(stmt, "body", None)
    if isinstance(body, list) and body and hasattr(body[0], "lineno"):
        return stmt.lineno, max(stmt.lineno, body[0].lineno - 1)
    return stmt.lineno, stmt.end_lineno


def walk(c, node, parent):
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
        return
    if isinstance(node, ast.stmt) and (is_arid(node) or is_docstring(node, parent)):
        return
    if isinstance(node, ast.JoinedStr):
        return
    outer = c.stmt_lines
    if isinstance(node, ast.stmt):
        c.stmt_lines = stmt_lines(node)
    c.node(node, parent)
    for field, value in ast.iter_fields(node):
        if field in SKIP_FIELDS:
            continue
        if isinstance(node, ast.Call) and field == "keywords":
            for kw in value:
                walk(c, kw.value, kw)
            continue
        if isinstance(value, list):
            for child in value:
                if isinstance(child, ast.AST):
                    walk(c, child, node)
        elif isinstance(value, ast.AST):
            walk(c, value, node)
    c.stmt_lines = outer


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def compiles(text, path):
    try:
        compile(text, path, "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError):
        return False


def sites_for(path, text, lines):
    try:
        tree = ast.parse(text, path)
    except (SyntaxError, ValueError) as error:
        return {"path": path, "error": "%s: %s" % (type(error).__name__, error), "sites": []}
    c = Collector(text)
    walk(c, tree, None)
    wanted = set(lines)
    out = []
    for site in c.sites:
        if line_of(text, site["start"]) not in wanted:
            continue
        mutated = text[: site["start"]] + site["replacement"] + text[site["end"]:]
        site["parses"] = compiles(mutated, path)
        out.append(site)
    return {"path": path, "error": None, "sites": out}


def main():
    request = json.load(sys.stdin)
    result = {"files": [sites_for(f["path"], f["text"], f["lines"]) for f in request["files"]]}
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
