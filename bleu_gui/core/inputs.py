"""From the files a user names to a run's systems, references and context, in any input format.

Plain text files are read as before (one segment per line, decoded alike).
A structured file gives fields by role: a WMT XML file or a TSV/JSONL with a
system column holds systems *and* references, so ``bleu-score FILE.xml``
alone scores every system in it against all its references; an XLIFF, TMX or
SGML file holds one translation, a candidate when given with ``-i`` and a
reference otherwise. The source comes from ``--src`` (its source side) or, when
not given, from the first structured input that carries one — and a note says
which. Nothing is picked up silently.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from .corpus import Context, Corpus
from .errors import InputError
from .input_formats import ReadOptions, read_corpus, sniff_format
from .readers import (
    SegmentFile,
    check_not_identical,
    check_same_length,
    decode_file,
    expand_references,
    read_bytes,
    read_segments,
    read_text_files,
    real_path,
)

Progress = Callable[[float], None]


@dataclass(frozen=True)
class Inputs:
    """What a run scores: systems (baseline first), references, and what surrounds them."""

    systems: list[SegmentFile]
    references: list[SegmentFile]
    context: Context


def _read_all(paths: Sequence[Path], encoding: str, options: ReadOptions,
              progress: Progress | None) -> list[SegmentFile | Corpus]:
    """Each path read by its format; plain text files are decoded together (one encoding for all)."""
    formats = [options.input_format or sniff_format(p) for p in paths]
    text_paths = [p for p, f in zip(paths, formats) if f == "text"]
    texts = iter(read_text_files(text_paths, encoding, progress) if text_paths else [])
    return [next(texts) if f == "text" else read_corpus(p, f, encoding, options) for p, f in zip(paths, formats)]


def _matches(f: SegmentFile, wanted: str) -> bool:
    return wanted in (f.field, f.field.removeprefix("ref:"), f.name, str(f.path))


def _pick(files: list[SegmentFile], wanted: Sequence[str] | None, what: str) -> list[SegmentFile]:
    if not wanted:
        return files
    picked: list[SegmentFile] = []
    for name in wanted:
        found = [f for f in files if _matches(f, name)]
        if not found:
            available = ", ".join(f.field or f.name for f in files) or "none"
            raise InputError(f"no {what} named {name!r} (the inputs have: {available})")
        picked += [f for f in found if all(f is not p for p in picked)]
    return picked


def _systems(read: list[SegmentFile | Corpus], given: bool) -> list[SegmentFile]:
    out: list[SegmentFile] = []
    for item in read:
        if isinstance(item, SegmentFile):
            out.append(item)
        elif given:
            found = item.systems + item.translations
            if not found:
                raise InputError(f"{item.path}: holds no translation to score (a {item.format} file with only "
                                 "a source or references)")
            out += found
        else:
            out += item.systems or (item.translations if item.references else [])
    return out


def _references(read: list[SegmentFile | Corpus], systems: list[SegmentFile]) -> list[SegmentFile]:
    out: list[SegmentFile] = []
    for item in read:
        if isinstance(item, SegmentFile):
            out.append(item)
        else:
            taken = {id(s) for s in systems}
            out += [f for f in item.references + item.translations if id(f) not in taken]
    return out


def _source(path: Path | None, encoding: str, options: ReadOptions,
            corpora: list[Corpus]) -> tuple[SegmentFile | None, str]:
    if path is not None:
        fmt = options.input_format or sniff_format(path)
        if fmt == "text":
            return read_segments(path, encoding), ""
        corpus = read_corpus(path, fmt, encoding, options)
        found = corpus.context.source or (corpus.translations[0] if corpus.translations else None)
        if found is None:
            raise InputError(f"{path}: holds no source text (a {corpus.format} file)")
        return found, ""
    for corpus in corpora:
        if corpus.context.source is not None:
            return corpus.context.source, f"source: {corpus.context.source.name} (inside the input; --src overrides)"
    return None, ""


def _docs(path: Path | None, encoding: str, corpora: list[Corpus]) -> tuple[Context, str]:
    """Document ids and metadata: from a ``.docs`` file (one id per line), else the first input that has them."""
    if path is not None:
        return Context(docs=tuple(read_segments(path, encoding).lines)), ""
    for corpus in corpora:
        if corpus.context.docs is not None or corpus.context.meta:
            return (Context(docs=corpus.context.docs, meta=corpus.context.meta),
                    f"documents and metadata from {corpus.path.name}")
    return Context(), ""


def read_run_inputs(hypotheses: Sequence[str | Path], references: Sequence[str | Path], encoding: str = "utf-8", *,
                    source: str | Path | None = None, docs: str | Path | None = None,
                    options: ReadOptions = ReadOptions(), refs_wanted: Sequence[str] | None = None,
                    systems_wanted: Sequence[str] | None = None, allow_identical: bool = False,
                    progress: Progress | None = None) -> Inputs:
    """Read every input in its format and decide what is system, reference, source and document (see the module).

    ``refs_wanted`` picks references by field or translator (``A`` or ``ref:A``), or
    turns a system of a long table (``Human-A.0``) into the reference;
    ``systems_wanted`` picks systems by name. ``progress`` may raise to stop.
    """
    if not references:
        raise InputError("no reference file given")
    ref_paths, folder_notes = expand_references(references, hypotheses, allow_identical)
    with _said_of_folder_files(list(folder_notes)):
        hyp_paths = [Path(p) for p in hypotheses]
        read = _read_all([*hyp_paths, *ref_paths], encoding, options, progress)
        hyp_read, ref_read = read[:len(hyp_paths)], read[len(hyp_paths):]
        systems = _systems(hyp_read if hyp_paths else ref_read, bool(hyp_paths))
        if not systems:
            raise InputError("no system output given (use -i FILE, or give a file that holds systems: WMT XML, "
                             "or a TSV/JSONL with a system column)")
        references_found = _references(ref_read, systems)
        if refs_wanted:
            # Without -i, a system of the file may be named as the reference (a long table's "Human-A.0").
            movable = [] if hyp_paths else [s for s in systems if any(_matches(s, w) for w in refs_wanted)]
            systems = [s for s in systems if all(s is not m for m in movable)]
            references_found = _pick(references_found + movable, refs_wanted, "reference")
        systems = _pick(systems, systems_wanted, "system")
        if not systems:
            raise InputError("every system was taken as a reference; nothing is left to score")
        if not references_found:
            raise InputError("no reference: the inputs hold no reference text (give a reference file)")
        corpora = [c for c in read if isinstance(c, Corpus)]
        src, src_note = _source(Path(source) if source is not None else None, encoding, options, corpora)
        context, docs_note = _docs(Path(docs) if docs is not None else None, encoding, corpora)
        notes = [n for c in corpora for n in c.notes] + [n for n in (src_note, docs_note) if n]
        context = Context(src, context.docs, context.meta, tuple(notes))
        check_same_length([*systems, *references_found, *([src] if src is not None else [])])
        context.check_length(len(systems[0].lines))
        if not allow_identical:
            check_not_identical(systems, references_found)
        references_found = [replace(f, notes=(folder_notes[f.path], *f.notes)) if f.path in folder_notes else f
                            for f in references_found]
        return Inputs(systems, references_found, context)


@contextlib.contextmanager
def _said_of_folder_files(from_folders: list[Path]) -> Iterator[None]:
    """An input error that names a file a folder gave also says what that folder gave (a manifest or a README
    read as a reference is otherwise a puzzle)."""
    try:
        yield
    except InputError as exc:
        named = next((p for p in from_folders if str(p) in str(exc)), None)
        if named is None:
            raise
        given = ", ".join(p.name for p in from_folders if p.parent == named.parent)
        raise type(exc)(f"{exc} (the folder {named.parent} gave the references {given}: every file in it but the "
                        "systems and source files)") from None


def read_more_systems(paths: Sequence[str | Path], like: Sequence[SegmentFile], references: Sequence[SegmentFile],
                      options: ReadOptions = ReadOptions()) -> list[SegmentFile]:
    """System outputs added to a run, each read in its format: plain text decoded exactly as the run's files
    (``like``) were — with their one encoding, detected or given, never a guess of its own — and a
    structured file's translations; checked against the references as :func:`read_run_inputs` checks systems."""
    files: list[SegmentFile] = []
    for raw in paths:
        path = Path(raw)
        if any(real_path(path) == real_path(r.path) for r in references):
            raise InputError(f"{path}: given as a system and as a reference")
        fmt = options.input_format or sniff_format(path)
        if fmt == "text":
            files.append(decode_file(path, read_bytes(path), like[0].encoding, like[0].detected))
        else:
            files += _systems([read_corpus(path, fmt, like[0].encoding, options)], given=True)
    check_same_length([*like, *files])
    check_not_identical(files, references)
    return files
