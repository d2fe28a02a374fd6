"""Name registries filled by a decorator (how timm, open_clip and many repositories build models by name).

    _entrypoints = {}                      # a module-level dict, bound once, empty

    def register_model(fn):                # the registering decorator: one plain parameter
        name = fn.__name__                 # (or ``_entrypoints[fn.__name__] = fn``)
        _entrypoints[name] = fn            # the one store into the dict, unconditional
        return fn

    @register_model
    def resnet10(**kwargs): ...

    def model_entrypoint(name):
        return _entrypoints[name]          # a read by a known string: ``resnet10``'s function

A read ``D[key]`` of such a dict by a known string is the function of that name decorated (with that decorator
alone) in a module that surely ran: one the registry module's own import loads, following module-level imports from
it and from its parent packages (importing ``pkg.registry`` runs ``pkg/__init__.py`` first). Anything that could make
the answer another function or none keeps the read unknown: any other use of the dict's name in its module than the
module-level binding, that one store and plain reads (``D[k]``, ``k in D``, ``D.get(k)``, ``D.keys()``, iteration,
``len``), another module mentioning the name, a call of the decorator other than as ``@decorator``, no such function,
or two of them among the modules that may run (also through imports inside functions, and the checked files)."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any, Iterator, cast

import libcst as cst

from ..index.resolve import loaded_modules
from .values import FuncV, RefV

if TYPE_CHECKING:
    from ..index.project import Project
    from .module import ModuleAnalysis

_READS = frozenset({"get", "keys", "values", "items", "copy"})
_COPYING = frozenset({"len", "list", "tuple", "sorted", "set", "frozenset", "iter", "dict"})


Writer = tuple[str, int, str]  # a function storing under keys of one of its parameters: (name, position, parameter)
# a decorator factory's key (``name or fn.__name__``): the factory's parameter and its position ("" and -1: always
# the function's name)
FactoryKey = tuple[str, int]
# (the registering decorator, the other writers, the factory's key when the decorator is a factory's call)
Form = tuple[str, tuple[Writer, ...], "FactoryKey | None"]


def registry_forms(text: str) -> dict[str, Form]:
    """The module-level dicts of ``text`` filled only by a registering decorator (and by keyed writers, see
    ``_keyed_store``): dict name -> (decorator name, writers)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    empty: dict[str, int] = {}
    for st in tree.body:
        target, value = _binding(st)
        if type(target) is ast.Name and value is not None and _empty_dict(value):
            empty[target.id] = empty.get(target.id, 0) + 1
    names = {n for n, c in empty.items() if c == 1}
    if not names:
        return {}
    stores: dict[str, list[str]] = {}  # dict -> the decorators storing into it
    writers: dict[str, list[Writer]] = {}
    bad: set[str] = set()
    # (node, parent, the module-level function it is in, whether it is a statement of that function's own body)
    stack: list[tuple[ast.AST, ast.AST | None, ast.FunctionDef | None]] = [(tree, None, None)]
    while stack:
        node, parent, fn = stack.pop()
        tp = type(node)
        if tp is ast.Global or tp is ast.Nonlocal:
            bad.update(n for n in node.names if n in names)  # type: ignore[attr-defined]
        elif tp is ast.Name and node.id in names:  # type: ignore[attr-defined]
            verdict = _use(node, parent, fn, tree)  # type: ignore[arg-type]
            if isinstance(verdict, tuple):
                writers.setdefault(node.id, []).append(verdict)  # type: ignore[attr-defined]
            elif verdict is None:
                bad.add(node.id)  # type: ignore[attr-defined]
            elif verdict:
                stores.setdefault(node.id, []).append(verdict)  # type: ignore[attr-defined]
        inner_fn = fn
        if tp is ast.FunctionDef and parent is tree:
            inner_fn = node  # type: ignore[assignment]
        for child in ast.iter_child_nodes(node):
            stack.append((child, node, inner_fn))
    out: dict[str, Form] = {}
    for n, s in stores.items():
        if n in bad or len(s) != 1:
            continue
        deco = next((st for st in tree.body if type(st) is ast.FunctionDef and st.name == s[0]), None)
        factory = _factory_store_key(deco, n) if deco is not None else None
        out[n] = (s[0], tuple(writers.get(n, ())), factory)
    return out


def _factory_inner(fn: ast.FunctionDef) -> ast.FunctionDef | None:
    """The decorator a factory ``def register_model(name=None, **cfg): def _register(fn): ...; return _register``
    makes: its inner def of one plain parameter, handed back by the factory's last statement (its only other)."""
    if len(fn.body) != 2 or type(fn.body[0]) is not ast.FunctionDef or type(fn.body[1]) is not ast.Return:
        return None
    inner = fn.body[0]
    ret = fn.body[1].value
    if inner.decorator_list or not (type(ret) is ast.Name and ret.id == inner.name):
        return None
    a = inner.args
    if a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults or len(a.args) != 1:
        return None
    return inner


def _factory_key(target: ast.Subscript, fn: ast.FunctionDef) -> FactoryKey | None:
    """``D[key] = fn`` as a statement of a factory's inner decorator (``_factory_inner``), ``key`` being
    ``fn.__name__`` or a name bound once before it to ``fn.__name__`` or ``name or fn.__name__`` (``name`` a parameter
    of the factory, None by default): how the key is chosen, else None."""
    inner = _factory_inner(fn)
    if inner is None:
        return None
    param = inner.args.args[0].arg
    stmt = next(
        (s for s in inner.body if type(s) is ast.Assign and len(s.targets) == 1 and s.targets[0] is target), None
    )
    if stmt is None or not (type(stmt.value) is ast.Name and stmt.value.id == param):
        return None
    key = target.slice
    if _is_name_of(key, param):
        return "", -1
    if type(key) is not ast.Name:
        return None
    a = fn.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    if (
        key.id in positional
        and key.id != param
        and not any(type(n) is ast.Name and n.id == key.id and type(n.ctx) is not ast.Load for n in ast.walk(fn))
        and not any(p.arg == key.id for p in (*inner.args.args, *inner.args.kwonlyargs))
    ):
        # ``def register(name): def deco(cls): MODELS[name] = cls; return cls``: the factory's argument is the key
        return key.id, positional.index(key.id)
    binds = [n for n in ast.walk(inner) if type(n) is ast.Name and n.id == key.id and type(n.ctx) is not ast.Load]
    first = (
        next(
            (s for s in inner.body if type(s) is ast.Assign and len(s.targets) == 1 and s.targets[0] is binds[0]), None
        )
        if len(binds) == 1
        else None
    )
    if first is None or inner.body.index(first) > inner.body.index(stmt):
        return None
    v = first.value
    if _is_name_of(v, param):
        return "", -1
    if not (
        type(v) is ast.BoolOp
        and type(v.op) is ast.Or
        and len(v.values) == 2
        and type(v.values[0]) is ast.Name
        and _is_name_of(v.values[1], param)
    ):
        return None
    name = v.values[0].id
    a = fn.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    defaults = dict(zip(positional[len(positional) - len(a.defaults) :], a.defaults))
    default = defaults.get(name)
    if default is None or not (type(default) is ast.Constant and default.value is None):
        return None  # (a keyword-only or required name: not modelled)
    if any(type(n) is ast.Name and n.id == name and type(n.ctx) is not ast.Load for n in ast.walk(fn)):
        return None
    return name, positional.index(name)


def _factory_store_key(deco: ast.FunctionDef, dict_name: str) -> FactoryKey | None:
    """For a registry whose decorator ``deco`` is a factory (``_factory_key``): how its key is chosen."""
    inner = _factory_inner(deco)
    if inner is None:
        return None
    for st in inner.body:
        if type(st) is ast.Assign and len(st.targets) == 1:
            t = st.targets[0]
            if type(t) is ast.Subscript and type(t.value) is ast.Name and t.value.id == dict_name:
                return _factory_key(t, deco)
    return None


def _registered_key(d: cst.Decorator, def_name: str, factory: FactoryKey | None) -> str | None:
    """The key the decorator ``d`` registers the def ``def_name`` under: its name for a plain decorator; for a
    factory's call, the string its key parameter is given, or the def's name when it is not given (None: another
    value, or a plain ``@factory``)."""
    if factory is None:
        return def_name if type(d.decorator) is not cst.Call else None
    call = d.decorator
    if type(call) is not cst.Call or any(a.star for a in call.args):
        return None
    name, pos = factory
    if not name:
        return def_name
    given = _key_arguments(call, name, pos)
    if not given:
        return def_name
    if len(given) == 1 and type(given[0]) is cst.SimpleString:
        v = given[0].evaluated_value
        return v if isinstance(v, str) else None
    return None


def _key_arguments(call: cst.Call, name: str, pos: int) -> list[cst.BaseExpression]:
    """What a factory's call hands its key parameter ``name`` (at position ``pos``): by keyword, by position (both:
    Python's TypeError; two entries)."""
    given = [a.value for a in call.args if a.keyword is not None and a.keyword.value == name]
    plain = [a.value for a in call.args if a.keyword is None]
    if len(plain) > pos:
        given.append(plain[pos])
    return given


def _binding(st: ast.stmt) -> tuple[ast.expr | None, ast.expr | None]:
    """A module-level statement's one target and its value (``HEADS = {}``, ``HEADS: dict = {}``, the value None for
    an annotation alone); (None, None) for anything else."""
    if type(st) is ast.Assign and len(st.targets) == 1:
        return st.targets[0], st.value
    if type(st) is ast.AnnAssign:
        return st.target, st.value
    return None, None


def _empty_dict(value: ast.expr) -> bool:
    if type(value) is ast.Dict:
        return not value.keys
    return (
        type(value) is ast.Call and type(value.func) is ast.Name and value.func.id == "dict" and not value.args
    ) and not value.keywords


def _use(node: ast.Name, parent: ast.AST | None, fn: ast.FunctionDef | None, tree: ast.Module) -> str | Writer | None:
    """How the dict's name is used here: "" a read or the binding, the decorator's name for the registering store,
    a writer for a keyed store (``_keyed_store``), None anything else."""
    if parent is None:
        return None
    tp = type(parent)
    if tp is ast.Assign and fn is None and parent in tree.body and parent.targets == [node]:  # type: ignore[attr-defined]
        return ""  # the module-level binding (counted once above)
    if tp is ast.AnnAssign and fn is None and parent in tree.body and parent.target is node:  # type: ignore[attr-defined]
        return ""
    if tp is ast.Subscript and parent.value is node:  # type: ignore[attr-defined]
        ctx = type(parent.ctx)  # type: ignore[attr-defined]
        if ctx is ast.Load:
            return ""
        if ctx is ast.Store and fn is not None:
            return (
                _registering_store(parent, fn)  # type: ignore[arg-type]
                or _keyed_store(parent, fn)  # type: ignore[arg-type]
                or (fn.name if _factory_key(parent, fn) is not None else None)  # type: ignore[arg-type]
            )
        return None
    if tp is ast.Compare and node in parent.comparators:  # type: ignore[attr-defined]
        ops = parent.ops  # type: ignore[attr-defined]
        i = parent.comparators.index(node)  # type: ignore[attr-defined]
        return "" if type(ops[i]) in (ast.In, ast.NotIn) else None
    if tp is ast.Attribute and parent.attr in _READS:  # type: ignore[attr-defined]
        return ""  # (a method read only: D.get(k), D.items(); a bound method handed on reads too)
    if tp is ast.Call and node in parent.args and type(parent.func) is ast.Name:  # type: ignore[attr-defined]
        return "" if parent.func.id in _COPYING else None  # type: ignore[attr-defined]
    if (tp is ast.For or tp is ast.comprehension) and parent.iter is node:  # type: ignore[attr-defined]
        return ""
    return None


def _registering_store(target: ast.Subscript, fn: ast.FunctionDef) -> str | None:
    """``D[fn.__name__] = fn`` (or ``D[name] = fn`` with ``name = fn.__name__`` bound once before it), a statement
    of the decorator's own body (not under a condition or loop), in a module-level function whose one plain
    parameter is ``fn``: that function's name, else None."""
    a = fn.args
    if a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults or len(a.args) != 1:
        return None
    param = a.args[0].arg
    stmt = next((s for s in fn.body if type(s) is ast.Assign and len(s.targets) == 1 and s.targets[0] is target), None)
    # the function itself, or the wrapper the decorator defines first and hands back (timm's ``@functools.wraps(fn)
    # def wrapper(**kwargs): return fn(**kwargs)``: the lookup's ``has_unknown_decorators`` then asks that it only
    # forwards its call, ``functions.transparent_wrapper``)
    wrapper = fn.body[0].name if fn.body and type(fn.body[0]) is ast.FunctionDef else None
    if stmt is None or not (type(stmt.value) is ast.Name and stmt.value.id in (param, wrapper)):
        return None
    key = target.slice
    if _is_name_of(key, param):
        return fn.name
    if type(key) is not ast.Name:
        return None
    binds = [
        n
        for n in ast.walk(fn)
        if (type(n) is ast.Name and n.id == key.id and type(n.ctx) is not ast.Load)
        or (type(n) is ast.arg and n.arg == key.id)
    ]
    if len(binds) != 1:
        return None
    first = next(
        (
            s
            for s in fn.body
            if type(s) is ast.Assign
            and len(s.targets) == 1
            and s.targets[0] is binds[0]
            and _is_name_of(s.value, param)
        ),
        None,
    )
    if first is None or fn.body.index(first) > fn.body.index(stmt):
        return None
    return fn.name


def _keyed_store(target: ast.Subscript, fn: ast.FunctionDef) -> Writer | None:
    """``D[k] = v`` in a module-level function ``fn`` whose ``k`` is only the loop variable of ``for k, ... in
    P.items()`` / ``for k in P`` / ``P.keys()``, ``P`` a parameter ``fn`` never rebinds (a deprecation or alias map
    handed in): (fn's name, P's position, P) -- the keys it stores are those its calls hand it."""
    key = target.slice
    if type(key) is not ast.Name:
        return None
    a = fn.args
    params = [p.arg for p in (*a.posonlyargs, *a.args)]
    loops = [
        n
        for n in ast.walk(fn)
        if type(n) is ast.For
        and (
            (type(n.target) is ast.Name and n.target.id == key.id)
            or (type(n.target) is ast.Tuple and n.target.elts and _named(n.target.elts[0], key.id))
        )
    ]
    binds = [n for n in ast.walk(fn) if type(n) is ast.Name and n.id == key.id and type(n.ctx) is not ast.Load]
    if len(loops) != 1 or len(binds) != 1 or any(p.arg == key.id for p in (*a.args, *a.kwonlyargs)):
        return None
    it = loops[0].iter
    if type(it) is ast.Call and not it.args and type(it.func) is ast.Attribute and it.func.attr in ("items", "keys"):
        it = it.func.value
        if type(loops[0].target) is ast.Tuple and loops[0].iter.func.attr != "items":  # type: ignore[attr-defined]
            return None
    elif type(loops[0].target) is ast.Tuple:
        return None
    if type(it) is not ast.Name or it.id not in params:
        return None
    if any(type(n) is ast.Name and n.id == it.id and type(n.ctx) is not ast.Load for n in ast.walk(fn)):
        return None
    return fn.name, params.index(it.id), it.id


def _named(e: ast.expr, name: str) -> bool:
    return type(e) is ast.Name and e.id == name


def _writes_key(tree: ast.Module, writer: Writer, key: str) -> bool | None:
    """Do the calls of ``writer`` in ``tree`` hand it a map with ``key``: True, False, or None when not known (a
    use of the function other than a call, an argument other than a dict display of string keys, an alias)."""
    name, pos, param = writer
    parents: dict[int, ast.AST] = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
        if type(n) is ast.alias and (n.name == name or n.name.endswith("." + name)) and n.asname not in (None, name):
            return None
    hit = False
    for n in ast.walk(tree):
        if not ((type(n) is ast.Name and n.id == name) or (type(n) is ast.Attribute and n.attr == name)):
            continue
        call = parents.get(id(n))
        if type(call) is not ast.Call or call.func is not n:
            return None
        if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        arg = call.args[pos] if pos < len(call.args) else next((k.value for k in call.keywords if k.arg == param), None)
        if type(arg) is not ast.Dict or any(type(k) is not ast.Constant or type(k.value) is not str for k in arg.keys):
            return None
        hit = hit or any(k.value == key for k in arg.keys)  # type: ignore[union-attr]
    return hit


def _changed_elsewhere(ma: "ModuleAnalysis", mod: str, text: str, words: set[str], name: str) -> bool:
    """Does module ``mod`` (not the registry's own, ``ma``), which may import it, name its dict ``name`` otherwise
    than to read it (``_reads_only``)?"""
    return (
        mod != ma.module_name and name in words and _may_import(ma.module_name, words) and not _reads_only(text, name)
    )


def _reads_only(text: str, name: str) -> bool:
    """Does every mention of ``name`` in ``text`` (a name, or an attribute of that name) only read it -- imported by a
    ``from`` import, subscripted, tested with ``in``, a read-only method, iterated, ``len`` / a copy -- never bind,
    store into, hand on or call it (a builder's ``MODELS[cfg["name"]](**cfg)``)?"""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    parents: dict[int, ast.AST] = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
    for n in ast.walk(tree):
        if type(n) is ast.Name and n.id == name:
            if type(n.ctx) is not ast.Load:
                return False
        elif type(n) is ast.Attribute and n.attr == name:
            if type(n.ctx) is not ast.Load:
                return False
        elif (
            type(n) is ast.alias
            and (n.asname or n.name.rpartition(".")[2]) == name
            and n.name.rpartition(".")[2] != name
        ):
            return False  # (another name imported as this one)
        elif type(n) in (ast.Global, ast.Nonlocal) and name in n.names:  # type: ignore[attr-defined]
            return False
        else:
            continue
        parent = parents.get(id(n))
        if type(n) is ast.Name and _use(n, parent, None, tree) == "":
            continue
        if type(n) is ast.Attribute and parent is not None and _use(n, parent, None, tree) == "":  # type: ignore[arg-type]
            continue
        return False
    return True


def _may_import(module: str, words: set[str]) -> bool:
    """May a module whose text has these ``words`` import ``module`` (or a package of it that hands its names on)?
    Only then can it name that module's dict (a script of the same folder that never imports it names its own)."""
    return any(part in words for part in module.split("."))


def _is_name_of(e: ast.expr, param: str) -> bool:
    return type(e) is ast.Attribute and e.attr == "__name__" and type(e.value) is ast.Name and e.value.id == param


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _closure(project: "Project", roots: list[str], nested: bool) -> dict[str, None]:
    """Modules of the analysed tree that importing ``roots`` runs (with their parent packages), following
    module-level imports; ``nested``: also imports inside functions and classes (modules that may run)."""
    out: dict[str, None] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in out or project.paths.get(name) is None:
            continue
        out[name] = None
        index = project._index(name)
        records = [r for r in index.records if nested or not r.nested]
        found = loaded_modules(records, name, name in project.packages, project._on_disk, project.script_local(name))
        for m in found:
            todo.extend(p for p in (*_parents(m), m) if p not in out)
    return out


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _decorator_of(project: "Project", other: "ModuleAnalysis", mod: str, d: cst.Decorator) -> str | None:
    """The qualified name of decorator ``d`` in module ``mod``: an imported name, or a function of ``mod`` itself
    (a registry whose models are defined beside it)."""
    e = d.decorator.func if type(d.decorator) is cst.Call else d.decorator
    q = other.qualify(e)
    if q is not None:
        return project.canonical(q)
    if type(e) is cst.Name and f"{mod}:{e.value}" in other.functions:
        return f"{mod}.{e.value}"
    return None


def _texts(project: "Project", mods: dict[str, None]) -> "Iterator[tuple[str, str, set[str] | None]]":
    """Each module of ``mods`` on disk: its name, its text and the words in it (None: the file could not be read)."""
    for mod in mods:
        path = project.paths.get(mod)
        if path is None:
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            yield mod, "", None
            return
        yield mod, text, set(_WORD.findall(text))


def _ran(project: "Project", ma: "ModuleAnalysis") -> tuple[dict[str, None], dict[str, None]]:
    """The modules that surely ran when a function of the registry module ``ma`` runs (those its own import loads,
    and those the module being checked imports at its top level: its functions run after them), and those that may
    have (also through imports inside functions, and the checked files)."""
    roots = [*_parents(ma.module_name), ma.module_name]
    entry = project.entry_module
    ran = [*_parents(entry), entry] if entry is not None else []
    sure = _closure(project, [*roots, *ran], nested=False)
    maybe = _closure(project, [*roots, *ran, *sorted(project.checking)], nested=True)
    return sure, maybe


def named_elsewhere(project: "Project", ma: "ModuleAnalysis", word: str) -> bool:
    """Does a module other than ``ma`` that may run (``_ran``) have the word ``word`` in its text (or is one
    unreadable)?"""
    memo = ma.registry_cache
    ck = ("<named>", word, project.entry_module)
    if ck not in memo:
        memo[ck] = any(
            words is None or (mod != ma.module_name and word in words)
            for mod, _, words in _texts(project, _ran(project, ma)[1])
        )
    return bool(memo[ck])


def contents(ma: "ModuleAnalysis", name: str) -> dict[str, FuncV | RefV] | None:
    """Every entry of the registry ``name`` of ``ma`` (see the module docstring) when a function of ``ma`` reads it
    whole (``sorted(_model_entrypoints)`` in ``list_models()``): each function decorated with its decorator in a module
    that surely ran, by name; None when another entry may exist (a module that may not have run applies the
    decorator, a keyed writer, the decorator called otherwise than with ``@``, a use not at a module's top level)."""
    project = ma.project
    form = ma.registries().get(name)
    if project is None or form is None:
        return None
    deco, writers, factory = form
    memo = ma.registry_cache
    ck = (name, "", project.entry_module)
    if ck in memo:
        return memo[ck]  # type: ignore[return-value]
    memo[ck] = None
    if writers:
        return None  # keys a writer stores: those its calls hand it
    sure, maybe = _ran(project, ma)
    found: dict[str, FuncV | RefV] = {}
    for mod, text, words in _texts(project, maybe):
        if words is None:
            return None  # (unreadable)
        if _changed_elsewhere(ma, mod, text, words, name):
            return None  # another module names the dict, not only to read it: it may change it
        if deco not in words:
            continue
        other = project.module(mod)
        if other is None:
            return None
        target = f"{ma.module_name}.{deco}"
        allowed: set[int] = set()  # the decorators of module-level defs naming the decorator
        for st in other.tree.body:
            if not isinstance(st, (cst.FunctionDef, cst.ClassDef)) or not st.decorators:
                continue
            if not any(_decorator_of(project, other, mod, d) == target for d in st.decorators):
                continue
            if mod not in sure:
                return None  # a module that may not have run registers functions
            decos = st.decorators
            if isinstance(st, cst.ClassDef) and (factory is None or not factory[0] or not _hands_back(deco, ma)):
                return None  # (a class registered by a plain decorator, or one that may hand back another value)
            key = _registered_key(decos[0], st.name.value, factory) if len(decos) == 1 else None
            if key is None or key in found:
                return None  # another decorator around it, a key not known, or one registered twice: not known
            defined = st.name.value  # (not ``name``: the registry's, checked against every later module)
            found[key] = RefV(f"class:{mod}:{defined}") if isinstance(st, cst.ClassDef) else FuncV(f"{mod}:{defined}")
            allowed.add(id(decos[0]))
        if _other_uses(project, other, mod, deco, target, allowed):
            return None  # applied elsewhere than to a module-level def, or called: it may register anything
    for fv in found.values():
        if isinstance(fv, RefV):
            continue  # (a class: _hands_back said the decorator returns it)
        fi = project.find_function(fv.key)
        if fi is None or fi.has_unknown_decorators:
            return None  # (the decorator must hand back the function it registers)
    memo[ck] = found
    return found


def _hands_back(deco: str, ma: "ModuleAnalysis") -> bool:
    """Does the registry module's decorator factory ``deco`` make a decorator that hands back the very class it gets
    (``def deco(cls): MODELS[name] = cls; return cls``: ``functions.returns_its_argument``)?"""
    from ..index.functions import _factory_shape, returns_its_argument

    tree: cst.CSTNode | None = next(
        (st for st in ma.tree.body if type(st) is cst.FunctionDef and st.name.value == deco), None
    )
    fi = ma.functions.get(f"{ma.module_name}:{deco}") if tree is not None else None
    if fi is not None:
        tree = ma.complete(fi).node  # (its body, when the module was read with bodies blanked)
    inner = _factory_shape(tree) if type(tree) is cst.FunctionDef else None
    return inner is not None and returns_its_argument(inner)


def _other_uses(
    project: "Project", other: "ModuleAnalysis", mod: str, deco: str, target: str, allowed: set[int]
) -> bool:
    """Does module ``mod`` use the registering decorator ``target`` otherwise than as the ``allowed`` decorators of
    module-level defs (a decorator of a method or of a def under a condition, a call: ``register_model(fn)``, a factory
    called outside a decorator)? Names and attributes ending in ``deco`` are qualified to tell."""
    from .walk import children

    stack: list[tuple[cst.CSTNode, bool]] = [(other.tree, False)]
    while stack:
        n, in_allowed = stack.pop()
        tp = type(n)
        if tp is cst.Import or tp is cst.ImportFrom:
            continue  # (the decorator imported by its name)
        if tp is cst.Decorator:
            in_allowed = id(n) in allowed
        elif (tp is cst.Name and n.value == deco) or (tp is cst.Attribute and n.attr.value == deco):  # type: ignore[attr-defined]
            if not in_allowed and _decorator_of(project, other, mod, cst.Decorator(n)) == target:  # type: ignore[arg-type]
                return True
            continue
        elif tp is cst.FunctionDef and n.name.value == deco:  # type: ignore[attr-defined]
            stack.extend((c, in_allowed) for c in children(n) if c is not n.name)  # type: ignore[attr-defined]
            continue
        stack.extend((c, in_allowed) for c in children(n))
    return False


def lookup(ma: "ModuleAnalysis", name: str, key: str) -> FuncV | RefV | None:
    """``name[key]`` in a function of ``ma``, ``name`` a registry of ``ma`` (see the module docstring): the function
    registered under ``key``, or None when that is not certain."""
    project = ma.project
    form = ma.registries().get(name)
    if project is None or form is None:
        return None
    deco, writers, factory = form
    if factory is not None:
        entries = contents(ma, name)  # (a factory's keys may be other strings than the functions' names)
        return entries.get(key) if entries is not None else None
    memo = ma.registry_cache  # (kept with the registry module's analysis: a new text is analysed anew)
    ck = (name, key, project.entry_module)
    if ck in memo:
        return memo[ck]  # type: ignore[return-value]
    memo[ck] = None
    sure, maybe = _ran(project, ma)
    found: list[FuncV] = []
    for mod, text, words in _texts(project, maybe):
        if words is None:
            return None  # (unreadable)
        if _changed_elsewhere(ma, mod, text, words, name):
            return None  # another module names the dict, not only to read it: it may change it
        for w in writers:
            if w[0] in words:
                try:
                    writes = _writes_key(ast.parse(text), w, key)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    writes = None
                if writes is not False:
                    return None  # another function may store under this key
        if re.search(r"(?<!def )\b" + re.escape(deco) + r"\s*\(", text):
            return None  # the decorator called (not only applied with ``@``): it may register anything
        if key not in words or deco not in words:
            continue
        if key not in project._index(mod).bindings.definitions:
            continue
        other = project.module(mod)
        if other is None:
            return None
        hits = [st for st in other.tree.body if type(st) is cst.FunctionDef and st.name.value == key]
        if not hits:
            return None  # defined under a condition: which def ran is not known
        for st in hits:
            decorators = st.decorators
            if len(decorators) != 1:
                return None  # registered by this decorator perhaps, as another function: not known
            if _decorator_of(project, other, mod, decorators[0]) != f"{ma.module_name}.{deco}":
                return None
            if mod not in sure:
                return None  # a module that may not have run when the lookup does
            found.append(FuncV(f"{mod}:{key}"))
    if len(found) != 1:
        return None
    fi = project.find_function(found[0].key)
    if fi is None or fi.has_unknown_decorators:
        return None  # (the decorator must hand back the function it registers)
    memo[ck] = found[0]
    return found[0]


# ---- registries handed to a decorator factory (mmseg / mmdet style, without their Registry class)
#
#     HEADS = {}                             # a module-level dict, bound once, empty
#
#     def register(registry):                # the factory: one plain parameter, the registry
#         def decorator(cls):
#             registry[cls.__name__] = cls   # (or ``registry[name] = cls`` with ``name = cls.__name__`` first)
#             return cls
#         return decorator
#
#     @register(HEADS)                       # in any module: a module-level class or def, this one decorator
#     class SegformerHead(BaseDecodeHead): ...
#
# The factory may also take the key (``def register(table, name): ... table[name] = cls``, used as
# ``@register(BACKBONES, "vgg")``), and its decorator may test ``name in table`` first (a duplicate check).
#
# A function of the registry's module reading ``HEADS`` (to hand it to ``build_from_cfg(cfg, HEADS)``, a function
# that only reads its parameter: ``ModuleAnalysis.stable_global``) sees every class so registered, when each module
# applying the decorator surely ran and no module names the dict otherwise (an import of it aside). The registry's
# own module may apply the decorator too, at its top level, when nothing before its last registration runs code of
# the analysed tree (``_inert_before``).


# the factory of a registry handed to it: (its name, the position of its registry parameter, how the key is chosen:
# ("", -1) the decorated def's name, else the factory's key parameter and its position)
ParamFactory = tuple[str, int, FactoryKey]


def param_registries(text: str) -> dict[str, ParamFactory]:
    """The module-level dicts of ``text`` bound once to an empty dict, each with the module's decorator factory that
    is handed the registry (``_param_factory``); {} when the module has no such factory."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    factories: list[ParamFactory] = []
    for st in tree.body:
        if type(st) is ast.FunctionDef and not st.decorator_list:
            form = _param_factory(st)
            if form is not None:
                factories.append((st.name, *form))
    defined = [st.name for st in tree.body if isinstance(st, (ast.FunctionDef, ast.ClassDef))]
    factories = [f for f in factories if defined.count(f[0]) == 1]
    if len(factories) != 1:
        return {}
    empty: dict[str, int] = {}
    for st in tree.body:
        target, value = _binding(st)
        if type(target) is ast.Name:
            empty[target.id] = empty.get(target.id, 0) + (1 if value is not None and _empty_dict(value) else 2)
    return {n: factories[0] for n, c in empty.items() if c == 1}


def param_wrappers(text: str, form: ParamFactory) -> dict[str, tuple[str, int]]:
    """The module's one-line wrappers of its registry factory ``form`` (backbone zoos' ``def register_backbone(name):
    return _register(BACKBONES, name)``): wrapper name -> (the module-level dict it hands the factory, the position of
    its own parameter the factory's key comes from; -1 when the key is the decorated def's name)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    factory, position, (key, key_position) = form
    out: dict[str, tuple[str, int]] = {}
    for st in tree.body:
        if type(st) is not ast.FunctionDef or st.decorator_list or st.name == factory:
            continue
        a = st.args
        if a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults:
            continue
        body = [b for b in st.body if not (type(b) is ast.Expr and type(b.value) is ast.Constant)]  # (a docstring)
        call = body[0].value if len(body) == 1 and type(body[0]) is ast.Return else None
        if not (
            type(call) is ast.Call
            and type(call.func) is ast.Name
            and call.func.id == factory
            and not call.keywords
            and not any(type(x) is ast.Starred for x in call.args)
            and len(call.args) > position
            and type(call.args[position]) is ast.Name
        ):
            continue
        params = [p.arg for p in a.args]
        if not key:
            if len(call.args) == position + 1:
                out[st.name] = (call.args[position].id, -1)  # type: ignore[attr-defined]
            continue
        given = call.args[key_position] if key_position < len(call.args) else None
        if len(call.args) == 2 and type(given) is ast.Name and given.id in params:
            out[st.name] = (call.args[position].id, params.index(given.id))  # type: ignore[attr-defined]
    return out


def _param_factory(fn: ast.FunctionDef) -> tuple[int, FactoryKey] | None:
    """``def register(registry): def decorator(cls): registry[cls.__name__] = cls; return cls; return decorator``
    (or ``def register(table, name): ... table[name] = cls ...``): a factory of plain parameters, one of them the
    dict its decorator stores the decorated class or function into, under the def's name or under the factory's key
    parameter, as the decorator's one store through that parameter (besides it, only ``key in table`` tests). The
    registry parameter's position and how the key is chosen (``_factory_key``); None for anything else."""
    a = fn.args
    if a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults or not 1 <= len(a.args) <= 2:
        return None
    inner = _factory_inner(fn)
    if inner is None:
        return None
    for position, arg in enumerate(a.args):
        registry = arg.arg
        if any(type(n) is ast.arg and n.arg == registry for n in ast.walk(inner)):
            continue
        uses = [n for n in ast.walk(inner) if type(n) is ast.Name and n.id == registry]
        tests = {
            id(c)
            for n in ast.walk(inner)
            if type(n) is ast.Compare and len(n.ops) == 1 and type(n.ops[0]) in (ast.In, ast.NotIn)
            for c in n.comparators
        }
        stores = [n for n in uses if id(n) not in tests]
        if len(stores) != 1:
            continue
        for st in inner.body:
            if type(st) is ast.Assign and len(st.targets) == 1:
                t = st.targets[0]
                if type(t) is ast.Subscript and t.value is stores[0]:
                    key = _factory_key(t, fn)
                    if key is not None and (key == ("", -1) or (len(a.args) == 2 and key[1] != position)):
                        return position, key
    return None


def _param_key(call: cst.Call, form: ParamFactory, def_name: str) -> str | None:
    """The key ``@factory(...)`` (``call``) registers the def ``def_name`` under: its name, or the literal string
    given for the factory's key parameter (None: another value, or not given)."""
    key, key_position = form[2]
    if not key:
        return def_name
    given = _key_arguments(call, key, key_position)
    if len(given) == 1 and type(given[0]) is cst.SimpleString:
        v = given[0].evaluated_value
        return v if isinstance(v, str) else None
    return None


def _inert_before(ma: "ModuleAnalysis", tree: cst.Module, last: cst.CSTNode) -> bool:
    """Is every top-level statement of ``tree`` before ``last`` an import, a def, a class or an assignment that calls
    nothing of the analysed code (a docstring, ``HEADS = {}``, ``Norm = partial(nn.BatchNorm2d, eps=1e-5)``)? Then
    nothing there runs code that reads a registry before ``last`` registers into it."""
    from .walk import children

    project = ma.project
    for st in tree.body:
        if st is last:
            return True
        if isinstance(st, (cst.FunctionDef, cst.ClassDef)):
            continue
        if type(st) is not cst.SimpleStatementLine:
            return False
        for small in st.body:
            if isinstance(small, (cst.Import, cst.ImportFrom)):
                continue
            if not isinstance(small, (cst.Assign, cst.AnnAssign, cst.Expr)):
                return False
            todo: list[cst.CSTNode] = [small]
            while todo:
                n = todo.pop()
                if type(n) is cst.Call:
                    q = ma.qualify(n.func)
                    if q is None or project is None or project.split(project.canonical(q)) is not None:
                        return False  # (a call of the analysed code, or of something not known)
                todo.extend(children(n))
    return True


def param_contents(ma: "ModuleAnalysis", name: str, form: ParamFactory) -> "dict[str, FuncV | RefV] | None":
    """Every entry of the dict ``name`` of ``ma`` that ``@factory(name, ...)`` fills (see above): the decorated
    classes and functions by key; None when another entry may exist or the dict may be changed otherwise. The
    registry's own module may register too, at its top level, when nothing before its last registration runs code."""
    project = ma.project
    if project is None:
        return None
    memo = ma.registry_cache
    ck = ("<param registry>", name, project.entry_module)
    if ck in memo:
        return memo[ck]  # type: ignore[return-value]
    memo[ck] = None
    sure, maybe = _ran(project, ma)
    factory, position = form[0], form[1]
    target_dict, target_factory = f"{ma.module_name}.{name}", f"{ma.module_name}.{factory}"
    # ``@register_backbone("vgg")``: a wrapper handing this dict to the factory, and where it takes the key
    wrappers = {f"{ma.module_name}.{w}": (w, at) for w, (d, at) in param_wrappers(ma.text, form).items() if d == name}
    found: dict[str, FuncV | RefV] = {}
    for mod, text, words in _texts(project, maybe):
        if words is None:
            return None  # (unreadable)
        own = mod == ma.module_name
        wrapped = any(w in words for w, _ in wrappers.values())
        if wrapped and _wrapper_called(text, {w for w, _ in wrappers.values() if w in words}):
            return None  # a wrapper called otherwise than as a decorator: it may register anything
        if (name not in words and not wrapped) or (not own and not _may_import(ma.module_name, words)):
            continue  # (a script of the same folder that never imports this module names a dict of its own)
        other = ma if own else project.module(mod)
        if other is None:
            return None
        allowed: set[int] = set()  # the names of the dict the factory's module-level decorators hand it
        last: cst.CSTNode | None = None
        for st in other.tree.body:
            if not isinstance(st, (cst.FunctionDef, cst.ClassDef)):
                continue
            for d in st.decorators:
                call = d.decorator
                via = wrappers.get(_decorator_of(project, other, mod, d) or "") if wrappers else None
                if via is not None:
                    if type(call) is not cst.Call or any(a.star for a in call.args):
                        return None  # (the wrapper applied otherwise than called once)
                    if len(st.decorators) != 1 or (mod not in sure and not own):
                        return None
                    at = via[1]
                    literal = None
                    if at < 0:
                        literal = st.name.value
                    else:
                        given = _key_arguments(call, "", at)
                        if len(given) == 1 and type(given[0]) is cst.SimpleString:
                            value = given[0].evaluated_value
                            literal = value if isinstance(value, str) else None
                    if literal is None or literal in found:
                        return None
                    found[literal] = (
                        RefV(f"class:{mod}:{st.name.value}")
                        if type(st) is cst.ClassDef
                        else FuncV(f"{mod}:{st.name.value}")
                    )
                    last = st
                    continue
                if not (
                    type(call) is cst.Call
                    and len(call.args) > position
                    and not any(a.star for a in call.args)
                    and all(a.keyword is None for a in call.args[: position + 1])
                    and _decorator_of(project, other, mod, d) == target_factory
                ):
                    continue
                arg = call.args[position].value
                q = other.qualify(arg) if type(arg) in (cst.Name, cst.Attribute) else None
                if own and type(arg) is cst.Name and arg.value == name:
                    q = target_dict
                if q is None or project.canonical(q) != target_dict:
                    continue
                if len(st.decorators) != 1 or (mod not in sure and not own):
                    return None  # another decorator around it, or a module that may not have run
                key = _param_key(call, form, st.name.value)
                if key is None or key in found:
                    return None  # a key not known, or registered twice (the decorator may raise, or the last wins)
                allowed.add(id(arg.attr if type(arg) is cst.Attribute else arg))
                found[key] = (
                    RefV(f"class:{mod}:{st.name.value}")
                    if type(st) is cst.ClassDef
                    else FuncV(f"{mod}:{st.name.value}")
                )
                last = st
        if own:
            if last is not None and not _inert_before(ma, other.tree, last):
                return None  # code at the top level may read the dict before the registrations below it
            if _handed_to_factory_otherwise(other.tree, factory, name, allowed, {w for w, _ in wrappers.values()}):
                return None  # ``register(HEADS, "x")(cls)`` called: anything may be registered
            continue  # (the module's other uses of the dict: ``ModuleAnalysis.param_registry_contents``)
        if _names_otherwise(other.tree, name, allowed) and (allowed or not _reads_only(text, name)):
            return None  # the dict imported under another name, changed, handed on: not known
    memo[ck] = found
    return found


def _wrapper_called(text: str, names: set[str]) -> bool:
    """Does ``text`` call one of ``names`` (a registry factory's wrappers) otherwise than as a def's decorator, or use
    it otherwise than by calling it (handed on, aliased)?"""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    decorating: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            decorating.update(id(d) for d in n.decorator_list)
    for n in ast.walk(tree):
        if type(n) is ast.Call and id(n) not in decorating:
            f = n.func
            if (type(f) is ast.Name and f.id in names) or (type(f) is ast.Attribute and f.attr in names):
                return True
    return False


def _handed_to_factory_otherwise(
    tree: cst.Module, factory: str, name: str, allowed: set[int], wrappers: "set[str] | None" = None
) -> bool:
    """Does ``tree`` hand the dict ``name`` to a call of ``factory`` other than at the ``allowed`` decorators and in
    the bodies of the module's ``wrappers`` (``param_wrappers``)?"""
    from .walk import children

    stack: list[cst.CSTNode] = [tree]
    while stack:
        n = stack.pop()
        if wrappers and type(n) is cst.FunctionDef and n.name.value in wrappers:
            continue
        if (
            type(n) is cst.Call
            and type(n.func) is cst.Name
            and n.func.value == factory
            and any(type(a.value) is cst.Name and a.value.value == name and id(a.value) not in allowed for a in n.args)
        ):
            return True
        stack.extend(children(n))
    return False


def _names_otherwise(tree: cst.Module, name: str, allowed: set[int]) -> bool:
    """Does ``tree`` name ``name`` (a name or an attribute) other than at the ``allowed`` nodes and in imports?"""
    from .walk import children

    stack: list[cst.CSTNode] = [tree]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Import or tp is cst.ImportFrom:
            if tp is cst.ImportFrom and not isinstance(n.names, cst.ImportStar):  # type: ignore[attr-defined]
                if any(
                    type(a.name) is cst.Name and a.name.value == name and a.asname is not None
                    for a in n.names  # type: ignore[attr-defined]
                ):
                    return True  # imported under another name
            continue
        if (tp is cst.Name and n.value == name) and id(n) not in allowed:  # type: ignore[attr-defined]
            return True
        if tp is cst.Attribute and n.attr.value == name and id(n.attr) not in allowed:  # type: ignore[attr-defined]
            return True
        stack.extend(children(n))
    return False


# ---- registry objects (mmcv's / detectron2's ``Registry``): a class of the analysed code whose instance, bound once at
# the top level of a module (``BACKBONES = Registry("backbone")``), keeps a dict it fills from a decorator method:
#
#     class Registry:
#         def __init__(self, name): self._modules = {}
#         def register(self, cls=None, *, name=None):
#             def _register(c): self._modules[name or c.__name__] = c; return c
#             ...
#
#     @BACKBONES.register()                 # (or ``@BACKBONES.register``), in a module that surely ran
#     class ResNet(nn.Module): ...
#
# The dict, read by the instance's own methods (``self._modules[key]`` in ``get`` / ``build``), holds each class (or
# function) so decorated under its ``__name__``. Only decorators given no argument are read (an argument may be
# another key); anything else that may register (a decorator with arguments, the method called otherwise, a module
# that may not have run, a name registered twice) leaves the dict unknown.

REGISTRY_MARK = "<registry>"  # the attribute naming the global an instance is bound to ("module.NAME")


def registry_dicts(cls: cst.CSTNode) -> frozenset[str]:
    """The attributes ``D`` of a registry class (see above): ``self.D = {}`` (or ``dict()``) in a method, a store
    ``self.D[key] = value`` of a name in a method (or a function nested in one), no other store into, call on or
    deletion from ``self.D``, and ``__name__`` read somewhere in the class (the key of an undecorated call)."""
    from .walk import children

    assert type(cls) is cst.ClassDef
    made: set[str] = set()
    stored: set[str] = set()
    bad: set[str] = set()
    has_name = False
    stack: list[tuple[Any, Any, Any]] = [(cls.body, None, None)]
    while stack:
        n, parent, grand = stack.pop()
        tp = type(n)
        if tp is cst.Attribute and n.attr.value == "__name__":
            has_name = True
        if tp is cst.Attribute and type(n.value) is cst.Name and n.value.value == "self":
            d = n.attr.value
            ptp = type(parent)
            if ptp is cst.AssignTarget:
                if _empty_display(grand.value if type(grand) is cst.Assign else None):
                    made.add(d)
                else:
                    bad.add(d)
            elif ptp is cst.Subscript and parent.value is n:
                if type(grand) is cst.AssignTarget:
                    stored.add(d)
                elif type(grand) is cst.Del or type(grand) is cst.AugAssign:
                    bad.add(d)
            elif ptp is cst.Attribute and type(grand) is cst.Call and grand.func is parent:
                method: str = cast(Any, parent).attr.value
                if method not in _READS and method != "__contains__":
                    bad.add(d)  # self.D.update(...), self.D.pop(k), self.D.setdefault(...)
            elif ptp in (cst.AugAssign, cst.Del, cst.AnnAssign):
                bad.add(d)
        for child in children(n):
            stack.append((child, n, parent))
    return frozenset(made & stored - bad) if has_name else frozenset()


def _empty_display(value: cst.BaseExpression | None) -> bool:
    if type(value) is cst.Dict:
        return not value.elements
    return type(value) is cst.Call and type(value.func) is cst.Name and value.func.value == "dict" and not value.args


def registry_object_contents(ma: "ModuleAnalysis", name: str) -> "dict[str, FuncV | RefV] | None":
    """The dict of the registry object bound to the global ``name`` of ``ma`` (see above): each class or function of a
    module that surely ran decorated ``@name.method()`` / ``@name.method`` (no argument), under its own name; None when
    another entry may exist."""
    project = ma.project
    if project is None:
        return None
    memo = ma.registry_cache
    ck = (name, "<object>", project.entry_module)
    if ck in memo:
        return memo[ck]  # type: ignore[return-value]
    memo[ck] = None
    sure, maybe = _ran(project, ma)
    prefix = f"{ma.module_name}.{name}."
    found: dict[str, FuncV | RefV] = {}
    # a file checked on its own is also a module under its script name (``necks`` beside ``det.necks`` in a folder
    # without ``__init__.py``): the same file, read once
    sure_files = {project.paths.get(m) for m in sure}
    for mod, text, words in _texts(
        project, {m: None for m in maybe if m in sure or project.paths.get(m) not in sure_files}
    ):
        if words is None:
            return None
        if name not in words or not _attribute_of_name(text, name):
            continue  # (the name in a comment or a string, or bound to something else: no method of it used here)
        other = project.module(mod)
        if other is None:
            return None
        decorated = 0
        for st in other.tree.body:
            if not isinstance(st, (cst.FunctionDef, cst.ClassDef)):
                continue
            for d in st.decorators:
                e = d.decorator.func if type(d.decorator) is cst.Call else d.decorator
                q = other.qualify(e)
                if q is None or not project.canonical(q).startswith(prefix):
                    continue
                decorated += 1
                if mod not in sure or (type(d.decorator) is cst.Call and d.decorator.args):
                    return None  # a module that may not have run, or a key that may be another string
                key = st.name.value
                if key in found:
                    return None  # registered twice (a registry raises, or keeps one of them)
                found[key] = RefV(f"class:{mod}:{key}") if isinstance(st, cst.ClassDef) else FuncV(f"{mod}:{key}")
        # every other use of the object's methods in that module (a call ``BACKBONES.register_module(module=X)``,
        # a decorator of a method or of a def under a condition) may register something too
        if _register_uses(project, other, f"{ma.module_name}.{name}") != decorated:
            return None
    memo[ck] = found
    return found


def _register_uses(project: "Project", other: "ModuleAnalysis", target: str) -> int:
    """How many ``X.register...`` attributes module ``other`` holds whose ``X`` is the global ``target`` (decorators
    and calls alike; comments and strings are no code)."""
    from .walk import children

    count = 0
    stack: list[cst.CSTNode] = [other.tree]
    while stack:
        n = stack.pop()
        if type(n) is cst.Attribute and n.attr.value.startswith("register"):
            q = other.qualify(n.value)
            if q is not None and project.canonical(q) == target:
                count += 1
        stack.extend(children(n))
    return count


def _attribute_of_name(text: str, name: str) -> bool:
    """Does code of ``text`` (not its comments nor strings) read an attribute of the name ``name``?"""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return any(type(n) is ast.Attribute and type(n.value) is ast.Name and n.value.id == name for n in ast.walk(tree))
