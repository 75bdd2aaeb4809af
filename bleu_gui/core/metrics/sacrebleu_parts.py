"""sacreBLEU's tokenizer modules and version, loaded without running ``sacrebleu/__init__``.

Importing any ``sacrebleu.*`` module first runs the package's ``__init__``,
which pulls in the metrics, the data-set list, portalocker, colorama and
``importlib.metadata``: about 70 ms at every start of ``bleu-score``, more
than scoring three thousand lines. The tokenizers need none of it: their
modules import only each other (and ``regex`` for intl). So sacreBLEU's own
``tokenizers`` folder and ``version.py`` are loaded here as a private
package, ``bleu_gui._sacrebleu``, from the installed sacreBLEU's files; the
code that runs is sacreBLEU's, unchanged but for one thing: the memo
(``functools.lru_cache``, 65,536 entries) on each tokenizer class's
``__call__`` is taken off. Words reach the tokenizer in batches of thousands,
each batch a string seen once; memoised, the batches and their results stayed
alive, ~95 MB at a million lines of 3M word types, for no hit. ``sacrebleu``
itself stays importable as usual, memo and all (the tests import it as the oracle).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType

_PACKAGE = "bleu_gui._sacrebleu"
_LOCK = threading.Lock()


@functools.cache
def _sacrebleu_folder() -> Path:
    spec = importlib.util.find_spec("sacrebleu")  # finds the package without running its __init__
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("sacrebleu is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _package(name: str, folder: Path, init: Path | None) -> ModuleType:
    """A package ``name`` whose submodules are the files of ``folder``; ``init`` (or nothing) as its body."""
    if name in sys.modules:
        return sys.modules[name]
    if init is None:
        module = ModuleType(name)
        module.__path__ = [str(folder)]
        sys.modules[name] = module
        return module
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def sacrebleu_module(dotted: str) -> ModuleType:
    """sacreBLEU's module ``dotted`` (``"tokenizers.tokenizer_13a"``, ``"version"``), from the installed files.

    Only ``tokenizers`` and ``version`` are offered: other parts of sacreBLEU reach
    for the package's ``__init__`` and must be imported as ``sacrebleu.*``.
    """
    top = dotted.split(".")[0]
    if top not in ("tokenizers", "version"):
        raise ValueError(f"sacrebleu.{dotted} needs the whole package: import it as usual")
    with _LOCK:
        folder = _sacrebleu_folder()
        _package(_PACKAGE, folder, None)
        if top == "tokenizers":
            _package(f"{_PACKAGE}.tokenizers", folder / "tokenizers", folder / "tokenizers" / "__init__.py")
        module = importlib.import_module(f"{_PACKAGE}.{dotted}")
        _drop_call_memos(f"{_PACKAGE}.tokenizers.")
        return module


def _drop_call_memos(prefix: str) -> None:
    """Take the lru_cache off ``__call__`` of every class in the loaded modules under ``prefix`` (a module
    imports others, e.g. 13a's post-tokenizer's). Other memos (zh's per-character test) stay."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix):
            continue
        for value in vars(module).values():
            call = vars(value).get("__call__") if isinstance(value, type) else None
            if call is not None and hasattr(call, "cache_clear") and hasattr(call, "__wrapped__"):
                value.__call__ = call.__wrapped__


@functools.cache
def sacrebleu_version() -> str:
    """The installed sacreBLEU's version string, as ``sacrebleu.__version__``."""
    return str(sacrebleu_module("version").__version__)
