"""Facts about a module's globals read from CPython's tree of its whole text, in one walk: which module-level names
some statement may mutate, rebind or hand on once the module level has run, and which class attributes code outside
the class body assigns. The index phase reads them with the module's index (``Project.ast_read``), from the same tree,
so a module's analysis never parses its text with CPython a second time (in a corpus run, a fifth of CPython's
parses, a third of the characters parsed, did only that)."""

from __future__ import annotations

import ast

_READ_METHODS = frozenset({"get", "keys", "values", "items", "copy", "index", "count"})
_COPYING_BUILTINS = frozenset(
    {"len", "list", "tuple", "dict", "sorted", "enumerate", "zip", "iter", "reversed", "set", "frozenset", "sum"}
)


def unstable_globals(text: str, tree: ast.Module | None = None) -> frozenset[str] | None:
    """The names some statement of ``text`` may mutate or rebind once its module level has run, or hands on (None:
    it does not parse): an item or attribute assignment through the name, an augmented assignment, ``global``, and
    any read that is not plain (``_plain_read``). Over-approximated: a local of the same name counts as well. A
    parameter default (``def __init__(self, cfg=SMALL_CFG)``) binds the table itself to the parameter: it stays
    stable when the parameter's name is only read plainly too. Read from the whole text with CPython's parser, so a
    module parsed with its bodies blanked gets the same answer (``tree``: that parse, when the project's index read
    of the same text kept it)."""
    facts = module_facts(text, tree)
    return facts[0] if facts is not None else None


Rebinds = tuple[frozenset[str], dict[str, frozenset[str]]]
# a name handed to a call as an argument: (the callee's dotted name, the argument's position or None, its keyword or None)
Escape = tuple[str, "int | None", "str | None"]
Facts = tuple[frozenset[str], Rebinds, dict[str, tuple[Escape, ...]]]  # (unstable, (names, patched), escapes)
# among a name's escapes: an attribute of one of its items is read or called (``X[k].attr``)
ITEM_ATTRIBUTE: Escape = ("<item attribute>", None, None)
# among a name's escapes: ``(WRITER, None, "register_preset")``, a function of the module storing into the dict that only
# the module's own top-level statements call (``_module_writers``); stable when no other module names the function
WRITER = "<module-level writer>"


def module_facts(text: str, tree: ast.Module | None = None) -> Facts | None:
    """``(unstable, (names, patched), escapes)`` of ``text`` from one walk over CPython's tree (None: it does not
    parse). ``unstable``: as ``unstable_globals``. ``escapes``: the names of ``unstable`` whose only reads that are
    not plain are arguments of calls to a dotted name (``AutoencoderKL(DDCONFIG)``), with those calls: the analysis
    asks what each callee does with the parameter the name binds (``ModuleAnalysis.stable_global``). ``names``: the module-level names a ``global`` statement lets a function
    rebind; ``patched``: per name, the attributes assigned (or deleted) through it outside a class body
    (``Config.dim = d``, ``Config.dim += 1``, ``del Child.prep``; ``"*"`` for ``setattr(Config, ...)``), ``cls.x = ...`` / ``type(self).x = ...`` /
    ``self.__class__.x = ...`` in a method counted for its class."""
    if tree is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    out: set[str] = set()
    defaults: list[tuple[str, str]] = []  # (global read as a default, the parameter it binds)
    aliased: set[int] = set()  # the Name nodes an ``y = x or X`` binds to its target (``_aliases``)
    names: set[str] = set()  # rebound by ``global``
    patched: dict[str, set[str]] = {}
    escapes: dict[str, list[Escape]] = {}
    call_args: dict[int, Escape] = {}  # id of a Name that is a direct argument of a call to a dotted name
    writer_stores, writer_calls = _module_writers(tree)
    fills = _table_fills(tree)
    written: dict[str, set[str]] = {}  # dict -> the writers storing into it
    spoilt: set[str] = set()  # writers used otherwise than as a top-level statement's call

    def unplain(name: ast.Name) -> None:
        e = call_args.get(id(name))
        if e is None:
            out.add(name.id)
        else:
            escapes.setdefault(name.id, []).append(e)

    def owner(base: ast.expr, cls: str | None) -> str | None:
        if type(base) is ast.Name:
            if base.id == "cls":
                return cls
            return None if base.id == "self" else base.id
        if type(base) is ast.Attribute:
            # nn.Linear.forward = f, torch.nn.functional.gelu = g: a dotted owner (a library's class or module,
            # patched_library); not through self or cls
            parts = [base.attr]
            inner = base.value
            while type(inner) is ast.Attribute:
                parts.append(inner.attr)
                inner = inner.value
            if type(inner) is ast.Name and inner.id not in ("self", "cls"):
                return ".".join([inner.id, *reversed(parts)])
        if cls is not None and type(base) is ast.Attribute and base.attr == "__class__":
            return cls if type(base.value) is ast.Name and base.value.id == "self" else None
        if cls is not None and type(base) is ast.Call and type(base.func) is ast.Name and base.func.id == "type":
            return cls if len(base.args) == 1 and type(base.args[0]) is ast.Name and base.args[0].id == "self" else None
        return None

    def target(t: ast.expr, cls: str | None) -> None:
        if type(t) is ast.Attribute:
            who = owner(t.value, cls)
            if who is not None:
                patched.setdefault(who, set()).add(t.attr)
        elif type(t) in (ast.Tuple, ast.List):
            for el in t.elts:  # type: ignore[attr-defined]
                target(el, cls)
        elif type(t) is ast.Starred:
            target(t.value, cls)

    # one pass over the tree with exact-type tests (``ast.walk`` with ``iter_child_nodes`` per node went over every
    # node's fields twice; this was 2% of a transformer-lens run), the enclosing class carried along
    Name, Load, Subscript, AST_ = ast.Name, ast.Load, ast.Subscript, ast.AST
    stack: list[tuple[ast.AST, str | None]] = [(tree, None)]
    while stack:
        node, cls = stack.pop()
        tp = type(node)
        if tp is ast.Global:
            out.update(node.names)  # type: ignore[attr-defined]
            names.update(node.names)  # type: ignore[attr-defined]
            spoilt.update(node.names)  # type: ignore[attr-defined]
        elif tp is ast.Attribute:
            if node.attr not in _READ_METHODS and type(node.value) is Subscript:  # type: ignore[attr-defined]
                # X[k].append(v), X[k][j].update(...): a method (or attribute) of an item may change what X holds,
                # unless X's items are records no code can change (``STAGES[0].repeats`` of a list of namedtuples
                # of numbers): the analysis decides that from X's value (ModuleAnalysis.stable_global)
                base: ast.expr = node.value  # type: ignore[attr-defined]
                while isinstance(base, Subscript):
                    base = base.value
                if isinstance(base, Name):
                    escapes.setdefault(base.id, []).append(ITEM_ATTRIBUTE)
        elif tp is ast.Assign:
            for alias in _aliases(node):  # type: ignore[arg-type]
                aliased.add(id(alias[0]))
                defaults.append((alias[0].id, alias[1]))
            store = writer_stores.get(id(node))
            if store is not None:
                written.setdefault(store[0], set()).add(store[1])  # D[name] = v in a writer: decided below
            elif id(node) not in fills:
                for t in node.targets:  # type: ignore[attr-defined]
                    out.update(_mutated_roots(t, augmented=False))
                    target(t, cls)
        elif tp is ast.Delete:
            for t in node.targets:  # type: ignore[attr-defined]
                out.update(_mutated_roots(t, augmented=False))
                target(t, cls)  # del Child.prep: the class no longer holds its def (a base's may be found)
        elif tp is ast.AugAssign or tp is ast.AnnAssign:
            out.update(_mutated_roots(node.target, augmented=tp is ast.AugAssign))  # type: ignore[attr-defined]
            target(node.target, cls)  # type: ignore[attr-defined]
        elif tp is ast.For or tp is ast.AsyncFor:
            out.update(_mutated_roots(node.target, augmented=False))  # type: ignore[attr-defined]
        elif tp is ast.withitem:
            if node.optional_vars is not None:  # type: ignore[attr-defined]
                out.update(_mutated_roots(node.optional_vars, augmented=False))  # type: ignore[attr-defined]
        elif tp is ast.arguments:
            defaults.extend(_default_bindings(node))  # type: ignore[arg-type]
        elif tp is ast.Call:
            f = node.func  # type: ignore[attr-defined]
            if type(f) is ast.Name and f.id in ("setattr", "delattr") and node.args:  # type: ignore[attr-defined]
                who = owner(node.args[0], cls)  # type: ignore[attr-defined]
                if who is not None:
                    patched.setdefault(who, set()).add("*")
            dotted = _dotted(f)
            if dotted is None and type(f) is ast.Call:
                # ``SFTCollator(tok)(EXAMPLES)``: the instance's ``__call__`` gets it (marked by "()")
                made = _dotted(f.func)
                dotted = made + "()" if made is not None else None
            if dotted is not None:
                for i, a in enumerate(node.args):  # type: ignore[attr-defined]
                    if type(a) is ast.Starred:
                        break  # later positions are unknown
                    if type(a) is Name:
                        call_args[id(a)] = (dotted, i, None)
                for kw in node.keywords:  # type: ignore[attr-defined]
                    if kw.arg is not None and type(kw.value) is Name:
                        call_args[id(kw.value)] = (dotted, None, kw.arg)
        inner = node.name if tp is ast.ClassDef else cls  # type: ignore[attr-defined]
        for field in tp._fields:
            v = getattr(node, field, None)
            if type(v) is list:
                for child in v:
                    if type(child) is Name:
                        # a name is a leaf (its context is all below it): not walked further
                        if child.id in writer_calls and id(child) not in writer_calls[child.id]:
                            spoilt.add(child.id)
                        if type(child.ctx) is Load and child.id not in out and not _plain_read(child, node):
                            if id(child) not in aliased:
                                unplain(child)
                    elif isinstance(child, AST_):
                        stack.append((child, inner))
            elif type(v) is Name:
                if v.id in writer_calls and id(v) not in writer_calls[v.id]:
                    spoilt.add(v.id)
                if type(v.ctx) is Load and v.id not in out and not _plain_read(v, node) and id(v) not in aliased:
                    unplain(v)
            elif isinstance(v, AST_) and type(v) not in _CONTEXTS:
                stack.append((v, inner))
    for d, ws in written.items():
        if ws & spoilt:
            out.add(d)  # a writer another statement calls, hands on or binds again: it may store any time
        else:
            escapes.setdefault(d, []).extend((WRITER, None, w) for w in sorted(ws))
    # a table bound to a parameter or a local is as stable as that name (``y = a or X``, then ``z = y``: to a fixpoint);
    # where that name is handed to calls (``def __init__(self, pools=POOLS): CNNEncoder(ch, pools)``), the table is
    # handed to the same calls, each callee's use of it decided by the analysis as for the table's own
    grew = True
    while grew:
        more = {name for name, param in defaults if param in out and name not in out}
        out |= more
        grew = bool(more)
        for name, param in defaults:
            if name not in out and param in escapes:
                have = escapes.setdefault(name, [])
                new = [e for e in escapes[param] if e not in have]
                have.extend(new)
                grew = grew or bool(new)
    handed = {k: tuple(v) for k, v in escapes.items() if k not in out}
    out.update(escapes)
    return frozenset(out), (frozenset(names), {k: frozenset(v) for k, v in patched.items()}), handed


# calls a module-level statement may make before a table's fill without running code of the analysed tree
_INERT_CALLS = frozenset({"dict", "list", "tuple", "set", "frozenset", "range", "int", "float", "str", "bool", "len"})


def _table_fills(tree: ast.Module) -> set[int]:
    """The top-level statements ``D["name"] = value`` (a string or integer key) that fill a module-level table before
    any code of the analysed tree can run (``default_cfgs["small"] = dict(dim=32)`` after the classes and functions):
    every top-level statement before them is an import, a def or class (undecorated, or a dataclass), a docstring, or
    an assignment calling nothing but builtin constructors. Such a store changes the table only while the module
    level runs, before any function can read it: the table stays as stable as its other uses make it."""

    def inert(e: ast.AST | None) -> bool:
        if e is None:
            return True
        for n in ast.walk(e):
            if type(n) is ast.Call and not (type(n.func) is ast.Name and n.func.id in _INERT_CALLS):
                return False
            if type(n) in (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom):
                return False
        return True

    def quiet_decorators(st: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
        return all(
            (type(d) is ast.Name and d.id == "dataclass") or (type(d) is ast.Attribute and d.attr == "dataclass")
            for d in st.decorator_list
        ) and (type(st) is not ast.ClassDef or all(inert(b) for b in st.bases))

    out: set[int] = set()
    for st in tree.body:
        tp = type(st)
        if tp is ast.Assign:
            t = st.targets[0] if len(st.targets) == 1 else None  # type: ignore[attr-defined]
            if (
                type(t) is ast.Subscript
                and type(t.value) is ast.Name
                and type(t.slice) is ast.Constant
                and type(t.slice.value) in (str, int)
                and inert(st.value)  # type: ignore[attr-defined]
            ):
                out.add(id(st))
                continue
            if not inert(st.value):  # type: ignore[attr-defined]
                break
            continue
        if tp is ast.AnnAssign:
            if not inert(st.value):  # type: ignore[attr-defined]
                break
            continue
        if tp in (ast.Import, ast.ImportFrom, ast.Pass):
            continue
        if tp is ast.Expr and type(st.value) is ast.Constant:  # type: ignore[attr-defined]
            continue
        if tp in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) and quiet_decorators(st):  # type: ignore[arg-type]
            continue
        break
    return out


def _dotted(e: ast.expr) -> str | None:
    """``f`` / ``pkg.mod.f`` as text (None: anything else, ``self.f``, ``g()``)."""
    parts: list[str] = []
    while type(e) is ast.Attribute:
        parts.append(e.attr)
        e = e.value
    if type(e) is not ast.Name or e.id in ("self", "cls"):
        return None
    parts.append(e.id)
    return ".".join(reversed(parts))


_CONTEXTS = frozenset({ast.Load, ast.Store, ast.Del})  # a name's, an attribute's, a subscript's context: leaves


def _default_bindings(args: ast.arguments) -> list[tuple[str, str]]:
    """``(X, p)`` for each parameter ``p`` whose default is the bare name ``X``."""
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return [(d.id, a.arg) for a, d in pairs if type(d) is ast.Name]


def _aliases(node: ast.Assign) -> list[tuple[ast.Name, str]]:
    """``y = X``, ``y = y or X``, ``y = X if c else Z``: the names whose value the one plain name ``y`` is bound to,
    each with ``y`` (``y`` itself, read on the right, only rebinds ``y``). The table stays as stable as ``y``."""
    if len(node.targets) != 1 or type(node.targets[0]) is not ast.Name:
        return []
    target = node.targets[0].id
    out: list[tuple[ast.Name, str]] = []
    todo: list[ast.expr] = [node.value]
    while todo:
        e = todo.pop()
        if type(e) is ast.Name:
            out.append((e, target))
        elif type(e) is ast.BoolOp:
            todo.extend(e.values)
        elif type(e) is ast.IfExp:
            todo.extend((e.body, e.orelse))
    return out


def _mutated_roots(target: ast.expr, augmented: bool) -> set[str]:
    """Names an assignment target changes in place: ``X[k] = v``, ``X.a = v``, ``X[k] += v``, ``X += [v]``."""
    out: set[str] = set()
    todo = [target]
    while todo:
        t = todo.pop()
        if isinstance(t, ast.Name):
            if augmented:
                out.add(t.id)
        elif isinstance(t, (ast.Subscript, ast.Attribute)):
            base = t.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                out.add(base.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            todo.extend(t.elts)
        elif isinstance(t, ast.Starred):
            todo.append(t.value)
    return out


def _plain_read(name: ast.Name, parent: ast.AST) -> bool:
    """Reading ``name`` under ``parent`` neither changes the value nor lets it escape: ``X[k]``, ``k in X``,
    ``X.get(k)`` / ``X.items()``, iteration, ``X + [y]`` (a new value), ``len(X)`` / ``dict(X)`` /
    ``copy.deepcopy(X)``, ``{**X}``,
    ``f(*X)``, ``f(**X)`` (the callee's ``**kwargs`` is a new dict), calling it. ``y = X``, ``return X``, ``f(X)``,
    ``X.append(y)`` are not."""
    if isinstance(parent, ast.Dict):
        return any(k is None and v is name for k, v in zip(parent.keys, parent.values))  # {**X}; {k: X} aliases
    if isinstance(parent, (ast.Subscript, ast.Compare, ast.BinOp, ast.UnaryOp, ast.Starred)):
        return True
    if isinstance(parent, ast.Attribute):
        return parent.attr in _READ_METHODS
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is name
    if isinstance(parent, ast.arguments):
        return True  # a default: stable as long as the parameter is (``_default_bindings``)
    if isinstance(parent, ast.Call):
        func = parent.func
        return parent.func is name or (
            name in parent.args
            and (
                (isinstance(func, ast.Name) and func.id in _COPYING_BUILTINS | {"deepcopy"})
                # copy.deepcopy(X) / copy.copy(X): a new value built from X (X itself is not changed or kept)
                or (
                    isinstance(func, ast.Attribute)
                    and func.attr in ("deepcopy", "copy")
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "copy"
                )
            )
        )
    if type(parent) is ast.keyword:
        return parent.arg is None  # f(**X); f(k=X) hands X on
    return False


def _module_writers(tree: ast.Module) -> tuple[dict[int, tuple[str, str]], dict[str, set[int]]]:
    """Functions that fill a module-level dict, called by the module's own top-level statements::

        _PRESETS = {}

        def register_preset(name, **kwargs):
            _PRESETS[name] = SwinConfig(**kwargs)    # the dict's one use in the function, a statement of its body

        register_preset("nano", img_size=96)        # the function's uses: calls, each a top-level statement

    ``(stores, calls)``: the id of each such store statement -> (dict, function), and each such function's name ->
    the ids of the names its top-level calls call it by (any other use of the name spoils it, ``module_facts``). The
    module level runs the calls, so a function of the module reading the dict later sees it filled, when no other
    module can call the writer again (``ModuleAnalysis.stable_global``)."""
    bound = {t.id for st in tree.body if type(st) is ast.Assign for t in st.targets if type(t) is ast.Name}
    defs = [st for st in tree.body if type(st) is ast.FunctionDef]
    names = [d.name for d in defs]
    stores: dict[int, tuple[str, str]] = {}
    writers: set[str] = set()
    for fn in defs:
        if fn.decorator_list or names.count(fn.name) != 1 or fn.name in bound:
            continue
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        found: list[tuple[ast.Assign, str]] = []
        for st in fn.body:
            if (
                type(st) is ast.Assign
                and len(st.targets) == 1
                and type(t := st.targets[0]) is ast.Subscript
                and type(t.value) is ast.Name
                and t.value.id in bound
                and t.value.id not in params
                and type(t.slice) is ast.Name
                and t.slice.id in params
            ):
                found.append((st, t.value.id))
        if len(found) != 1:
            continue
        st, d = found[0]
        if any(type(b) not in (ast.Assign, ast.AnnAssign, ast.Expr) for b in fn.body[: fn.body.index(st)]):
            continue  # a return, a branch or a loop before the store: it may not run
        mentions = sum(1 for n in ast.walk(fn) if type(n) is ast.Name and n.id == d)
        if mentions != 1:
            continue  # the dict read or changed otherwise in the function too (or a local of that name)
        stores[id(st)] = (d, fn.name)
        writers.add(fn.name)
    calls: dict[str, set[int]] = {w: set() for w in writers}
    for st in tree.body:
        if (
            type(st) is ast.Expr
            and type(st.value) is ast.Call
            and type(f := st.value.func) is ast.Name
            and f.id in calls
        ):
            calls[f.id].add(id(f))
    return stores, calls
