"""Test sets by name, through sacreBLEU's own registry (``sacrebleu -t NAME -l PAIR``): its downloads, its cache
folder (``$SACREBLEU``, else ``~/.sacrebleu``) and its processed files — the source, the references and the other
fields its ``--echo`` gives (``docid``, ``origlang``, ``genre`` …) — never a copy of ours. A set sacreBLEU has
processed before is read offline; one that is neither cached nor reachable is said in one line."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, term


@dataclass(frozen=True)
class TestSetFiles:
    """The files sacreBLEU gives for one test set and language pair, by its field names."""

    name: str
    langpair: str
    source: Path
    references: tuple[Path, ...]
    fields: dict[str, Path]  # every other field: docid, origlang, genre, …

    @property
    def languages(self) -> tuple[str, str]:
        source, _, target = self.langpair.partition("-")
        return source, target


def _registry() -> dict[str, object]:
    from sacrebleu.dataset import DATASETS

    return dict(DATASETS)


def _pairs(dataset: object) -> list[str]:
    return list(getattr(dataset, "langpairs", {}) or {})


def registry_pairs() -> dict[str, list[str]]:
    """Every test set sacreBLEU knows, with its language pairs."""
    return {name: _pairs(d) for name, d in _registry().items()}


def cache_folder() -> Path:
    """sacreBLEU's cache folder (its ``SACREBLEU_DIR``)."""
    from sacrebleu.utils import SACREBLEU_DIR

    return Path(SACREBLEU_DIR)


def test_set_files(name: str, langpair: str | None) -> TestSetFiles:
    """The files of test set ``name`` for ``langpair`` (see the module); :class:`InputError` for a name or pair
    sacreBLEU does not have, or a set neither cached nor reachable."""
    datasets = _registry()
    if name not in datasets:
        close = difflib.get_close_matches(name, list(datasets), n=4)
        said = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(f"{term('test_set', name)}: sacreBLEU has no test set of that name{said}")
    dataset: Any = datasets[name]
    pairs = _pairs(dataset)
    listed = f"{', '.join(pairs[:12])}{' …' if len(pairs) > 12 else ''}"
    if not langpair:
        raise InputError(f"{term('test_set', name)}: name the language pair ({term('language_pair')}); it has "
                         f"{listed}")
    if langpair not in pairs:
        raise InputError(f"{term('test_set', name)} has no language pair {langpair} (it has {listed})")
    try:
        fields = list(dataset.fieldnames(langpair))
        files = [Path(f) for f in dataset.get_files(langpair)]
    except (Exception, SystemExit) as exc:  # sacreBLEU exits on a failed download; a network error raises
        why = str(exc).strip().splitlines()[0][:160] if str(exc).strip() and not isinstance(exc, SystemExit) else \
            "its download failed"
        raise InputError(f"{term('test_set', name)} ({langpair}) is neither in sacreBLEU's cache "
                         f"({cache_folder() / name}) nor reachable: {why}") from None
    by_field = dict(zip(fields, files))
    missing = [str(f) for f in files if not f.is_file()]
    if missing or "src" not in by_field:
        raise InputError(f"{term('test_set', name)} ({langpair}): sacreBLEU's files are not all there "
                         f"({', '.join(missing) or 'no source field'})")
    references = tuple(p for f, p in by_field.items() if f.startswith("ref"))
    others = {f: p for f, p in by_field.items() if f != "src" and not f.startswith("ref")}
    return TestSetFiles(name, langpair, by_field["src"], references, others)
