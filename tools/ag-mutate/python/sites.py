"""List mutation sites of Python files on given lines (the ag-mutate Python engine).

Reads {"files": [{"path", "text", "lines"}]} as JSON on stdin and writes
{"files": [{"path", "error", "sites": [{start, end, operator, rank, replacement, parses}],
"canaries": [{function, fn_start, fn_end, start, end, prefix, suffix, stmt_lines, parses, rename?, local?}]}]}
(a canary with `rename` replaces the function, start to end, by that text with each NUL the local
`local` renamed; else it inserts prefix, a token and suffix)
on stdout (canaries: where a behaviour-neutral edit can go in each function holding a given line).
Offsets are code-point offsets into the text, end exclusive. Uses only the standard library
(ast, tokenize), so it runs on the project's own interpreter.
"""
import ast
import copy
import io
import json
import re
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
BIT_SWAPS = {
    ast.BitOr: ("|", "&"), ast.BitAnd: ("&", "|"), ast.BitXor: ("^", "&"), ast.LShift: ("<<", ">>"), ast.RShift: (">>", "<<"),
}
# str methods swapped for their mirror (as the JavaScript engine's MethodExpression).
METHOD_SWAPS = {
    "startswith": "endswith", "endswith": "startswith", "lstrip": "rstrip", "rstrip": "lstrip",
    "upper": "lower", "lower": "upper", "find": "rfind", "rfind": "find", "index": "rindex", "rindex": "index",
    "ceil": "floor", "floor": "ceil",
    "ljust": "rjust", "rjust": "ljust",
}
ARID_ROOTS = {"print", "logging", "logger", "log", "warnings", "metrics", "telemetry"}
RE_FUNCS = {"compile", "match", "search", "fullmatch", "sub", "subn", "split", "findall", "finditer"}
CLASS_ESCAPES = {"d": "D", "D": "d", "w": "W", "W": "w", "s": "S", "S": "s", "b": "B", "B": "b"}


def regex_mutations(pattern, limit=8):
    """Anchors dropped, character classes negated, quantifiers dropped (as engines/regex.ts)."""
    out = []

    def add(at, length, to):
        if len(out) < limit:
            out.append(pattern[:at] + to + pattern[at + length:])

    def quantifier(i):
        c = pattern[i:i + 1]
        length = 0
        if c in ("+", "*", "?"):
            length = 1
        elif c == "{":
            m = re.match(r"\{\d+(?:,\d*)?\}", pattern[i:])
            if m:
                length = len(m.group(0))
        if length == 0:
            return i
        if pattern[i + length:i + length + 1] == "?":
            length += 1
        add(i, length, "")
        return i + length

    i = 0
    while i < len(pattern) and len(out) < limit:
        c = pattern[i]
        if c == "\\":
            nxt = pattern[i + 1:i + 2]
            if nxt in CLASS_ESCAPES:
                add(i, 2, "\\" + CLASS_ESCAPES[nxt])
            i = i + 2 if nxt in ("b", "B") else quantifier(i + 2)
            continue
        if c == "[":
            j = i + 1
            if pattern[j:j + 1] == "^":
                j += 1
            if pattern[j:j + 1] == "]":
                j += 1
            while j < len(pattern) and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            if j >= len(pattern):
                break
            body = pattern[i:j + 1]
            add(i, len(body), "[" + body[2:] if body.startswith("[^") else "[^" + body[1:])
            i = quantifier(j + 1)
            continue
        if c == "^" and i == 0:
            add(i, 1, "")
        elif c == "$" and i == len(pattern) - 1:
            add(i, 1, "")
        i += 1
        if c not in ("(", "|", "^"):
            i = quantifier(i)
    return out


def is_re_call(node):
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr in RE_FUNCS and isinstance(f.value, ast.Name) and f.value.id == "re"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))


def valid_regex(pattern):
    try:
        re.compile(pattern)
        return True
    except (re.error, ValueError, OverflowError):
        return False


RENAME_HAZARDS = re.compile(r"\b(?:locals|vars|eval|exec|globals)\s*\(|\b(?:global|nonlocal)\b|__dict__|_getframe|f_locals|\bsuper\s*\(\s*\)")


class _RenameName(ast.NodeTransformer):
    """Every Name `old` made `new`."""

    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old:
            node.id = self.new
        return node


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


COMPOUND = tuple([ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.FunctionDef,
                  ast.AsyncFunctionDef, ast.ClassDef]
                 + [getattr(ast, name) for name in ("Match", "TryStar") if hasattr(ast, name)])
CANARY_TOKEN_SHAPE = '"ag_00000000"'
# Operators whose every replacement only breaks the value's type (`return None`, a value → `None`).
TYPE_BREAKING = {"ReturnValue", "AssignedValue"}


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def blocks_of(stmt):
    """A compound statement's statement lists, in source order."""
    if MATCH_CASE is not None and isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    blocks = [stmt.body] + [handler.body for handler in getattr(stmt, "handlers", [])]
    return [b for b in blocks + [getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])] if b]


def own_simple(body):
    """The first simple statement of a statement list in source order, outside nested functions and classes."""
    for stmt in body:
        if not isinstance(stmt, COMPOUND):
            return stmt
        if isinstance(stmt, DEFINITIONS):
            continue
        for block in blocks_of(stmt):
            found = own_simple(block)
            if found is not None:
                return found
    return None


def first_simple(body):
    """The function's own first simple statement, else the first one in source order (every body comes first)."""
    stmt = own_simple(body)
    if stmt is not None:
        return stmt
    stmt = body[0]
    while isinstance(stmt, COMPOUND):
        stmt = blocks_of(stmt)[0][0]
    return stmt


class Collector:
    def __init__(self, text):
        self.text = text
        self.off = Offsets(text)
        self.canaries = []
        self.sites = []
        self.executable = []
        self.function = None
        self.tail_returns = set()
        self.stmt_lines = (1, 1)
        self.tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type in (tokenize.OP, tokenize.NAME)]
        self.token_offsets = [(self.off.starts[t.start[0] - 1] + t.start[1], self.off.starts[t.end[0] - 1] + t.end[1], t.string)
                              for t in self.tokens]

    def add(self, start, end, operator, rank, replacement):
        if self.text[start:end] != replacement:
            site = {"start": start, "end": end, "operator": operator, "rank": rank, "replacement": replacement,
                    "stmt_lines": list(self.stmt_lines), "function": self.function}
            if operator in TYPE_BREAKING:
                site["breaks_type"] = True
            self.sites.append(site)

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
            if len(node.ops) == 1 and isinstance(node.ops[0], ast.In) and is_plain_str(node.left):
                # `"lit" in s` (containment) → `s.startswith("lit")`: a test whose strings hold the
                # literal only at their start cannot tell the two apart.
                ls, le = self.off.node(node.left)
                rs, re_ = self.off.node(node.comparators[0])
                self.add(s, e, "MethodExpression", 6, "(" + self.text[rs:re_] + ").startswith(" + self.text[ls:le] + ")")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in METHOD_SWAPS:
            fe = self.off.node(node.func)[1]
            at = fe - len(node.func.attr)
            if self.text[at:fe] == node.func.attr:
                self.add(at, fe, "MethodExpression", 6, METHOD_SWAPS[node.func.attr])
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
        elif isinstance(node, ast.BinOp) and type(node.op) in BIT_SWAPS:
            sym, to = BIT_SWAPS[type(node.op)]
            span = self.op_between(self.off.node(node.left)[1], self.off.node(node.right)[0], [sym])
            if span:
                self.add(span[0], span[1], "BitwiseOperator", 4, to)
                ls, le = self.off.node(node.left)
                self.add(s, e, "BitwiseOperator", 4, "(" + self.text[ls:le] + ")")
        elif isinstance(node, ast.Call) and is_re_call(node):
            arg = node.args[0]
            a_s, a_e = self.off.node(arg)
            anchored = node.func.attr in ("match", "fullmatch")  # anchored at the start anyway: `^` dropped is equivalent
            for pattern in regex_mutations(arg.value):
                if anchored and arg.value.startswith("^") and pattern == arg.value[1:]:
                    continue
                if valid_regex(pattern):
                    self.add(a_s, a_e, "Regex", 3, repr(pattern))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and not isinstance(node.value, (ast.Constant, ast.Lambda)):
            vs, ve = self.off.node(node.value)
            self.add(vs, ve, "AssignedValue", 6, "None")
        elif (isinstance(node, ast.AnnAssign) and isinstance(parent, ast.ClassDef) and is_dataclass(parent)
              and isinstance(node.value, ast.Constant) and node.value.value is None):
            # A dataclass field whose default is None (`pre: Optional[str] = None`): no literal to
            # mutate, so the default itself goes (the field becomes required). A plain class's
            # annotated default is left alone: __init__ often sets it anyway (an equivalent mutant).
            _, ae = self.off.node(node.annotation)
            _, ve = self.off.node(node.value)
            self.add(ae, ve, "AssignedValue", 6, "")
        elif isinstance(node, (ast.Assert, ast.Delete)):
            self.add(s, e, "StatementRemoval", 5, "pass")
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            i_s, i_e = self.off.node(node.iter)
            self.add(i_s, i_e, "LoopIterable", 5, "[]")
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
        elif isinstance(node, ast.Return) and id(node) not in self.tail_returns:
            # An early `return` (no value): without it the function goes on. One in tail position
            # ends the function either way, so removing it would be equivalent.
            self.add(s, e, "StatementRemoval", 5, "pass")
        elif isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)):
            self.add(s, e, "StatementRemoval", 5, "pass")
        elif isinstance(node, ast.Raise):
            self.add(s, e, "StatementRemoval", 5, "pass")
        elif isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                self.add(s, e, "BooleanLiteral", 6, "False" if v else "True")
            elif isinstance(v, (int, float)) and not isinstance(parent, ast.UnaryOp):
                self.add(s, e, "NumberLiteral", 6, repr(v + 1))
            elif isinstance(v, str) and not isinstance(parent, ast.JoinedStr) and not (isinstance(parent, ast.Call) and is_re_call(parent) and parent.args[0] is node):
                self.add(s, e, "StringLiteral", 7, '""' if v else '"XX"')
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) and node.elts and isinstance(node.ctx if hasattr(node, "ctx") else ast.Load(), ast.Load) and not isinstance(node, ast.Set):
            if isinstance(node, ast.List):
                self.add(s, e, "ArrayDeclaration", 7, "[]")
        elif isinstance(node, ast.Dict) and node.keys:
            self.add(s, e, "ObjectLiteral", 7, "{}")

    def renamed_local(self, node):
        """A local of the function renamed throughout it, if one can be without changing what it does:
        (template with each occurrence a NUL, the local's name), or None. Only a name the function
        assigns (not a parameter) in a function that reads no frame or scope by name; the rename is
        kept only when the function parsed again is the original with that one name changed (a
        string, keyword argument or attribute of the same spelling would differ). Lines stay."""
        fs, fe = self.off.node(node)
        span = self.text[fs:fe]
        if RENAME_HAZARDS.search(span):
            return None
        a = node.args
        params = {p.arg for p in getattr(a, "posonlyargs", []) + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if p is not None}
        counts = {}
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                counts[n.id] = counts.get(n.id, 0) + 1
        stored = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for local in sorted(stored - params, key=lambda x: (-counts[x], x))[:3]:
            template = re.sub(r"(?<![\w.])" + re.escape(local) + r"(?!\w)", "\0", span)
            fresh = local + "_ag_0"
            try:
                tree = ast.parse(self.text[:fs] + template.replace("\0", fresh) + self.text[fe:])
            except SyntaxError:
                continue
            again = next((n for n in ast.walk(tree) if isinstance(n, type(node)) and n.lineno == node.lineno and n.col_offset == node.col_offset), None)
            if again is not None and ast.dump(again) == ast.dump(_RenameName(local, fresh).visit(copy.deepcopy(node))):
                return template, local
        return None

    def canary(self, node, name):
        """Where a canary goes in a function: `; b"ag_…"` after its first simple statement (a docstring
        stays the docstring; a bytes literal never becomes one; nothing shifts a line, no bytecode is added).
        The function ran when any line of its body past a docstring ran (every mutant in it needs one
        of them to run); a docstring alone: no canary."""
        body = node.body
        runs = body[1:] if is_docstring(body[0], node) else body
        if not runs:
            return
        stmt = first_simple(body)
        at = self.off.at(stmt.end_lineno, stmt.end_col_offset)
        fs, fe = self.off.node(node)
        spot = {"function": name, "fn_start": fs, "fn_end": fe, "start": at, "end": at, "prefix": "; b",
                "suffix": "", "stmt_lines": [runs[0].lineno, max(runs[0].lineno, node.end_lineno)]}
        # A renamed local changes the text a test could pin line by line, not only the whole function's.
        renamed = self.renamed_local(node)
        if renamed is not None:
            spot.update({"start": fs, "end": fe, "prefix": "", "rename": renamed[0], "local": renamed[1]})
        self.canaries.append(spot)

    def case(self, case):
        """A `case` label that never matches (the label removed): `case 9:` → `case 9 if False:`."""
        ps, pe = self.off.node(case.pattern)
        if case.guard is None:
            self.add(ps, pe, "CaseLabel", 2, self.text[ps:pe] + " if False")
        if isinstance(case.pattern, ast.MatchOr):
            for alt in case.pattern.patterns:
                a_s, a_e = self.off.node(alt)
                rest = [p for p in case.pattern.patterns if p is not alt]
                spans = [self.off.node(p) for p in rest]
                self.add(ps, pe, "CaseLabel", 2, " | ".join(self.text[a:b] for a, b in spans))

    def text_op(self, op):
        return {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.In: "in"}[type(op)]


def is_dataclass(cls):
    """True when a class is decorated `@dataclass`, `@dataclasses.dataclass` or `@dataclass(...)`."""
    for d in cls.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
        if name == "dataclass":
            return True
    return False


def is_plain_str(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def is_str(node):
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


SKIP_FIELDS = {"annotation", "returns", "type_comment", "type_params"}


def tail_returns(body, out):
    """The ids of the `return` statements in tail position of a statement list: what runs last."""
    if not body:
        return out
    last = body[-1]
    if isinstance(last, ast.Return):
        out.add(id(last))
    elif isinstance(last, ast.If):
        tail_returns(last.body, out)
        tail_returns(last.orelse, out)
    elif isinstance(last, (ast.With, ast.AsyncWith)):
        tail_returns(last.body, out)
    elif isinstance(last, ast.Try) or (hasattr(ast, "TryStar") and isinstance(last, ast.TryStar)):
        tail_returns(last.orelse if last.orelse else last.body, out)
        for handler in last.handlers:
            tail_returns(handler.body, out)
    elif MATCH_CASE is not None and isinstance(last, ast.Match):
        for case in last.cases:
            tail_returns(case.body, out)
    return out


def stmt_lines(stmt):
    """Lines whose execution shows the statement ran: a compound statement's header, a simple one whole."""
    body = getattr(stmt, "body", None)
    if isinstance(body, list) and body and hasattr(body[0], "lineno"):
        return stmt.lineno, max(stmt.lineno, body[0].lineno - 1)
    return stmt.lineno, stmt.end_lineno


NOT_EXECUTABLE = tuple([ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Pass, ast.Try, ast.With, ast.AsyncWith]
                       + [getattr(ast, name) for name in ("Match", "TryStar") if hasattr(ast, name)])
MATCH_CASE = getattr(ast, "match_case", None)


def walk(c, node, parent):
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
        return
    if isinstance(node, ast.stmt) and (is_arid(node) or is_docstring(node, parent)):
        return
    if isinstance(node, ast.JoinedStr):
        return
    outer = c.stmt_lines
    outer_function = c.function
    if isinstance(node, ast.stmt):
        c.stmt_lines = stmt_lines(node)
        if not isinstance(node, NOT_EXECUTABLE) and not (isinstance(node, ast.AnnAssign) and node.value is None):
            c.executable.append(node.lineno)
    if MATCH_CASE is not None and isinstance(node, MATCH_CASE):
        c.executable.append(node.pattern.lineno)
        c.case(node)
    c.node(node, parent)
    outer_tails = c.tail_returns
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        c.function = node.name if not isinstance(parent, ast.ClassDef) else parent.name + "." + node.name
        c.tail_returns = tail_returns(node.body, set())
        c.canary(node, c.function)
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
    c.function = outer_function
    c.tail_returns = outer_tails


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
    executable = sorted(set(n for n in c.executable if n in wanted))
    canaries = []
    for spot in c.canaries:
        first, last = line_of(text, spot["fn_start"]), line_of(text, max(spot["fn_start"], spot["fn_end"] - 1))
        if not any(first <= n <= last for n in wanted):
            continue
        if "rename" in spot:
            edited = text[: spot["start"]] + spot["rename"].replace("\0", spot["local"] + "_ag_00000000") + text[spot["end"]:]
        else:
            edited = text[: spot["start"]] + spot["prefix"] + CANARY_TOKEN_SHAPE + spot["suffix"] + text[spot["end"]:]
        spot["parses"] = compiles(edited, path)
        canaries.append(spot)
    return {"path": path, "error": None, "sites": out, "executable": executable, "canaries": canaries}


def code_of(text, path):
    """The module's code as the interpreter sees it (docstrings, comments and layout left out), or None when it does not compile."""
    try:
        tree = ast.parse(text, path)
        compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and is_docstring(body[0], node)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def reverts_for(path, text, reverts):
    """Per reverted text: whether it compiles, and whether its code is the patch's own (no executable change)."""
    own = code_of(text, path)
    out = []
    for reverted in reverts:
        code = code_of(reverted, path)
        out.append({"parses": code is not None, "same": code is not None and code == own})
    return out


def answer_for(f):
    result = sites_for(f["path"], f["text"], f["lines"])
    if result["error"] is None and f.get("reverts"):
        result["reverts"] = reverts_for(f["path"], f["text"], f["reverts"])
    return result


def main():
    request = json.load(sys.stdin)
    result = {"files": [answer_for(f) for f in request["files"]]}
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
