"""``args = parser.parse_args()`` in a script: what each option holds when the script runs with no command-line
arguments (``python train.py``, its default run), read from the ``add_argument`` calls that build the parser.

Only a parser the code builds in plain sight is read: ``parser = argparse.ArgumentParser(...)`` then
``parser.add_argument(...)`` / ``parser.set_defaults(...)`` statements in the same block, and nothing else done with
the parser (no helper that adds arguments, no groups, sub-parsers or parent parsers) before ``parse_args()`` /
``parse_known_args()`` in a later statement of that block, with no argument list (or ``None``). A parser with a
required option or a required positional argument has no default run: nothing is known of it. An explicit command
line of known strings (``parse_args(["--n_his", "12"])``, a test's) is parsed in as argparse does for the plain
options (``_parsed``); one this reading does not follow leaves the namespace unknown.

What argparse gives each destination (checked against CPython's argparse):

* ``dest=`` if given, else the first long option without its ``--`` (``--max-gen-len`` -> ``max_gen_len``), else the
  first short one without its ``-``;
* the ``default`` (None when there is none); ``store_true`` defaults to False, ``store_false`` to True;
* a string default is converted by ``type`` (``type=int, default="8"`` is 8); other defaults are kept as given;
* ``parser.set_defaults(k=v)`` sets the default of the arguments added before it, and of those added after it
  without a default of their own; a destination no argument has takes it;
* two arguments with one destination: the first one's default;
* ``default=argparse.SUPPRESS`` leaves the attribute unset (unknown here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from ...sizes import Size
from ..index.imports import literal_str
from .interpreter import _PURE_INDEX
from .values import UNKNOWN, BoolV, DictV, FloatV, FuncV, IntV, NoneV, SeqV, StrV, Value
from .walk import children, contains, memo

if TYPE_CHECKING:
    from .interpreter import Interpreter
    from .module import ModuleAnalysis

# what may be done with the parser besides adding arguments: reading it, printing its help
_READS = frozenset({"parse_args", "parse_known_args", "print_help", "print_usage", "format_help", "format_usage"})
_BUILDS = frozenset({"add_argument", "set_defaults"})
# ArgumentParser keywords that change what parse_args() gives with no arguments
_PARSER_KEYWORDS_UNREAD = frozenset({"parents", "argument_default", "prefix_chars", "fromfile_prefix_chars"})
# expressions evaluated again here: they run no call (a default written as a constant, a name, arithmetic)
_PURE: tuple[type[cst.CSTNode], ...] = (*_PURE_INDEX, cst.ConcatenatedString, cst.List, cst.Divide, cst.Power)


@dataclass(frozen=True)
class _Parser:
    """``name = argparse.ArgumentParser(...)`` at ``block[start]``, built by the statements ``calls`` (in order),
    the last of them at ``block[end]``."""

    block: tuple[cst.BaseStatement, ...]
    start: int
    end: int
    ctor: cst.Call
    calls: tuple[cst.Call, ...]
    # the module whose function builds the parser, when it is another than the one parsing it (``build_parser()``
    # imported from ``options.py``): its names qualify the calls
    home: "ModuleAnalysis | None" = None


def namespace(m: "ModuleAnalysis", interp: "Interpreter", node: cst.Call) -> Value | None:
    """The value of ``node`` (``parser.parse_args()`` / ``parser.parse_known_args()``) in the default run, or None
    when the parser is not one read here."""
    func = node.func
    if type(func) is not cst.Attribute:
        return None
    p: _Parser | None
    if type(func.value) is cst.Call:
        p = _made_by(m, interp, func.value)  # get_parser().parse_args([])
        if p is None:
            return None
    elif type(func.value) is cst.Name:
        if interp.frame.key == "<module>":
            scope_node: cst.CSTNode = m.tree
        else:
            fi = m.find_function(interp.frame.key)
            if fi is None:
                return None
            scope_node = fi.node
        p = memo("argparse-parsers", scope_node, _parsers).get(func.value.value)
        if p is None:
            return None
        if not any(contains(stmt, node) for stmt in p.block[p.end + 1 :]):
            return None  # parsed before (or away from) the statements that add its arguments
        if m.qualify(p.ctor.func) != "argparse.ArgumentParser":
            # parser = get_parser(); parser.add_argument(...); parser.parse_args(): the function's arguments first
            made = _made_by(m, interp, p.ctor)
            if made is None:
                return None
            if made.home is not None:
                return None  # (arguments added here to a parser made in another module: names of two modules)
            p = _Parser(p.block, p.start, p.end, made.ctor, made.calls + p.calls)
    else:
        return None
    hm = p.home or m
    if hm.qualify(p.ctor.func) != "argparse.ArgumentParser":
        return None
    if any(a.keyword is not None and a.keyword.value in _PARSER_KEYWORDS_UNREAD for a in p.ctor.args):
        return None
    tokens: list[str] = []
    for a in node.args:  # parse_args(), parse_args(None), parse_args([]), parse_args(argv) with argv None or []
        if a.star or (a.keyword is not None and a.keyword.value != "args"):
            return None
        given = interp.eval(a.value) if isinstance(a.value, _PURE) else UNKNOWN
        if _no_arguments(given):
            continue
        if not (type(given) is SeqV and given.kind in ("list", "tuple")):
            return None
        tokens = [x.value for x in given.items if isinstance(x, StrV)]  # parse_args(["--n_his", "12"])
        if len(tokens) != len(given.items):
            return None
    # argparse's order: set_defaults changes the arguments added before it and is the default of those added after
    # it without one; parse_args sets each destination from its first argument, converts a string default by its
    # type, then sets the parser's defaults no argument set
    actions: list[tuple[str, Value, cst.BaseExpression | None]] = []  # (dest, default, type)
    parser_defaults: dict[str, Value] = {}
    specs: dict[str, _Spec] = {}  # option string -> what parses it
    for call in p.calls:
        attr = call.func.attr.value if type(call.func) is cst.Attribute else ""
        if attr == "set_defaults":
            for a in call.args:
                if a.star or a.keyword is None:
                    return None
                k, v = a.keyword.value, _value(interp, a.value)
                parser_defaults[k] = v
                actions = [(d, v if d == k else dv, t) for d, dv, t in actions]
            continue
        got = _option(hm, interp, call, parser_defaults, specs)
        if got is None:
            return None  # a required argument: the script has no run without arguments
        if got[0]:
            actions.append(got)
    values: dict[str, Value] = {}
    for dest, default, type_node in actions:
        if dest in values:
            continue
        if isinstance(default, StrV) and type_node is not None:
            default = _converted(hm, type_node, default.value)
        values[dest] = default
    for k, v in parser_defaults.items():
        values.setdefault(k, v)
    if tokens:
        if not _parsed(hm, tokens, specs, values):
            return None
    else:
        _choices_of(m, interp, p, values)
    ns = DictV(tuple(values.items()), "namespace")
    return ns if func.attr.value == "parse_args" else SeqV((ns, UNKNOWN), "tuple")


def _made_by(m: "ModuleAnalysis", interp: "Interpreter", call: cst.Call) -> _Parser | None:
    """``get_parser()``: a module-level function of this module, without parameters or decorators, whose body builds
    a parser in plain sight and hands it back (``parser = argparse.ArgumentParser(...)``, ``parser.add_argument(...)``
    statements, ``return parser``): that parser. Its defaults are read where it is parsed, so no name they use may
    be a variable there (it names the module's own value in the function)."""
    if call.args or type(call.func) is not cst.Name or call.func.value in interp.scope.vars:
        return None
    fv = m.globals.get(call.func.value)
    home = False  # built by a function of another module
    if fv is None and call.func.value in m.imports.names and m.project is not None:
        # ``from options import build_parser``: the function of another module of the analysed code
        fv = m.project.lookup(m.imports.names[call.func.value])
        home = True
    if not isinstance(fv, FuncV) or fv.bound_self is not None or fv.env:
        return None
    fi = m.find_function(fv.key) if home else m.functions.get(fv.key)
    if fi is None or fi.cls_key is not None or fi.node.decorators or fi.params or fi.rebound:
        return None
    if home and fi.module is m:
        home = False
    body = fi.node.body.body if type(fi.node.body) is cst.IndentedBlock else ()
    if len(body) < 2:
        return None
    name, ctor = _built(body[0])
    last = body[-1]
    if (
        name is None
        or ctor is None
        or type(last) is not cst.SimpleStatementLine
        or len(last.body) != 1
        or type(ret := last.body[0]) is not cst.Return
        or not (type(ret.value) is cst.Name and ret.value.value == name)
    ):
        return None
    calls = [_building_call(st, name) for st in body[1:-1]]
    if any(c is None for c in calls):
        return None
    todo: list[cst.CSTNode] = [ctor, *(c for c in calls if c is not None)]
    if home:
        # read here, in another module: the arguments of the calls may name nothing but builtins and argparse
        todo = [a.value for c in todo if type(c) is cst.Call for a in c.args]
    while todo:
        n = todo.pop()
        if type(n) is cst.Name and (n.value in interp.scope.vars or (home and n.value not in _LITERAL_NAMES)):
            return None
        if home and type(n) is cst.Attribute:
            if fi.module.qualify(n) not in ("argparse.SUPPRESS",):
                return None
            continue
        todo.extend(children(n))
    built = tuple(c for c in calls if c is not None)
    return _Parser(tuple(body), 0, len(body) - 2, ctor, built, fi.module if home else None)


# the names a parser built in another module may use in its arguments (``type=int``, ``default=None``)
_LITERAL_NAMES = frozenset({"int", "float", "str", "bool", "True", "False", "None"})


def _no_arguments(v: Value) -> bool:
    """An ``args`` that parses no command line: None (``sys.argv[1:]`` of a run without arguments) or an empty list
    or tuple (``main([])``)."""
    return isinstance(v, NoneV) or (type(v) is SeqV and not v.items and v.kind in ("list", "tuple"))


# at most this many other runs of one function, one per option choice that is not the default
MAX_CHOICE_RUNS = 8


def _choices_of(m: "ModuleAnalysis", interp: "Interpreter", p: _Parser, values: dict[str, Value]) -> None:
    """The other runs an option's ``choices`` offer (``--arch resnet10`` where the default is ``resnet26``): each is
    the script run with that one option on the command line. A function analysed on its own records them
    (``m.argparse_alternatives``) for ``ModuleAnalysis.analyse`` to run it again once per choice; during such a run
    (``m.argparse_choice``) the option holds the choice."""
    chosen = m.argparse_choice
    if chosen is not None and chosen[0] == id(p.ctor):
        values[chosen[1]] = chosen[3]
        return
    if interp.ctx.suppress_depth or interp.frame.depth or chosen is not None:
        return
    alternatives: list[tuple[int, str, str, Value]] = []
    for call in p.calls:
        if type(call.func) is not cst.Attribute or call.func.attr.value != "add_argument":
            continue
        kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        node = kw.get("choices")
        if node is None or "nargs" in kw or literal_str(kw.get("action", cst.SimpleString('"store"'))) != "store":
            continue  # a list (nargs, append) or an action's value: not the choice itself
        kind = kw.get("type")
        if kind is not None and not (type(kind) is cst.Name and kind.value == "str"):
            continue  # choices hold converted values: a string choice of type=int is never given
        got = _option(p.home or m, interp, call, {})
        flag = next((s for a in call.args if a.keyword is None for s in [literal_str(a.value)] if s), None)
        if got is None or not got[0] or flag is None or not flag.startswith("-") or got[0] not in values:
            continue
        for c in _choice_values(interp, node):
            if c != values[got[0]] and len(alternatives) < MAX_CHOICE_RUNS:
                alternatives.append((id(p.ctor), got[0], flag, c))
    if alternatives:
        m.argparse_alternatives.setdefault(interp.frame.key, alternatives)


def _choice_values(interp: "Interpreter", node: cst.BaseExpression) -> tuple[Value, ...]:
    """The strings ``choices=`` lists: a literal list or tuple, or the keys of a known dict (``sorted(ARCHS)``,
    ``list(ARCHS)``, ``ARCHS.keys()``, ``ARCHS``); nothing when any of them is not a known string."""
    if type(node) is cst.Call and len(node.args) == 1 and not node.args[0].keyword and not node.args[0].star:
        if type(node.func) is cst.Name and node.func.value in ("sorted", "list", "tuple"):
            node = node.args[0].value
    elif type(node) is cst.Call and not node.args and type(node.func) is cst.Attribute:
        if node.func.attr.value == "keys":
            node = node.func.value
    v = _value(interp, node)
    if isinstance(v, DictV) and v.kind == "dict":
        return tuple(StrV(k) for k, _ in v.items)
    if isinstance(v, SeqV) and v.items and all(isinstance(i, StrV) for i in v.items):
        return v.items
    return ()


@dataclass(frozen=True)
class _Spec:
    """How an option string of the command line parses: its destination, action, nargs, type and the values
    ``choices`` restricts it to (None: no choices; empty: choices not known)."""

    dest: str
    action: str
    nargs: str | None
    type: cst.BaseExpression | None
    choices: tuple[Value, ...] | None


def _parsed(m: "ModuleAnalysis", tokens: list[str], specs: dict[str, _Spec], values: dict[str, Value]) -> bool:
    """``values`` (the defaults) with the command line ``tokens`` parsed in, as argparse does for the options read
    here: ``--name value`` / ``--name=value`` converted by ``type``, ``store_true`` / ``store_false`` flags,
    ``nargs="+"`` / ``"*"`` lists. False for anything else (an option not known, which argparse would reject or
    might take as an abbreviation; a positional argument; a value that starts with ``-``; choices; other actions)."""

    def convert(spec: _Spec, text: str) -> Value:
        return StrV(text) if spec.type is None else _converted(m, spec.type, text)

    i = 0
    while i < len(tokens):
        flag, eq, inline = tokens[i].partition("=")
        spec = specs.get(flag) if flag.startswith("-") else None
        if spec is None or (spec.choices is not None and (spec.nargs is not None or not spec.choices)):
            return False
        if spec.action in ("store_true", "store_false"):
            if eq:
                return False
            values[spec.dest] = BoolV(spec.action == "store_true")
            i += 1
            continue
        if spec.action != "store":
            return False
        if spec.nargs is None:
            if eq:
                raw, i = inline, i + 1
            elif i + 1 < len(tokens) and not tokens[i + 1].startswith("-"):
                raw, i = tokens[i + 1], i + 2
            else:
                return False
            values[spec.dest] = convert(spec, raw)
            if spec.choices is not None and values[spec.dest] not in spec.choices:
                return False  # (argparse exits: "invalid choice")
        elif spec.nargs in ("+", "*") and not eq:
            j = i + 1
            while j < len(tokens) and not tokens[j].startswith("-"):
                j += 1
            if spec.nargs == "+" and j == i + 1:
                return False
            values[spec.dest] = SeqV(tuple(convert(spec, t) for t in tokens[i + 1 : j]), "list")
            i = j
        else:
            return False
    return True


def _option(
    m: "ModuleAnalysis",
    interp: "Interpreter",
    call: cst.Call,
    parser_defaults: dict[str, Value],
    specs: dict[str, _Spec] | None = None,
) -> tuple[str, Value, cst.BaseExpression | None] | None:
    """``(dest, default, type)`` of one ``add_argument`` call; ``("", ...)``: no attribute (help, version); None:
    the argument is required. ``specs``: gets how each of the call's option strings parses."""
    flags: list[str] = []
    kw: dict[str, cst.BaseExpression] = {}
    for a in call.args:
        if a.star:
            return ("", UNKNOWN, None) if a.star == "**" else None  # **spec: unread; *flags: which ones is unknown
        if a.keyword is not None:
            kw[a.keyword.value] = a.value
            continue
        s = literal_str(a.value)
        if s is None:
            return None
        flags.append(s)
    if not flags:
        return None
    positional = not flags[0].startswith("-")
    nargs = literal_str(kw["nargs"]) if "nargs" in kw else None
    if positional and nargs not in ("?", "*"):
        return None
    required = kw.get("required")
    if required is not None and not (type(required) is cst.Name and required.value == "False"):
        return None
    action = "store"
    if "action" in kw:
        action = literal_str(kw["action"]) or "other"  # argparse.BooleanOptionalAction, a custom Action
    if action in ("help", "version"):
        return ("", UNKNOWN, None)
    dest_node = kw.get("dest")
    dest = literal_str(dest_node) if dest_node is not None else None
    if dest is None:
        if dest_node is not None:
            return ("", UNKNOWN, None)
        longs = [f for f in flags if f.startswith("--")]
        dest = flags[0] if positional else (longs[0][2:] if longs else flags[0].lstrip("-")).replace("-", "_")
    type_node = kw.get("type")
    if specs is not None and not positional:
        # (``nargs=2``, a number or a name: not read, so a command line giving the option is not followed)
        choices = _choice_values(interp, kw["choices"]) if "choices" in kw else None
        spec = _Spec(dest, action, nargs if nargs is not None or "nargs" not in kw else "other", type_node, choices)
        for f in flags:
            specs.setdefault(f, spec)
    if "default" in kw:
        if m.qualify(kw["default"]) == "argparse.SUPPRESS":
            return (dest, UNKNOWN, None)
        return (dest, _value(interp, kw["default"]), type_node)
    if dest in parser_defaults:
        return (dest, parser_defaults[dest], type_node)
    if action == "store_true":
        return (dest, BoolV(False), None)
    if action == "store_false":
        return (dest, BoolV(True), None)
    if action in ("store", "store_const", "count", "append", "append_const", "extend", "other"):
        return (dest, NoneV(), None)
    return (dest, UNKNOWN, None)


def _converted(m: "ModuleAnalysis", type_node: cst.BaseExpression, text: str) -> Value:
    """argparse applies ``type`` to a string default."""
    kind = type_node.value if type(type_node) is cst.Name else m.qualify(type_node)
    try:
        if kind == "int":
            return IntV(Size.const(int(text)))
        if kind == "float":
            return FloatV(float(text))
    except ValueError:
        return UNKNOWN
    return StrV(text) if kind == "str" else UNKNOWN


def _value(interp: "Interpreter", node: cst.BaseExpression) -> Value:
    """A default evaluated again (its ``add_argument`` call already ran): only when that runs no call."""
    todo: list[cst.CSTNode] = [node]
    while todo:
        n = todo.pop()
        if not isinstance(n, _PURE):
            return UNKNOWN
        todo.extend(children(n))
    return interp.eval(node)


def _parsers(scope: cst.CSTNode) -> dict[str, _Parser | None]:
    """The parsers built in plain sight in the body of ``scope`` (a function or a module), by variable name."""
    found: dict[str, _Parser | None] = {}
    for block in _blocks(scope):
        for i, stmt in enumerate(block):
            name, ctor = _built(stmt)
            if name is None or ctor is None:
                continue
            if name in found:
                found[name] = None  # built twice: which one is parsed is not read here
                continue
            calls: list[cst.Call] = []
            end = i
            for j in range(i + 1, len(block)):
                call = _building_call(block[j], name)
                if call is not None:
                    calls.append(call)
                    end = j
            found[name] = _Parser(block, i, end, ctor, tuple(calls))
    # every use of the name must be accounted for: its assignment, the building calls, reads of the parser
    for name, p in list(found.items()):
        if p is not None:
            uses, reads = _occurrences(scope, name)
            if uses != 1 + len(p.calls) + reads:
                found[name] = None
    return found


def _blocks(scope: cst.CSTNode) -> list[tuple[cst.BaseStatement, ...]]:
    """The statement lists of ``scope``'s body and of the compound statements in it (not nested defs or classes)."""
    out: list[tuple[cst.BaseStatement, ...]] = []
    todo: list[cst.CSTNode] = []
    if type(scope) is cst.Module:
        out.append(tuple(scope.body))
        todo.extend(scope.body)
    elif type(scope) is cst.FunctionDef:
        todo.append(scope.body)
    while todo:
        n = todo.pop()
        if type(n) in (cst.FunctionDef, cst.ClassDef):
            continue
        if type(n) is cst.IndentedBlock:
            out.append(tuple(n.body))
        if isinstance(n, (cst.BaseCompoundStatement, cst.BaseSuite, cst.Else, cst.ExceptHandler, cst.Finally)):
            todo.extend(children(n))
    return out


def _built(stmt: cst.BaseStatement) -> tuple[str | None, cst.Call | None]:
    """``name = Something(...)`` (one target, a call without star arguments)."""
    if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
        return None, None
    a = stmt.body[0]
    if type(a) is not cst.Assign or len(a.targets) != 1 or type(a.targets[0].target) is not cst.Name:
        return None, None
    if type(a.value) is not cst.Call or any(arg.star for arg in a.value.args):
        return None, None
    return a.targets[0].target.value, a.value


def _building_call(stmt: cst.BaseStatement, name: str) -> cst.Call | None:
    """``name.add_argument(...)`` / ``name.set_defaults(...)`` as a statement of its own."""
    if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1 or type(stmt.body[0]) is not cst.Expr:
        return None
    call = stmt.body[0].value
    if type(call) is not cst.Call or type(call.func) is not cst.Attribute:
        return None
    f = call.func
    if type(f.value) is cst.Name and f.value.value == name and f.attr.value in _BUILDS:
        return call
    return None


def _occurrences(scope: cst.CSTNode, name: str) -> tuple[int, int]:
    """``(uses, reads)``: the occurrences of the variable ``name`` in ``scope`` (nested scopes included; not attribute
    names or keywords), and how many of them are ``name.parse_args`` or another read of a parser."""
    uses = reads = 0
    todo: list[cst.CSTNode] = [scope]
    while todo:
        n = todo.pop()
        if type(n) is cst.Name:
            uses += n.value == name
            continue
        if type(n) is cst.Attribute:
            if type(n.value) is cst.Name and n.value.value == name:
                reads += n.attr.value in _READS
            todo.append(n.value)
            continue
        if type(n) is cst.Arg:
            todo.append(n.value)
            continue
        if type(n) in (cst.FunctionDef, cst.Lambda) and _parameter(n.params, name):  # type: ignore[attr-defined]
            # ``def loss_fn(p): ...`` / ``lambda p: ...``: in the body ``p`` is the parameter; the decorators, the
            # defaults and the annotations are evaluated in the enclosing scope
            todo.extend(_outer_parts(n))  # type: ignore[arg-type]
            continue
        if isinstance(n, _COMPREHENSIONS) and _binds(n.for_in, name):
            # ``sum(p.numel() for p in m.parameters())``: the comprehension's own variable; only its first iterable
            # is evaluated in the enclosing scope
            todo.append(n.for_in.iter)
            continue
        todo.extend(children(n))
    return uses, reads


_COMPREHENSIONS = (cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp)


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    star = [params.star_arg] if isinstance(params.star_arg, cst.Param) else []
    kwargs = [params.star_kwarg] if params.star_kwarg is not None else []
    return [*params.posonly_params, *params.params, *star, *params.kwonly_params, *kwargs]


def _parameter(params: cst.Parameters, name: str) -> bool:
    """Whether ``name`` is one of the parameters ``params`` of a nested function or lambda."""
    return any(q.name.value == name for q in _all_params(params))


def _outer_parts(fn: cst.FunctionDef | cst.Lambda) -> list[cst.CSTNode]:
    """What of a nested ``def`` or ``lambda`` is evaluated in the enclosing scope when it is defined: decorators,
    parameter defaults and annotations, the return annotation (the name being defined is not read)."""
    out: list[cst.CSTNode] = []
    for q in _all_params(fn.params):
        if q.default is not None:
            out.append(q.default)
        if type(fn) is cst.FunctionDef and q.annotation is not None:
            out.append(q.annotation)
    if type(fn) is cst.FunctionDef:
        out.extend(fn.decorators)
        if fn.returns is not None:
            out.append(fn.returns)
    return out


def _binds(comp: cst.CompFor | None, name: str) -> bool:
    """Whether a ``for`` of the comprehension ``comp`` starts assigns ``name`` (making it local to the comprehension)."""
    while comp is not None:
        todo: list[cst.CSTNode] = [comp.target]
        while todo:
            n = todo.pop()
            if type(n) is cst.Name:
                if n.value == name:
                    return True
            elif isinstance(n, (cst.Tuple, cst.List, cst.StarredElement, cst.Element)):
                todo.extend(children(n))
        comp = comp.inner_for_in
    return False
